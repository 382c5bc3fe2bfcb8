import { useState } from "react";
import { Badge, Button, Checkbox, Code, Group, MultiSelect, Stack, Table, Text, Textarea, TextInput, Title, Paper } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { lastError } from "../components/errors";

const SECTIONS: Schemas["Section"][] = ["basic", "additional", "maturity", "security", "privacy", "logo", "scores"];
const lines = (s: string) => s.split(/[\n,]/).map((x) => x.trim()).filter(Boolean);

export function AdminPage() {
  return (
    <Stack>
      <Title order={2}>Platform admin</Title>
      <Accounts />
      <Enrichment />
      <ProfileEdit />
      <Backfill />
    </Stack>
  );
}

function Accounts() {
  const qc = useQueryClient();
  const accounts = useQuery({ queryKey: ["accounts"], queryFn: () => unwrap(api.GET("/accounts")) });
  const [name, setName] = useState("");
  const [users, setUsers] = useState("");
  const create = useMutation({
    mutationFn: () => unwrap(api.POST("/accounts", { body: { account: name, users: lines(users) } })),
    onSuccess: () => { setName(""); setUsers(""); qc.invalidateQueries({ queryKey: ["accounts"] }); qc.invalidateQueries({ queryKey: ["users"] }); },
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/accounts", { body: { account_id: id } })),
    onSuccess: () => { qc.invalidateQueries({ queryKey: ["accounts"] }); qc.invalidateQueries({ queryKey: ["users"] }); },
  });
  return (
    <Paper withBorder p="md">
      <Title order={3}>Accounts</Title>
      <form onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
        <Group align="flex-end">
          <TextInput label="Account name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <TextInput label="Members (e-mails; the first is owner)" w={360} value={users} onChange={(e) => setUsers(e.currentTarget.value)} />
          <Button type="submit" loading={create.isPending}>Create account</Button>
        </Group>
      </form>
      <ErrorNote error={accounts.error ?? lastError(create, remove)} labels={{ "body.account": "Account name", "body.users[]": "Members" }} />
      <Table mt="sm">
        <Table.Tbody>
          {(accounts.data?.accounts ?? []).map((a) => (
            <Table.Tr key={a.id}>
              <Table.Td>{a.name}</Table.Td><Table.Td><Code>{a.id}</Code></Table.Td>
              <Table.Td><Button size="xs" color="red" variant="light" aria-label={`Delete account ${a.name}`}
                onClick={() => window.confirm(`Delete ${a.name} with all its lists, reviews and evidence?`) && remove.mutate(a.id)}>Delete</Button></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function Enrichment() {
  const [vendors, setVendors] = useState("");
  const [sections, setSections] = useState<string[]>([]);
  const [createOnly, setCreateOnly] = useState(false);
  const start = useMutation({
    mutationFn: () => unwrap(api.POST("/vendor/enrich", {
      body: { vendors: lines(vendors), createOnly, ...(sections.length ? { enrichmentSections: sections as Schemas["Section"][] } : {}) },
    })),
  });
  const runId = start.data?.run_id;
  const run = useQuery({
    queryKey: ["enrich-run", runId],
    enabled: !!runId,
    queryFn: () => unwrap(api.GET("/vendor/enrich/{run_id}", { params: { path: { run_id: runId! } } })),
    refetchInterval: (q) => (q.state.data && ["done", "failed"].includes(q.state.data.status) ? false : 1000),
  });
  return (
    <Paper withBorder p="md">
      <Title order={3}>Enrichment</Title>
      <Stack>
        <Textarea label="Vendors (one per line)" value={vendors} onChange={(e) => setVendors(e.currentTarget.value)} />
        <MultiSelect label="Sections (none: the full pipeline)" data={SECTIONS} value={sections} onChange={setSections} />
        <Checkbox label="Only vendors without a profile (createOnly)" checked={createOnly} onChange={(e) => setCreateOnly(e.currentTarget.checked)} />
        <Button w={200} onClick={() => start.mutate()} loading={start.isPending} disabled={!lines(vendors).length}>Run enrichment</Button>
        <ErrorNote error={start.error ?? run.error} />
        {runId && (
          <Text data-testid="enrich-run">
            Run <Code>{runId}</Code>: <Badge>{run.data?.status ?? start.data?.status}</Badge>{" "}
            {run.data && `${run.data.counts.done} done, ${run.data.counts.failed} failed, ${run.data.counts.skipped} skipped of ${run.data.counts.total}`}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function ProfileEdit() {
  const qc = useQueryClient();
  const [vendor, setVendor] = useState("");
  const [patch, setPatch] = useState('{\n  "company": { "industry": "" }\n}');
  const [parseError, setParseError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => unwrap(api.PATCH("/vendor/{id_or_name}", { params: { path: { id_or_name: vendor } }, body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["vendor"] }),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/vendor/{id_or_name}", { params: { path: { id_or_name: vendor } } })),
  });
  return (
    <Paper withBorder p="md">
      <Title order={3}>Edit a profile</Title>
      <Stack>
        <TextInput label="Vendor (name or id)" value={vendor} onChange={(e) => setVendor(e.currentTarget.value)} />
        <Textarea label="JSON merge patch over the content groups (whitelisted fields only)" autosize minRows={4} value={patch}
          onChange={(e) => setPatch(e.currentTarget.value)} error={parseError} styles={{ input: { fontFamily: "monospace" } }} />
        <Group>
          <Button disabled={!vendor} loading={save.isPending} onClick={() => {
            try { setParseError(null); save.mutate(JSON.parse(patch)); } catch (e) { setParseError(`not JSON: ${(e as Error).message}`); }
          }}>Apply patch</Button>
          <Button color="red" variant="light" disabled={!vendor} loading={remove.isPending}
            onClick={() => window.confirm(`Delete the profile of ${vendor}? Lists keep the vendor.`) && remove.mutate()}>Delete profile</Button>
        </Group>
        <ErrorNote error={lastError(save, remove)} />
        {save.isSuccess && <Text fw={600} role="status">Profile updated.</Text>}
        {remove.isSuccess && <Text fw={600} role="status">Profile deleted.</Text>}
      </Stack>
    </Paper>
  );
}

function Backfill() {
  const [vendors, setVendors] = useState("");
  const [since, setSince] = useState("");
  const start = useMutation({
    mutationFn: () => unwrap(api.POST("/vendors/incident-backfill", {
      body: { ...(lines(vendors).length ? { vendors: lines(vendors) } : {}), ...(since ? { since } : {}) },
    })),
  });
  const runId = start.data?.run_id;
  const run = useQuery({
    queryKey: ["backfill-run", runId],
    enabled: !!runId,
    queryFn: () => unwrap(api.GET("/vendors/incident-backfill/{run_id}", { params: { path: { run_id: runId! } } })),
    refetchInterval: (q) => (q.state.data && ["done", "failed"].includes(q.state.data.status) ? false : 1000),
  });
  return (
    <Paper withBorder p="md">
      <Title order={3}>Incident backfill</Title>
      <Stack>
        <Textarea label="Vendors (one per line; none: all)" value={vendors} onChange={(e) => setVendors(e.currentTarget.value)} />
        <TextInput label="Since (YYYY-MM-DD, optional)" value={since} onChange={(e) => setSince(e.currentTarget.value)} />
        <Button w={200} onClick={() => start.mutate()} loading={start.isPending}>Start backfill</Button>
        <ErrorNote error={start.error ?? run.error} />
        {runId && <Text data-testid="backfill-run">Run <Code>{runId}</Code>: <Badge>{run.data?.status ?? "queued"}</Badge></Text>}
      </Stack>
    </Paper>
  );
}
