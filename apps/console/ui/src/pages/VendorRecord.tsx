import { useEffect, useState } from "react";
import { ActionIcon, Button, Group, Select, Stack, Text, Textarea, TextInput, Title, VisuallyHidden } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fieldError, Problem, unwrap, type Schemas } from "../api/client";
import { claims } from "../auth";
import { ErrorNote } from "../components/ErrorNote";
import { canWrite } from "./roles";
import { blankContact, CONTACT_ROLES, contactsToSend, LINKS, mentioned, type Contact, type Role } from "./vendorRecord";

type Links = Schemas["LinksJSON"];

/**
 * VendorRecord is the account's record of a vendor, shared by all its
 * lists: the business owner (a member), contacts at the vendor, links to
 * its documents, and notes whose @email mentions mail a member.
 */
export function VendorRecord({ acc, vendorId, vendorName }: { acc: string; vendorId: string; vendorName: string }) {
  const qc = useQueryClient();
  const q = { "account-id": acc, "vendor-id": vendorId };
  const key = ["vendor-record", acc, vendorId];
  const record = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET("/vendor-records", { params: { query: q } })), retry: false });
  const members = useQuery({ queryKey: ["members", acc], queryFn: () => unwrap(api.GET("/users", { params: { query: { "account-id": acc } } })) });
  const mine = useQuery({ queryKey: ["users"], queryFn: () => unwrap(api.GET("/users")) });
  const writer = canWrite(acc, mine.data?.accounts?.find((a) => a.id === acc)?.role);
  const emails = (members.data?.members ?? []).map((m) => m.email);

  const [owner, setOwner] = useState<string | null>(null);
  const [contacts, setContacts] = useState<Contact[]>([]);
  const [links, setLinks] = useState<Links>({ trust_page: "", dpa: "", terms: "", sla: "" });
  const [note, setNote] = useState("");
  const [saved, setSaved] = useState(false);
  const r = record.data;
  useEffect(() => {
    if (!r) return;
    setOwner(r.business_owner ?? null);
    setContacts(r.contacts.map((c) => ({ ...c })));
    setLinks({ ...r.links });
  }, [r]);

  const save = useMutation({
    mutationFn: () => unwrap(api.PATCH("/vendor-records", {
      params: { query: q },
      body: { business_owner: owner, contacts: contactsToSend(contacts), links },
      headers: { "Content-Type": "application/merge-patch+json" },
    })),
    onSuccess: (rec) => { qc.setQueryData(key, rec); setSaved(true); },
  });
  const add = useMutation({
    mutationFn: () => unwrap(api.POST("/vendor-records/notes", { params: { query: q }, body: { text: note } })),
    onSuccess: () => { setNote(""); qc.invalidateQueries({ queryKey: key }); },
  });

  if (record.error instanceof Problem && record.error.status === 404) {
    return <Text c="dimmed">{vendorName} is not on a list of this account: add it to a list to keep a record of it.</Text>;
  }
  if (!r) return <Stack><ErrorNote error={record.error} />{record.isLoading && <Text>Loading…</Text>}</Stack>;
  const err = save.error;
  const will = mentioned(note, emails, claims("groups").email ?? "");
  const setContact = (i: number, c: Partial<Contact>) => { setSaved(false); setContacts(contacts.map((x, j) => (j === i ? { ...x, ...c } : x))); };
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        What this account keeps on {vendorName}, shared by all its lists.
        {r.updated_at ? ` Last changed ${new Date(r.updated_at).toLocaleString()} by ${r.updated_by}.` : " Not edited yet."}
      </Text>
      <form aria-label="Vendor record" onSubmit={(e) => { e.preventDefault(); setSaved(false); save.mutate(); }}>
        <fieldset disabled={!writer} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="sm">
            <Select label="Business owner" description="The member who owns the relationship with the vendor" placeholder="No owner"
              data={emails} value={owner} onChange={(v) => { setSaved(false); setOwner(v); }} clearable searchable maw={420}
              error={fieldError(err, "body.business_owner")} />
            <Title order={3}>Contacts at the vendor</Title>
            {contacts.length === 0 && <Text size="sm" c="dimmed">No contacts yet.</Text>}
            {contacts.map((c, i) => (
              <Group key={i} align="flex-start" gap="xs" role="group" aria-label={`Contact ${i + 1}`}>
                <TextInput label={`Contact ${i + 1} name`} value={c.name} onChange={(e) => setContact(i, { name: e.currentTarget.value })}
                  error={fieldError(err, `body.contacts[${i}].name`)} w={{ base: "100%", sm: 200 }} />
                <TextInput label={`Contact ${i + 1} e-mail`} type="email" value={c.email} onChange={(e) => setContact(i, { email: e.currentTarget.value })}
                  error={fieldError(err, `body.contacts[${i}].email`)} w={{ base: "100%", sm: 240 }} />
                <Select label={`Contact ${i + 1} role`} data={CONTACT_ROLES} value={c.role} allowDeselect={false}
                  onChange={(v) => v && setContact(i, { role: v as Role })} error={fieldError(err, `body.contacts[${i}].role`)} w={{ base: "100%", sm: 180 }} />
                <ActionIcon variant="light" color="red" mt={{ base: 0, sm: 26 }} size="lg" aria-label={`Remove contact ${i + 1}`}
                  onClick={() => { setSaved(false); setContacts(contacts.filter((_, j) => j !== i)); }}>
                  <span aria-hidden>×</span>
                </ActionIcon>
              </Group>
            ))}
            <Group><Button variant="light" onClick={() => { setSaved(false); setContacts([...contacts, blankContact()]); }}>Add contact</Button></Group>
            <Title order={3}>Links</Title>
            {LINKS.map((l) => (
              <TextInput key={l.key} label={l.label} type="url" placeholder="https://" value={links[l.key]} maw={560}
                onChange={(e) => { setSaved(false); setLinks({ ...links, [l.key]: e.currentTarget.value }); }}
                error={fieldError(err, `body.links.${l.key}`)} />
            ))}
            {writer && <Group><Button type="submit" loading={save.isPending}>Save record</Button></Group>}
          </Stack>
        </fieldset>
      </form>
      <ErrorNote error={err} atFields={["body.business_owner", "body.contacts", "body.links"]} />
      {saved && <Text size="sm" role="status">Record saved.</Text>}

      <Title order={3}>Notes</Title>
      {r.notes.length === 0 && <Text size="sm" c="dimmed">No notes yet.</Text>}
      <Stack gap="xs" component="ol" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="Notes">
        {r.notes.map((n) => (
          <li key={n.id}>
            <Text size="xs" c="dimmed">{n.author} · {new Date(n.created_at).toLocaleString()}</Text>
            <Text size="sm" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>{n.text}</Text>
          </li>
        ))}
      </Stack>
      {writer && (
        <form aria-label="Add a note" onSubmit={(e) => { e.preventDefault(); add.mutate(); }}>
          <Stack gap="xs">
            <Textarea label="New note" autosize minRows={2} maxLength={5000} value={note} onChange={(e) => setNote(e.currentTarget.value)}
              description="Mention a member with @ and their e-mail (@name@example.com): they get one mail with the note."
              error={fieldError(add.error, "body.text")} />
            {will.length > 0 && <Text size="sm" role="status">Will mail: {will.join(", ")}</Text>}
            <Group><Button type="submit" loading={add.isPending} disabled={note.trim() === ""}>Add note</Button></Group>
          </Stack>
        </form>
      )}
      <ErrorNote error={add.error} atFields={["body.text"]} />
      <VisuallyHidden role="status">{add.isSuccess ? "Note added." : ""}</VisuallyHidden>
    </Stack>
  );
}
