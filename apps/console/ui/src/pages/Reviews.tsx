import { useEffect, useState } from "react";
import { Link, useParams } from "react-router";
import { Anchor, Badge, Button, Checkbox, Code, Group, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fieldError, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { lastError } from "../components/errors";
import { CADENCE_TIERS, STATE_LABEL, cadenceErrors, day } from "./reviews";
import { canManage } from "./roles";
import { useRole } from "../App";
import { focusHeading } from "../page";

type Due = Schemas["AssessmentJSON"] & { listName: string };

/** ReviewsPage: the reviews due soon or overdue across the account's lists, its review policy and calendar feed. */
export function ReviewsPage() {
  const { acc = "individual" } = useParams();
  const lists = useQuery({
    queryKey: ["lists", acc],
    queryFn: () => unwrap(api.GET("/vendor-lists", { params: { query: { "account-id": acc } } })),
  });
  const due = useQuery({
    queryKey: ["due", acc, lists.data?.lists?.map((l) => l.id).join()],
    enabled: !!lists.data,
    queryFn: async () => {
      const out: Due[] = [];
      for (const l of lists.data?.lists ?? []) {
        for (const state of ["overdue", "due_soon"] as const) {
          const r = await unwrap(api.GET("/vendor-assessments", {
            params: { query: { "account-id": acc, "vendor-list-id": l.id, "review-state": state, sort: "next_review_at" } },
          }));
          out.push(...r.assessments.map((a) => ({ ...a, listName: l.name })));
        }
      }
      return out.sort((a, b) => (a.next_review_at ?? "").localeCompare(b.next_review_at ?? ""));
    },
  });
  return (
    <Stack>
      <Title order={2}>Reviews due</Title>
      <ErrorNote error={lists.error ?? due.error} />
      {due.data?.length === 0 && <Text>No review is due soon or overdue.</Text>}
      {!!due.data?.length && (
        <Table striped data-testid="reviews-due">
          <Table.Thead><Table.Tr><Table.Th>Vendor</Table.Th><Table.Th>List</Table.Th><Table.Th>Tier</Table.Th><Table.Th>Status</Table.Th><Table.Th>Due</Table.Th><Table.Th>State</Table.Th></Table.Tr></Table.Thead>
          <Table.Tbody>
            {due.data.map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td><Anchor component={Link} to={`/a/${acc}/lists/${a.vendor_list_id}/vendors/${a.vendor_id}/assessment`}>{a.vendor_name}</Anchor></Table.Td>
                <Table.Td>{a.listName}</Table.Td>
                <Table.Td>{a.tier || "not tiered"}</Table.Td>
                <Table.Td>{a.compliance_approval_status}</Table.Td>
                <Table.Td>{day(a.next_review_at)}</Table.Td>
                <Table.Td><Badge variant="light" c="dark.9" color={a.review_state === "overdue" ? "red" : "yellow"}>{STATE_LABEL[a.review_state]}</Badge></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {acc !== "individual" && <Policy acc={acc} />}
      <Calendar acc={acc} />
    </Stack>
  );
}

const POLICY_LABELS: Record<string, string> = {
  "body.reminder_offsets_days": "Reminder offsets", "body.reminder_offsets_days[]": "Reminder offsets",
  "body.overdue_repeat_weekly": "Remind weekly while overdue",
  ...Object.fromEntries(CADENCE_TIERS.map((k) => [`body.cadence_months.${k}`, `Months between reviews, ${k.replace("_", " ")}`])),
};

function Policy({ acc }: { acc: string }) {
  const qc = useQueryClient();
  const manager = canManage(acc, useRole(acc));
  const policy = useQuery({ queryKey: ["review-policy", acc], queryFn: () => unwrap(api.GET("/review-policy", { params: { query: { "account-id": acc } } })) });
  // A cleared field stays empty (""), and is refused at Save: never sent as 0, never clamped to 1.
  const [cadence, setCadence] = useState<Record<string, number | string>>({});
  const [checked, setChecked] = useState<Record<string, string>>({});
  const [offsets, setOffsets] = useState("");
  const [weekly, setWeekly] = useState(true);
  useEffect(() => {
    if (!policy.data) return;
    setCadence({ ...policy.data.cadence_months });
    setOffsets(policy.data.reminder_offsets_days.join(", "));
    setWeekly(policy.data.overdue_repeat_weekly);
  }, [policy.data]);
  const save = useMutation({
    mutationFn: () => unwrap(api.PUT("/review-policy", {
      params: { query: { "account-id": acc } },
      body: {
        cadence_months: Object.fromEntries(Object.entries(cadence).map(([k, v]) => [k, Number(v)])) as Schemas["CadenceBody"],
        reminder_offsets_days: offsets.split(",").map((x) => x.trim()).filter(Boolean).map(Number),
        overdue_repeat_weekly: weekly,
      },
    })),
    onSuccess: () => { qc.invalidateQueries({ queryKey: ["review-policy", acc] }); qc.invalidateQueries({ queryKey: ["due", acc] }); focusHeading(); },
  });
  const submit = () => {
    const bad = cadenceErrors(cadence);
    setChecked(bad);
    if (Object.keys(bad).length === 0) save.mutate();
    else save.reset();
  };
  return (
    <Paper withBorder p="md">
      <Title order={3}>Review policy</Title>
      <Text size="sm">Months between reviews per tier, reminders before the due date (days), and whether overdue reviews are reminded weekly.</Text>
      {!manager && <Text size="sm" c="dimmed">Admins and owners change the policy.</Text>}
      <form onSubmit={(e) => { e.preventDefault(); submit(); }} aria-label="Review policy">
        <fieldset disabled={!manager} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack mt="sm">
          <Group align="flex-start">
            {CADENCE_TIERS.map((k) => (
              <NumberInput key={k} w={140} label={k.replace("_", " ")} value={cadence[k] ?? ""} min={1} max={120} allowDecimal={false}
                allowNegative={false} clampBehavior="none"
                onChange={(v) => { setCadence((c) => ({ ...c, [k]: v })); setChecked((c) => ({ ...c, [k]: "" })); }}
                error={checked[k] || fieldError(save.error, `body.cadence_months.${k}`)} />
            ))}
          </Group>
          <TextInput label="Reminder offsets (days, comma-separated)" value={offsets} onChange={(e) => setOffsets(e.currentTarget.value)}
            error={fieldError(save.error, "body.reminder_offsets_days")} />
          <Checkbox label="Remind weekly while overdue" checked={weekly} onChange={(e) => setWeekly(e.currentTarget.checked)} />
          <ErrorNote error={policy.error ?? save.error} labels={POLICY_LABELS}
            atFields={["body.reminder_offsets_days", ...CADENCE_TIERS.map((k) => `body.cadence_months.${k}`)]} />
          {save.isSuccess && <Text fw={600} role="status">Policy saved.</Text>}
          {manager && <Button type="submit" w={160} loading={save.isPending}>Save policy</Button>}
        </Stack>
        </fieldset>
      </form>
    </Paper>
  );
}

function Calendar({ acc }: { acc: string }) {
  const [link, setLink] = useState<Schemas["CalendarLinkJSON"] | null>(null);
  const get = useMutation({
    mutationFn: () => unwrap(api.GET("/review-calendar", { params: { query: { "account-id": acc } } })),
    onSuccess: setLink,
  });
  const revoke = useMutation({
    mutationFn: () => unwrap(api.DELETE("/review-calendar", { params: { query: { "account-id": acc } } })),
    onSuccess: () => setLink(null),
  });
  return (
    <Paper withBorder p="md">
      <Title order={3}>Calendar feed</Title>
      <Text size="sm">A personal link your calendar (Google, Outlook, Apple) can subscribe to: the due reviews of this account as events.</Text>
      <Group mt="sm">
        <Button variant="default" onClick={() => get.mutate()} loading={get.isPending}>Get my calendar link</Button>
        <Button variant="light" color="red" onClick={() => revoke.mutate()} loading={revoke.isPending}>Revoke my link</Button>
      </Group>
      {link && <Code block mt="sm" data-testid="calendar-link">{link.url}</Code>}
      {revoke.isSuccess && (revoke.submittedAt > get.submittedAt) && <Text fw={600} role="status">Link revoked.</Text>}
      <ErrorNote error={lastError(get, revoke)} />
    </Paper>
  );
}
