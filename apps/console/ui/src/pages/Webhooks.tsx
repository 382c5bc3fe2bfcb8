import { useState } from "react";
import { useParams } from "react-router";
import {
  Alert, Badge, Button, Checkbox, Code, CopyButton, Group, Stack, Table, Text, TextInput, Title, VisuallyHidden,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fieldError, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { lastError } from "../components/errors";
import { canManageWebhooks, EVENT_TYPES } from "./webhooks";

type Created = Schemas["WebhookCreatedJSON"];
type EventType = (typeof EVENT_TYPES)[number]["value"];

export function WebhooksPage() {
  const { acc = "individual" } = useParams();
  const qc = useQueryClient();
  const key = ["webhooks", acc];
  const q = { "account-id": acc };
  const hooks = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET("/webhooks", { params: { query: q } })) });
  const mine = useQuery({ queryKey: ["users"], queryFn: () => unwrap(api.GET("/users")) });
  const canManage = canManageWebhooks(acc, mine.data?.accounts?.find((a) => a.id === acc)?.role);
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<EventType[]>(["incident.created"]);
  const [created, setCreated] = useState<Created | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const done = () => qc.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST("/webhooks", { params: { query: q }, body: { url, events, description } })),
    onSuccess: (w) => { setCreated(w); setUrl(""); setDescription(""); done(); },
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/webhooks", { params: { query: { ...q, "webhook-id": id } } })),
    onSuccess: (_, id) => { if (shown === id) setShown(null); done(); },
  });
  const test = useMutation({
    mutationFn: (id: string) => unwrap(api.POST("/webhooks/test", { params: { query: { ...q, "webhook-id": id } } })),
    onSuccess: (r, id) => { setTested(r.message_id); setShown(id); qc.invalidateQueries({ queryKey: ["webhook-deliveries", acc, id] }); },
  });
  const list = hooks.data?.webhooks ?? [];
  return (
    <Stack>
      <Title order={2}>Webhooks</Title>
      <Text size="sm" c="dimmed">
        Vetted posts events to these URLs, signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature).
        A failed delivery is tried again with the same webhook-id for 24 hours; then the endpoint is disabled and the
        account's admins and owners get a mail. Only https URLs on public addresses (port 443 or 80) are accepted.
      </Text>
      {canManage && (
        <form onSubmit={(e) => { e.preventDefault(); setCreated(null); create.mutate(); }} aria-label="New webhook">
          <Stack gap="xs">
            <Group align="flex-start">
              <TextInput label="Endpoint URL" required w={420} placeholder="https://hooks.example.com/vetted" value={url}
                onChange={(e) => setUrl(e.currentTarget.value)} error={fieldError(create.error, "body.url")} />
              <TextInput label="Description" w={260} value={description} onChange={(e) => setDescription(e.currentTarget.value)}
                error={fieldError(create.error, "body.description")} />
            </Group>
            <Checkbox.Group label="Events" value={events} onChange={(v) => setEvents(v as EventType[])}
              error={fieldError(create.error, "body.events")}>
              <Group mt={4}>
                {EVENT_TYPES.map((t) => <Checkbox key={t.value} value={t.value} label={t.label} />)}
              </Group>
            </Checkbox.Group>
            <Group><Button type="submit" loading={create.isPending}>Add webhook</Button></Group>
          </Stack>
        </form>
      )}
      {created && (
        <Alert color="yellow" role="status">
          <Stack gap={6}>
            <Text fw={700} c="dark.9">Signing secret: copy it now, it is shown only once</Text>
            <Text size="sm">Endpoint {created.url}. Your receiver verifies each request with this secret.</Text>
            <Group>
              <Code data-testid="webhook-secret">{created.secret}</Code>
              <CopyButton value={created.secret}>
                {({ copied, copy }) => <Button size="xs" variant="light" onClick={copy}>{copied ? "Copied" : "Copy secret"}</Button>}
              </CopyButton>
              <Button size="xs" variant="subtle" onClick={() => setCreated(null)}>I have kept it</Button>
            </Group>
          </Stack>
        </Alert>
      )}
      <ErrorNote error={hooks.error ?? lastError(create, remove, test)} labels={{ "body.url": "Endpoint URL", "body.description": "Description", "body.events": "Events" }}
        atFields={create.submittedAt >= Math.max(remove.submittedAt, test.submittedAt) ? ["body.url", "body.description", "body.events"] : []} />
      {tested && <Text size="sm" role="status">Test event queued (webhook-id {tested}).</Text>}
      <Table striped>
        <Table.Thead>
          <Table.Tr><Table.Th>URL</Table.Th><Table.Th>Events</Table.Th><Table.Th>State</Table.Th><Table.Th>Added</Table.Th>
            <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((w) => (
            <Table.Tr key={w.id}>
              <Table.Td>{w.url}{w.description && <Text size="xs" c="dimmed">{w.description}</Text>}</Table.Td>
              <Table.Td>{w.events.join(", ")}</Table.Td>
              <Table.Td><Badge variant="light" c="dark.9" color={w.status === "active" ? "green" : "red"}>{w.status}</Badge></Table.Td>
              <Table.Td>{new Date(w.created_at).toLocaleDateString()}</Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Button size="xs" variant="light" aria-label={`Deliveries of ${w.url}`} onClick={() => setShown(shown === w.id ? null : w.id)}>
                    Deliveries
                  </Button>
                  {canManage && (
                    <>
                      <Button size="xs" variant="light" aria-label={`Send a test event to ${w.url}`} loading={test.isPending && test.variables === w.id}
                        onClick={() => test.mutate(w.id)}>Send test</Button>
                      <Button size="xs" color="red" variant="light" aria-label={`Delete ${w.url}`}
                        onClick={() => window.confirm(`Delete the webhook ${w.url}?`) && remove.mutate(w.id)}>Delete</Button>
                    </>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {list.length === 0 && hooks.isSuccess && <Text c="dimmed">No webhooks yet.</Text>}
      {shown && <Deliveries acc={acc} id={shown} url={list.find((w) => w.id === shown)?.url ?? ""} />}
    </Stack>
  );
}

function Deliveries({ acc, id, url }: { acc: string; id: string; url: string }) {
  const d = useQuery({
    queryKey: ["webhook-deliveries", acc, id],
    queryFn: () => unwrap(api.GET("/webhooks/deliveries", { params: { query: { "account-id": acc, "webhook-id": id } } })),
    refetchInterval: 3000,
  });
  const rows = d.data?.deliveries ?? [];
  return (
    <Stack gap="xs">
      <Title order={3}>Deliveries to {url}</Title>
      <ErrorNote error={d.error} />
      <Table striped aria-label="Deliveries">
        <Table.Thead>
          <Table.Tr><Table.Th>When</Table.Th><Table.Th>Event</Table.Th><Table.Th>Attempt</Table.Th><Table.Th>Result</Table.Th>
            <Table.Th>Duration</Table.Th><Table.Th>Next retry</Table.Th><Table.Th>webhook-id</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((a) => (
            <Table.Tr key={`${a.delivery_id}-${a.attempt}`}>
              <Table.Td>{new Date(a.attempted_at).toLocaleString()}</Table.Td>
              <Table.Td>{a.event_type}</Table.Td>
              <Table.Td>{a.attempt}</Table.Td>
              <Table.Td>
                <Badge variant="light" c="dark.9" color={a.ok ? "green" : "red"}>{a.ok ? "delivered" : "failed"}</Badge>{" "}
                {a.status_code > 0 ? `HTTP ${a.status_code}` : ""} {a.error && <Text span size="xs">{a.error}</Text>}
              </Table.Td>
              <Table.Td>{a.duration_ms.toFixed(1)} ms</Table.Td>
              <Table.Td>{a.next_retry_at ? new Date(a.next_retry_at).toLocaleString() : "none"}</Table.Td>
              <Table.Td><Code>{a.message_id}</Code></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {rows.length === 0 && d.isSuccess && <Text c="dimmed">No deliveries yet.</Text>}
      {d.data && d.data.total > rows.length && <Text size="sm" c="dimmed">Showing the newest {rows.length} of {d.data.total} attempts.</Text>}
    </Stack>
  );
}
