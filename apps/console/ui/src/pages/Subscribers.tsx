import { useState } from "react";
import { Link, useParams } from "react-router";
import { Anchor, Badge, Button, Group, Stack, Table, TextInput, Title, VisuallyHidden } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fieldError, unwrap } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { lastError } from "../components/errors";
import { canWrite } from "./roles";
import { useRole } from "../App";

export function SubscribersPage() {
  const { acc = "individual", list = "" } = useParams();
  const qc = useQueryClient();
  const key = ["subscribers", acc, list];
  const q = { "account-id": acc, "vendor-list-id": list };
  const subs = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET("/subscribers", { params: { query: q } })) });
  const [email, setEmail] = useState("");
  const writer = canWrite(acc, useRole(acc));
  const add = useMutation({
    mutationFn: () => unwrap(api.POST("/subscribers", { params: { query: q }, body: { "subscriber-email": email } })),
    onSuccess: () => { setEmail(""); qc.invalidateQueries({ queryKey: key }); },
  });
  const remove = useMutation({
    mutationFn: (e: string) => unwrap(api.DELETE("/subscribers", { params: { query: q }, body: { "subscriber-email": e } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
  return (
    <Stack>
      <Title order={2}>Alert subscribers</Title>
      <Anchor component={Link} to={`/a/${acc}/lists/${list}`}>Back to the list</Anchor>
      {writer && <form onSubmit={(e) => { e.preventDefault(); add.mutate(); }}>
        <Group align="flex-start">
          <TextInput label="E-mail" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError(add.error, "body.subscriber-email")} />
          <Button type="submit" mt={25} loading={add.isPending}>Add subscriber</Button>
        </Group>
      </form>}
      <ErrorNote error={subs.error ?? lastError(add, remove)} labels={{ "body.subscriber-email": "E-mail" }} atFields={["body.subscriber-email"]} />
      <Table striped>
        <Table.Thead><Table.Tr><Table.Th>E-mail</Table.Th><Table.Th>State</Table.Th><Table.Th>Added</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {(subs.data?.subscribers ?? []).map((s) => (
            <Table.Tr key={s.email}>
              <Table.Td>{s.email} {s.is_member && <Badge size="xs" variant="light">member</Badge>}</Table.Td>
              <Table.Td><Badge variant="light" c="dark.9" color={s.status === "confirmed" ? "green" : "yellow"}>{s.status}</Badge></Table.Td>
              <Table.Td>{new Date(s.created_at).toLocaleDateString()}</Table.Td>
              <Table.Td>{writer && <Button size="xs" color="red" variant="light" aria-label={`Remove ${s.email}`} onClick={() => remove.mutate(s.email)}>Remove</Button>}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
