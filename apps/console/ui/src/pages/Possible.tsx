import { useState } from "react";
import { Anchor, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { lastError } from "../components/errors";
import { Evidence, SeverityBadge } from "../components/Evidence";
import { safeURL, sourceLabel } from "./incidents";

type Status = "pending" | "confirmed" | "dismissed";

/**
 * PossiblePage is the platform admins' queue of possible matches: items
 * that named a directory vendor without enough evidence. Confirming makes
 * the incident (and alerts as any new one); dismissing closes it.
 */
export function PossiblePage() {
  const qc = useQueryClient();
  const [status, setStatus] = useState<Status>("pending");
  const [done, setDone] = useState("");
  const list = useQuery({
    queryKey: ["possible", status],
    queryFn: () => unwrap(api.GET("/incidents/possible", { params: { query: { status } } })),
  });
  const after = (what: string) => (r: { possible: Schemas["PossibleMatchJSON"] }) => {
    setDone(`${what}: ${r.possible.incident.title} (${r.possible.vendor_name}).`);
    qc.invalidateQueries({ queryKey: ["possible"] });
    qc.invalidateQueries({ queryKey: ["account-incidents"] });
  };
  const confirm = useMutation({
    mutationFn: (id: string) => unwrap(api.POST("/incidents/possible/{id}/confirm", { params: { path: { id } } })),
    onMutate: () => setDone(""),
    onSuccess: after("Confirmed"),
  });
  const dismiss = useMutation({
    mutationFn: (id: string) => unwrap(api.POST("/incidents/possible/{id}/dismiss", { params: { path: { id } } })),
    onMutate: () => setDone(""),
    onSuccess: after("Dismissed"),
  });
  const rows = list.data?.possible ?? [];
  const busy = (id: string) => (confirm.isPending && confirm.variables === id) || (dismiss.isPending && dismiss.variables === id);
  return (
    <Stack>
      <Title order={2}>Possible matches</Title>
      <Text size="sm" c="dimmed">
        Items of the platform-wide sources that named a directory vendor without enough evidence to be its incident.
        Confirm one to make it the vendor's incident (its subscribers are alerted as for any new incident), or dismiss it.
      </Text>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="possible-status">Status</Text>
        <SegmentedControl aria-labelledby="possible-status" value={status} onChange={(v) => { setStatus(v as Status); setDone(""); }}
          data={[{ value: "pending", label: "Pending" }, { value: "confirmed", label: "Confirmed" }, { value: "dismissed", label: "Dismissed" }]}
          w={{ base: "100%", sm: 360 }} />
      </Stack>
      <ErrorNote error={list.error ?? lastError(confirm, dismiss)} />
      <Text role="status" fw={600}>{done}</Text>
      {list.isLoading && <Text>Loading…</Text>}
      {list.isSuccess && rows.length === 0 && <Text c="dimmed">No {status} possible match.</Text>}
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: "none" }} aria-label="Possible matches">
        {rows.map((p) => {
          const href = safeURL(p.incident.url);
          return (
            <Paper component="li" withBorder p="sm" key={p.id} data-testid="possible">
              <Stack gap={4}>
                <Title order={3} size="h5">
                  {href ? <Anchor href={href} target="_blank" rel="noreferrer noopener">{p.incident.title}</Anchor> : p.incident.title}
                </Title>
                <Group gap="xs" wrap="wrap">
                  <Text span fw={600}>{p.vendor_name}</Text>
                  <SeverityBadge severity={p.incident.severity} />
                  <Text span size="sm">{sourceLabel(p.incident.source)}</Text>
                  <Text span size="sm">published <time dateTime={p.incident.published_at}>{new Date(p.incident.published_at).toLocaleDateString()}</time></Text>
                  {p.decided_at && <Text span size="sm" c="dimmed">{p.status} by {p.decided_by} on {new Date(p.decided_at).toLocaleDateString()}</Text>}
                </Group>
                {p.incident.summary && <Text size="sm" lineClamp={3}>{p.incident.summary}</Text>}
                <Evidence match={p.incident.match} />
                {p.status === "pending" && (
                  <Group gap="xs">
                    <Button size="xs" loading={busy(p.id) && confirm.isPending} disabled={busy(p.id)} onClick={() => confirm.mutate(p.id)}
                      aria-label={`Confirm ${p.incident.title} as an incident of ${p.vendor_name}`}>Confirm</Button>
                    <Button size="xs" variant="default" loading={busy(p.id) && dismiss.isPending} disabled={busy(p.id)} onClick={() => dismiss.mutate(p.id)}
                      aria-label={`Dismiss ${p.incident.title} for ${p.vendor_name}`}>Dismiss</Button>
                  </Group>
                )}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </Stack>
  );
}
