import { useState } from "react";
import { useParams } from "react-router";
import {
  Badge, Button, Checkbox, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title, VisuallyHidden,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fieldError, unwrap } from "../api/client";
import { useRole } from "../App";
import { ErrorNote } from "../components/ErrorNote";
import { lastError } from "../components/errors";
import { bodyOf, emptyForm, formOf, SERVICE_TYPES, STATES, type Contract, type Form } from "./contracts";
import { canWrite } from "./roles";

const LABELS = {
  "body.vendor_id": "Vendor", "body.reference": "Reference", "body.start_date": "Start date", "body.end_date": "End date",
  "body.notice_period_days": "Notice period (days)", "body.annual_value": "Annual value", "body.currency": "Currency",
  "body.governing_law": "Governing law", "body.lei": "Provider LEI", "body.services": "Services",
};
const FIELDS = Object.keys(LABELS);

/**
 * ContractsPage lists the account's contracts (vendor, reference, end date,
 * notice deadline, state) and, for members and above, records, edits and
 * deletes them with a form that labels every field.
 */
export function ContractsPage() {
  const { acc = "individual" } = useParams();
  const qc = useQueryClient();
  const writer = canWrite(acc, useRole(acc));
  const key = ["contracts", acc];
  const q = { "account-id": acc };
  const list = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET("/contracts", { params: { query: q } })) });
  const vendors = useQuery({
    queryKey: ["contract-vendors", acc],
    queryFn: () => unwrap(api.GET("/vendor-lists", { params: { query: { ...q, "vendor-list": "master-list", sort: "name" } } })),
    enabled: writer,
  });
  const [form, setForm] = useState<Form>(emptyForm());
  const [editing, setEditing] = useState<Contract | null>(null);
  const [saved, setSaved] = useState("");
  const done = () => qc.invalidateQueries({ queryKey: key });
  const save = useMutation({
    mutationFn: (f: Form) => editing
      ? unwrap(api.PATCH("/contracts", { params: { query: { ...q, "contract-id": editing.id } }, body: bodyOf(f) as never }))
      : unwrap(api.POST("/contracts", { params: { query: q }, body: bodyOf(f) })),
    onSuccess: (c) => { setSaved(`${editing ? "Saved" : "Recorded"} the contract with ${c.vendor_name}.`); setEditing(null); setForm(emptyForm()); done(); },
  });
  const remove = useMutation({
    mutationFn: (c: Contract) => unwrap(api.DELETE("/contracts", { params: { query: { ...q, "contract-id": c.id } } })),
    onSuccess: (_, c) => { setSaved(`Deleted the contract with ${c.vendor_name}.`); if (editing?.id === c.id) { setEditing(null); setForm(emptyForm()); } done(); },
  });
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));
  const err = (field: string) => fieldError(save.error, `body.${field}`);
  const rows = list.data?.contracts ?? [];
  const options = [{ value: "", label: "Choose a vendor" }, ...(vendors.data?.vendors ?? []).map((v) => ({ value: v.vendor_id, label: v.display_name || v.vendor_name }))];
  if (editing && !options.some((o) => o.value === editing.vendor_id)) options.push({ value: editing.vendor_id, label: editing.vendor_name });
  const name = (c: Contract) => `${c.vendor_name}${c.reference ? ` ${c.reference}` : ""}`;
  return (
    <Stack>
      <Title order={2}>Contracts</Title>
      <Text size="sm" c="dimmed">
        The account's contracts with the vendors on its lists. The notice deadline is the end date minus the notice period;
        a contract reads "Notice due" from 90 days before its notice deadline until its end date, and "Expired" after it, unless
        it renews automatically: then its dates move on by its term (whole months, or days) and it stays active.
      </Text>
      <ErrorNote error={list.error ?? vendors.error ?? lastError(save, remove)} labels={LABELS}
        atFields={save.submittedAt >= remove.submittedAt ? FIELDS : []} />
      {saved && <Text size="sm" role="status">{saved}</Text>}
      <Table.ScrollContainer minWidth={620}>
        <Table striped aria-label="Contracts">
          <Table.Thead>
            <Table.Tr><Table.Th>Vendor</Table.Th><Table.Th>Reference</Table.Th><Table.Th>End date</Table.Th><Table.Th>Notice deadline</Table.Th>
              <Table.Th>State</Table.Th>{writer && <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>}</Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.id} data-testid="contract">
                <Table.Td>{c.vendor_name}</Table.Td>
                <Table.Td>{c.reference}</Table.Td>
                <Table.Td><time dateTime={c.end_date}>{c.end_date}</time>{c.auto_renew && <Text size="xs" c="dimmed">renews</Text>}</Table.Td>
                <Table.Td><time dateTime={c.notice_deadline}>{c.notice_deadline}</time></Table.Td>
                <Table.Td><Badge variant="light" c="dark.9" color={STATES[c.state].color}>{STATES[c.state].label}</Badge></Table.Td>
                {writer && (
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Button size="xs" variant="light" aria-label={`Edit ${name(c)}`}
                        onClick={() => { setEditing(c); setForm(formOf(c)); setSaved(""); save.reset(); }}>Edit</Button>
                      <Button size="xs" color="red" variant="light" aria-label={`Delete ${name(c)}`}
                        onClick={() => window.confirm(`Delete the contract ${name(c)}?`) && remove.mutate(c)}>Delete</Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length === 0 && list.isSuccess && <Text c="dimmed">No contracts yet.</Text>}
      {writer && (
        <Paper withBorder p="md">
          <form onSubmit={(e) => { e.preventDefault(); setSaved(""); save.mutate(form); }} aria-labelledby="contract-form-title">
            <Stack gap="sm">
              <Title order={3} id="contract-form-title">{editing ? `Edit contract: ${name(editing)}` : "New contract"}</Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <NativeSelect label="Vendor" required data={options} value={form.vendor_id} onChange={(e) => set("vendor_id", e.currentTarget.value)}
                  error={err("vendor_id")} />
                <TextInput label="Reference" value={form.reference} onChange={(e) => set("reference", e.currentTarget.value)} error={err("reference")} />
                <TextInput label="Start date" description="YYYY-MM-DD" required placeholder="2026-01-01" value={form.start_date}
                  onChange={(e) => set("start_date", e.currentTarget.value)} error={err("start_date")} />
                <TextInput label="End date" description="YYYY-MM-DD, the last day" required placeholder="2026-12-31" value={form.end_date}
                  onChange={(e) => set("end_date", e.currentTarget.value)} error={err("end_date")} />
                <TextInput label="Notice period (days)" inputMode="numeric" value={form.notice_period_days}
                  onChange={(e) => set("notice_period_days", e.currentTarget.value)} error={err("notice_period_days")} />
                <TextInput label="Annual value" inputMode="decimal" value={form.annual_value}
                  onChange={(e) => set("annual_value", e.currentTarget.value)} error={err("annual_value")} />
                <TextInput label="Currency" description="ISO 4217, e.g. EUR" maxLength={3} value={form.currency}
                  onChange={(e) => set("currency", e.currentTarget.value)} error={err("currency")} />
                <TextInput label="Governing law" description="Country code (ISO 3166), e.g. DE" maxLength={2} value={form.governing_law}
                  onChange={(e) => set("governing_law", e.currentTarget.value)} error={err("governing_law")} />
                <TextInput label="Provider LEI" description="20 characters (ISO 17442), if known" maxLength={20} value={form.lei}
                  onChange={(e) => set("lei", e.currentTarget.value)} error={err("lei")} />
              </SimpleGrid>
              <Group gap="lg" wrap="wrap">
                <Checkbox label="Renews automatically" checked={form.auto_renew} onChange={(e) => set("auto_renew", e.currentTarget.checked)} />
                <Checkbox label="DPA signed" checked={form.dpa_signed} onChange={(e) => set("dpa_signed", e.currentTarget.checked)} />
                <Checkbox label="Supports a critical or important function" checked={form.supports_critical_function}
                  onChange={(e) => set("supports_critical_function", e.currentTarget.checked)} />
              </Group>
              <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
                <Text component="legend" fw={500} size="sm">Services</Text>
                {form.services.map((s, i) => (
                  <Group key={i} align="flex-end" wrap="wrap">
                    <TextInput label={`Service ${i + 1} name`} value={s.name} w={{ base: "100%", sm: 260 }} error={err(`services[${i}].name`)}
                      onChange={(e) => { const v = e.currentTarget.value; set("services", form.services.map((x, j) => (j === i ? { ...x, name: v } : x))); }} />
                    <NativeSelect label={`Service ${i + 1} type`} data={SERVICE_TYPES} value={s.type} w={{ base: "100%", sm: 240 }} error={err(`services[${i}].type`)}
                      onChange={(e) => { const v = e.currentTarget.value as typeof s.type; set("services", form.services.map((x, j) => (j === i ? { ...x, type: v } : x))); }} />
                    <Button variant="subtle" color="red" aria-label={`Remove service ${i + 1}`}
                      onClick={() => set("services", form.services.filter((_, j) => j !== i))}>Remove</Button>
                  </Group>
                ))}
                <Group><Button variant="default" size="xs" onClick={() => set("services", [...form.services, { name: "", type: "saas" }])}>Add a service</Button></Group>
              </Stack>
              <Group>
                <Button type="submit" loading={save.isPending}>{editing ? "Save contract" : "Record contract"}</Button>
                {editing && <Button variant="default" onClick={() => { setEditing(null); setForm(emptyForm()); save.reset(); }}>Cancel</Button>}
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
    </Stack>
  );
}
