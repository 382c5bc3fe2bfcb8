import { useState } from "react";
import { Alert, Anchor, Badge, Button, Group, NativeSelect, Stack, Table, Text, Textarea, TextInput, Title, VisuallyHidden } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fieldError, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { lastError } from "../components/errors";
import { useRole } from "../App";
import { canWrite } from "./roles";
import { uploadFile } from "./upload";
import { attestationBody, FIELDS, FILE_TYPES, KINDS, kindLabel, OPINIONS, stateColor, summary, type Kind } from "./attestations";

type Created = Schemas["AttestationCreatedJSON"];

/** send uploads a record's file to the write-once URL its create answered. */
function send(c: Created, file: File) {
  return uploadFile({ ...c, document_id: c.id }, file, () => {});
}

/**
 * Attestations is the vendor page's section of the account's attestations
 * on the vendor and the directory's: the list with each one's validity and
 * state, a form per kind, the upload of the file after the create, and the
 * deletion of the account's own.
 */
export function Attestations({ acc, vendorId, vendorName }: { acc: string; vendorId: string; vendorName: string }) {
  const qc = useQueryClient();
  const key = ["attestations", acc, vendorId];
  const q = { "account-id": acc, "vendor-id": vendorId };
  const list = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET("/attestations", { params: { query: q } })) });
  const writer = canWrite(acc, useRole(acc));
  const [kind, setKind] = useState<Kind>("soc2");
  const [values, setValues] = useState<Record<string, string>>({});
  const [file, setFile] = useState<File | null>(null);
  const [pending, setPending] = useState<Created | null>(null);
  const [saved, setSaved] = useState("");
  const done = () => qc.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: async () => {
      const c = await unwrap(api.POST("/attestations", { params: { query: q }, body: attestationBody(kind, values, file?.type) }));
      if (file) {
        try {
          await send(c, file);
        } catch (e) {
          setPending(c); // the record is saved: its file may be sent again while the link works
          throw e;
        }
      }
      return c;
    },
    onSuccess: (c) => {
      setValues({});
      setPending(file ? null : c);
      setSaved(file ? `${kindLabel(c.kind)} saved with its file.` : `${kindLabel(c.kind)} saved. Upload its file below.`);
      setFile(null);
    },
    onSettled: () => done(),
  });
  const upload = useMutation({
    mutationFn: ({ c, f }: { c: Created; f: File }) => send(c, f),
    onSuccess: (_, { c }) => { setPending(null); setSaved(`File of the ${kindLabel(c.kind)} uploaded.`); done(); },
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/attestations", { params: { query: { "account-id": acc, "attestation-id": id } } })),
    onSuccess: () => { setSaved("Attestation deleted."); done(); },
  });
  const download = useMutation({
    mutationFn: (id: string) => unwrap(api.GET("/attestations/download-url", { params: { query: { "account-id": acc, "attestation-id": id } } })),
    onSuccess: (d) => window.open(d.download_url, "_blank", "noopener"),
  });
  const rows = list.data?.attestations ?? [];
  const labels = Object.fromEntries(FIELDS[kind].map((f) => [`body.${f.name}`, f.label]));
  const atFields = FIELDS[kind].map((f) => `body.${f.name}`).concat("body.kind");
  const set = (name: string, v: string) => setValues((old) => ({ ...old, [name]: v }));
  return (
    <Stack>
      <Title order={3}>Attestations</Title>
      <Text size="sm" c="dimmed">
        Reports and certificates your organization holds on {vendorName}, and the vendor's public trust documents shared by the directory.
        A SOC 2 report and a penetration test count for 12 months; a record is expiring from 60 days before it lapses.
      </Text>
      <ErrorNote error={list.error ?? lastError(create, upload, remove, download)} labels={labels}
        atFields={create.submittedAt >= Math.max(upload.submittedAt, remove.submittedAt, download.submittedAt) ? atFields : []} />
      {saved && <Text size="sm" role="status">{saved}</Text>}
      <Table.ScrollContainer minWidth={640}>
        <Table striped aria-label="Attestations">
          <Table.Thead>
            <Table.Tr><Table.Th>Kind</Table.Th><Table.Th>Details</Table.Th><Table.Th>Valid until</Table.Th><Table.Th>State</Table.Th>
              <Table.Th>File</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((a) => (
              <Table.Tr key={a.id} data-testid="attestation">
                <Table.Td>{kindLabel(a.kind)}{a.visibility === "directory" && <Text size="xs" c="dimmed">shared by the directory</Text>}</Table.Td>
                <Table.Td><Text size="sm" style={{ wordBreak: "break-word" }}>{summary(a)}</Text></Table.Td>
                <Table.Td>{a.valid_until}</Table.Td>
                <Table.Td><Badge variant="light" c="dark.9" color={stateColor(a.state)}>{a.state}</Badge></Table.Td>
                <Table.Td>
                  {a.has_file
                    ? <Anchor component="button" type="button" size="sm" onClick={() => download.mutate(a.id)} aria-label={`Download the file of ${kindLabel(a.kind)} valid until ${a.valid_until}`}>Download</Anchor>
                    : <Text size="sm" c="dimmed">none yet</Text>}
                </Table.Td>
                <Table.Td>
                  {writer && a.visibility === "account" && (
                    <Button size="xs" color="red" variant="light" aria-label={`Delete ${kindLabel(a.kind)} valid until ${a.valid_until}`}
                      onClick={() => window.confirm(`Delete this ${kindLabel(a.kind)} and its file?`) && remove.mutate(a.id)}>Delete</Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length === 0 && list.isSuccess && <Text c="dimmed">No attestations yet.</Text>}
      {pending && writer && (
        <Alert color="blue" title={`Upload the file of the ${kindLabel(pending.kind)}`}>
          <Stack gap={6}>
            <Text size="sm">The upload link works once, until {new Date(pending.expires_at).toLocaleTimeString()}.</Text>
            <label htmlFor="attestation-upload"><Text size="sm" fw={500}>File ({pending.content_type})</Text></label>
            <input id="attestation-upload" type="file" accept={pending.content_type}
              onChange={(e) => { const f = e.currentTarget.files?.[0]; if (f) upload.mutate({ c: pending, f }); }} />
          </Stack>
        </Alert>
      )}
      {writer && (
        <form aria-label="New attestation" onSubmit={(e) => { e.preventDefault(); setSaved(""); create.mutate(); }}>
          <Stack gap="xs">
            <Title order={4}>Record an attestation</Title>
            <NativeSelect label="Kind" data={KINDS} value={kind} onChange={(e) => { setKind(e.currentTarget.value as Kind); setValues({}); }}
              error={fieldError(create.error, "body.kind")} maw={320} />
            <Group align="flex-start" wrap="wrap">
              {FIELDS[kind].map((f) => {
                const common = { label: f.label, required: f.required, value: values[f.name] ?? "", error: fieldError(create.error, `body.${f.name}`) };
                switch (f.type) {
                  case "report_type":
                    return <NativeSelect key={f.name} {...common} data={[{ value: "", label: "Choose" }, { value: "1", label: "Type 1" }, { value: "2", label: "Type 2" }]}
                      onChange={(e) => set(f.name, e.currentTarget.value)} w={160} />;
                  case "opinion":
                    return <NativeSelect key={f.name} {...common} data={[{ value: "", label: "Choose" }, ...OPINIONS.map((o) => ({ value: o, label: o }))]}
                      onChange={(e) => set(f.name, e.currentTarget.value)} w={200} />;
                  case "list":
                    return <Textarea key={f.name} {...common} autosize minRows={2} onChange={(e) => set(f.name, e.currentTarget.value)} w={{ base: "100%", sm: 320 }} />;
                  case "date":
                    return <TextInput key={f.name} {...common} type="date" onChange={(e) => set(f.name, e.currentTarget.value)} w={180} />;
                  case "number":
                    return <TextInput key={f.name} {...common} type="number" min={0} onChange={(e) => set(f.name, e.currentTarget.value)} w={180} />;
                }
                return <TextInput key={f.name} {...common} onChange={(e) => set(f.name, e.currentTarget.value)} w={{ base: "100%", sm: 260 }} />;
              })}
            </Group>
            <Stack gap={4}>
              <label htmlFor="attestation-file"><Text size="sm" fw={500}>Report or certificate file (optional, up to 25 MiB; or upload it after saving)</Text></label>
              <input id="attestation-file" type="file" accept={FILE_TYPES.join(",")} onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
            </Stack>
            <Group><Button type="submit" loading={create.isPending}>Save attestation</Button></Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
