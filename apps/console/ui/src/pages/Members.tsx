import { useState } from "react";
import { useParams } from "react-router";
import { Button, Group, Select, Stack, Table, Text, TextInput, Title, Badge, VisuallyHidden } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fieldError, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { lastError } from "../components/errors";
import { assignableRoles, canRemove } from "./roles";

type Role = Schemas["Role"];

export function MembersPage() {
  const { acc = "" } = useParams();
  const qc = useQueryClient();
  const key = ["members", acc];
  const members = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET("/users", { params: { query: { "account-id": acc } } })) });
  const mine = useQuery({ queryKey: ["users"], queryFn: () => unwrap(api.GET("/users")) });
  const myRole = mine.data?.accounts?.find((a) => a.id === acc)?.role;
  const list = members.data?.members ?? [];
  const owners = list.filter((m) => m.role === "owner").length;
  const done = () => qc.invalidateQueries({ queryKey: key });
  const add = useMutation({
    mutationFn: (u: { email: string; role: Role }) => unwrap(api.POST("/users", { params: { query: { "account-id": acc } }, body: { users: [u] } })),
    onSuccess: () => { setEmail(""); done(); },
  });
  const change = useMutation({
    mutationFn: (u: { email: string; role: Role }) => unwrap(api.PATCH("/users", { params: { query: { "account-id": acc } }, body: { users: [u] } })),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (email: string) => unwrap(api.DELETE("/users", { params: { query: { "account-id": acc } }, body: { users: [{ email }] } })),
    onSuccess: done,
  });
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const offered = assignableRoles(myRole);
  const canManage = offered.length > 0;
  return (
    <Stack>
      <Title order={2}>Members and roles</Title>
      <Text size="sm" c="dimmed">
        Your role: {myRole ?? "…"}. Owners assign any role; admins assign every role but owner. The last owner can be neither demoted nor removed.
      </Text>
      {canManage && (
        <form onSubmit={(e) => { e.preventDefault(); add.mutate({ email, role }); }}>
          <Group align="flex-start">
            <TextInput label="E-mail" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)}
              error={fieldError(add.error, "body.users[0].email") ?? fieldError(add.error, "body.users[0]")} />
            <Select label="Role" data={offered} value={role} allowDeselect={false} onChange={(v) => v && setRole(v as Role)}
              error={fieldError(add.error, "body.users[0].role")} />
            <Button type="submit" mt={25} loading={add.isPending}>Add member</Button>
          </Group>
        </form>
      )}
      <ErrorNote error={members.error ?? lastError(add, change, remove)} labels={{ "body.users[].email": "E-mail", "body.users[].role": "Role" }}
        atFields={add.submittedAt >= Math.max(change.submittedAt, remove.submittedAt) ? ["body.users[0]"] : []} />
      <Table striped>
        <Table.Thead><Table.Tr><Table.Th>E-mail</Table.Th><Table.Th>Name</Table.Th><Table.Th>Role</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {list.map((m) => {
            const lastOwner = m.role === "owner" && owners <= 1;
            const roles = lastOwner ? (["owner"] as Role[]) : assignableRoles(myRole, m.role);
            return (
              <Table.Tr key={m.id}>
                <Table.Td>{m.email} {m.email_verified && <Badge size="xs" variant="light">verified</Badge>}</Table.Td>
                <Table.Td>{m.name}</Table.Td>
                <Table.Td>
                  {canManage && roles.length > 1 ? (
                    <Select aria-label={`Role of ${m.email}`} data={roles} value={m.role} allowDeselect={false}
                      onChange={(v) => v && v !== m.role && change.mutate({ email: m.email, role: v as Role })} />
                  ) : (
                    <Text>{m.role}{lastOwner ? " (last owner)" : ""}</Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {canManage && canRemove(myRole, m.role, owners) && (
                    <Button size="xs" color="red" variant="light" aria-label={`Remove ${m.email}`}
                      onClick={() => window.confirm(`Remove ${m.email}?`) && remove.mutate(m.email)}>Remove</Button>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
