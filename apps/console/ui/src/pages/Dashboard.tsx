import { useState } from "react";
import { Link, useParams } from "react-router";
import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title, Select, Anchor } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { scanGrade } from "./reviews";

export function DashboardPage() {
  const { acc = "individual" } = useParams();
  const [list, setList] = useState<string | null>(null);
  const q = { "account-id": acc, ...(list ? { "vendor-list-id": list } : {}) };
  const lists = useQuery({
    queryKey: ["lists", acc],
    queryFn: () => unwrap(api.GET("/vendor-lists", { params: { query: { "account-id": acc } } })),
  });
  const counts = useQuery({
    queryKey: ["dashboard", acc, list],
    queryFn: () => unwrap(api.GET("/metrics/dashboard", { params: { query: q } })),
  });
  const incidents = useQuery({
    queryKey: ["recent-incidents", acc, list],
    queryFn: () => unwrap(api.GET("/metrics/recent-incidents", { params: { query: { ...q, limit: 10 } } })),
  });
  const changes = useQuery({
    queryKey: ["recent-rating-changes", acc, list],
    queryFn: () => unwrap(api.GET("/metrics/recent-rating-changes", { params: { query: { ...q, limit: 10 } } })),
  });
  const vendors = useQuery({
    queryKey: ["vendors-from-list", acc, list],
    queryFn: () => unwrap(api.GET("/metrics/vendors-from-list", { params: { query: q } })),
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Dashboard</Title>
        <Select
          label="Scope"
          placeholder="All lists"
          clearable
          data={(lists.data?.lists ?? []).map((l) => ({ value: l.id, label: l.name }))}
          value={list}
          onChange={setList}
        />
      </Group>
      <ErrorNote error={counts.error ?? lists.error} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Stat label="Vendors" value={counts.data?.totalVendors} />
        <Stat label="Followed (alerts on)" value={counts.data?.followedVendors} />
        <Stat label="Assessments in progress or on hold" value={counts.data?.activeAssessments} />
      </SimpleGrid>
      <Group justify="space-between" align="baseline">
        <Title order={3}>Recent incidents</Title>
        <Anchor component={Link} to={`/a/${acc}/incidents`}>All incidents, with their evidence</Anchor>
      </Group>
      <ErrorNote error={incidents.error} />
      {incidents.data?.length === 0 && <Text c="dimmed">No incident for the vendors in scope.</Text>}
      {!!incidents.data?.length && (
        <Table striped>
          <Table.Thead>
            <Table.Tr><Table.Th>Published</Table.Th><Table.Th>Vendor</Table.Th><Table.Th>Incident</Table.Th><Table.Th>Severity</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {incidents.data.map((i) => (
              <Table.Tr key={i.id}>
                <Table.Td>{new Date(i.published).toLocaleDateString()}</Table.Td>
                <Table.Td><Anchor component={Link} to={`/a/${acc}/vendors/${i.vendor_id}`}>{i.vendor_name}</Anchor></Table.Td>
                <Table.Td>{i.title}</Table.Td>
                <Table.Td><Badge color={i.severity === "critical" || i.severity === "high" ? "red" : "gray"}>{i.severity}</Badge></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Title order={3}>Rating changes</Title>
      <ErrorNote error={changes.error} />
      {changes.data?.length === 0 && <Text c="dimmed">No rating change that matters for the vendors in scope.</Text>}
      {!!changes.data?.length && (
        <Table striped data-testid="rating-changes">
          <Table.Thead>
            <Table.Tr><Table.Th>Scanned</Table.Th><Table.Th>Vendor</Table.Th><Table.Th>What changed</Table.Th><Table.Th>Grade</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.data.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{new Date(c.scanned_at).toLocaleDateString()}</Table.Td>
                <Table.Td><Anchor component={Link} to={`/a/${acc}/vendors/${c.vendor_id}`}>{c.vendor_name}</Anchor></Table.Td>
                <Table.Td>{c.changes.map((x) => x.detail).join("; ")}</Table.Td>
                <Table.Td data-testid="change-grade">{scanGrade(c.grade, c.checks_run, c.checks_total)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Title order={3}>Vendors</Title>
      <ErrorNote error={vendors.error} />
      {vendors.data?.length === 0 && <Text c="dimmed">No vendor yet. <Anchor component={Link} to={`/a/${acc}/lists`}>Add some to a list.</Anchor></Text>}
      {!!vendors.data?.length && (
        <Table>
          <Table.Thead>
            <Table.Tr><Table.Th>Vendor</Table.Th><Table.Th>Alerts</Table.Th><Table.Th>Latest incident</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {vendors.data.slice(0, 50).map((v) => (
              <Table.Tr key={v.id}>
                <Table.Td><Anchor component={Link} to={`/a/${acc}/vendors/${v.id}`}>{v.vendor}</Anchor></Table.Td>
                <Table.Td>{v.alerts_enabled ? "on" : "off"}</Table.Td>
                <Table.Td>{v.latest_incident?.title || "none"}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function Stat({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">{label}</Text>
      <Text size="xl" fw={700} data-testid={`stat-${label}`}>{value ?? "…"}</Text>
    </Card>
  );
}
