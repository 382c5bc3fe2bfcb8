import { useState } from "react";
import { Link, useParams } from "react-router";
import { Anchor, Button, Group, Stack, Table, TextInput, Title, VisuallyHidden } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fieldError, unwrap } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { lastError } from "../components/errors";
import { canWrite } from "./roles";
import { useRole } from "../App";

export function ListsPage() {
  const { acc = "individual" } = useParams();
  const qc = useQueryClient();
  const [name, setName] = useState("");
  const writer = canWrite(acc, useRole(acc));
  const lists = useQuery({
    queryKey: ["lists", acc],
    queryFn: () => unwrap(api.GET("/vendor-lists", { params: { query: { "account-id": acc } } })),
  });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST("/vendor-lists", { params: { query: { "account-id": acc, "vendor-list": name } }, body: {} })),
    onSuccess: () => {
      setName("");
      qc.invalidateQueries({ queryKey: ["lists", acc] });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/vendor-lists", { params: { query: { "account-id": acc, "vendor-list-id": id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["lists", acc] }),
  });
  return (
    <Stack>
      <Title order={2}>Lists</Title>
      {writer && <form onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
        <Group align="flex-end">
          <TextInput
            label="New list"
            placeholder="Name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fieldError(create.error, "query.vendor-list")}
          />
          <Button type="submit" loading={create.isPending}>Create list</Button>
        </Group>
      </form>}
      <ErrorNote error={lists.error ?? lastError(create, remove)} labels={{ "query.vendor-list": "New list" }} atFields={["query.vendor-list"]} />
      <Table striped>
        <Table.Thead>
          <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Vendors</Table.Th><Table.Th>Created</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(lists.data?.lists ?? []).map((l) => (
            <Table.Tr key={l.id}>
              <Table.Td><Anchor component={Link} to={`/a/${acc}/lists/${l.id}`}>{l.name}</Anchor></Table.Td>
              <Table.Td>{l.vendor_count}</Table.Td>
              <Table.Td>{new Date(l.created_at).toLocaleDateString()}</Table.Td>
              <Table.Td>
                {writer && l.name !== "master-list" && (
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    aria-label={`Delete list ${l.name}`}
                    onClick={() => window.confirm(`Delete the list ${l.name} with its assessments?`) && remove.mutate(l.id)}
                  >
                    Delete
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
