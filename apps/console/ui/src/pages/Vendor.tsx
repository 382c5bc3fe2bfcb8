import { useParams, useSearchParams } from "react-router";
import { Anchor, Badge, Card, Group, List, SimpleGrid, Stack, Table, Tabs, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { RatingHistory } from "./RatingHistory";
import { gradeCoverage } from "./reviews";
import { useTitle } from "../App";
import { WebsiteEvidence, WebsiteOrigin } from "./VendorWebsite";
import { Evidence, Sources } from "../components/Evidence";
import { VendorRecord } from "./VendorRecord";
import { Attestations } from "./Attestations";

const severityColor: Record<string, string> = { critical: "red", high: "orange", medium: "yellow", low: "blue", info: "gray", positive: "green" };

export function VendorPage() {
  const { vendor = "", acc } = useParams();
  const [search] = useSearchParams();
  const view = useQuery({ queryKey: ["vendor", vendor], queryFn: () => unwrap(api.GET("/vendor/{id_or_name}", { params: { path: { id_or_name: vendor } } })) });
  const instances = useQuery({
    queryKey: ["instances", vendor],
    queryFn: () => unwrap(api.GET("/vendor/{id_or_name}/security-instances", { params: { path: { id_or_name: vendor } } })),
  });
  const incidents = useQuery({
    queryKey: ["incidents", vendor],
    queryFn: () => unwrap(api.GET("/vendor/{id_or_name}/incidents", { params: { path: { id_or_name: vendor } } })),
  });
  const v = view.data;
  useTitle(v?.name);
  const graded = gradeCoverage(v?.scores.grade, instances.data?.checks_run, instances.data?.checks_total);
  if (!v) return <Stack><ErrorNote error={view.error} />{view.isLoading && <Text>Loading…</Text>}</Stack>;
  return (
    <Stack>
      <Group>
        <Title order={2}>{v.name}</Title>
        {v.is_custom && <Badge variant="light">no profile yet</Badge>}
        {graded.grade && <Badge size="lg" data-testid="grade">grade {graded.grade}</Badge>}
        {graded.note && <Text size="sm" c="dimmed" data-testid="grade-coverage">{graded.note}</Text>}
      </Group>
      <Group gap="xs">
        {v.website_url && <Anchor href={v.website_url} target="_blank" rel="noreferrer">{v.website_url}</Anchor>}
        <WebsiteOrigin v={v} />
      </Group>
      <Tabs defaultValue={search.get("tab") ?? "company"}>
        <Tabs.List>
          <Tabs.Tab value="company">Company</Tabs.Tab>
          <Tabs.Tab value="security">Security</Tabs.Tab>
          <Tabs.Tab value="privacy">Privacy</Tabs.Tab>
          <Tabs.Tab value="maturity">Maturity</Tabs.Tab>
          <Tabs.Tab value="grc">Assessment</Tabs.Tab>
          <Tabs.Tab value="history">Rating history</Tabs.Tab>
          <Tabs.Tab value="website">Website</Tabs.Tab>
          <Tabs.Tab value="incidents">Incidents</Tabs.Tab>
          {acc && <Tabs.Tab value="record">Record</Tabs.Tab>}
          {acc && <Tabs.Tab value="attestations">Attestations</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="company" pt="md"><Fields values={v.company} /></Tabs.Panel>
        <Tabs.Panel value="security" pt="md">
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Card withBorder><Text size="sm" c="dimmed">Security rating</Text><Text fw={700}>{v.scores.security_rating ?? "not rated"}</Text></Card>
              <Card withBorder><Text size="sm" c="dimmed">Risk score</Text><Text fw={700}>{v.scores.risk_score ?? "not rated"}</Text></Card>
              <Card withBorder><Text size="sm" c="dimmed">Grade</Text><Text fw={700}>{graded.grade || "none"}</Text>
                {graded.note && <Text size="xs" c="dimmed">{graded.note}</Text>}</Card>
            </SimpleGrid>
            <Fields values={v.security} />
            <Title order={3}>Findings and signals</Title>
            <ErrorNote error={instances.error} />
            <Table striped>
              <Table.Thead><Table.Tr><Table.Th>Severity</Table.Th><Table.Th>Finding</Table.Th><Table.Th>Category</Table.Th><Table.Th>Evidence</Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {(instances.data?.instances ?? []).map((i) => (
                  <Table.Tr key={i.id}>
                    <Table.Td><Badge color={severityColor[i.severity] ?? "gray"}>{i.severity}</Badge></Table.Td>
                    <Table.Td>{i.title} <Text span size="xs" c="dimmed">({i.code})</Text></Table.Td>
                    <Table.Td>{i.category}</Table.Td>
                    <Table.Td><Text size="sm" style={{ wordBreak: "break-word" }}>{i.evidence}</Text></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="privacy" pt="md"><Fields values={v.privacy} /></Tabs.Panel>
        <Tabs.Panel value="maturity" pt="md"><Fields values={v.maturity} /></Tabs.Panel>
        <Tabs.Panel value="grc" pt="md"><GRC grc={v.latest_grc_assessment} graded={graded} /></Tabs.Panel>
        <Tabs.Panel value="history" pt="md"><RatingHistory vendor={vendor} /></Tabs.Panel>
        <Tabs.Panel value="website" pt="md"><WebsiteEvidence v={v} /></Tabs.Panel>
        <Tabs.Panel value="incidents" pt="md">
          <ErrorNote error={incidents.error} />
          {incidents.data?.incidents.length === 0 && <Text c="dimmed">No incident recorded.</Text>}
          <List>
            {(incidents.data?.incidents ?? []).map((i) => (
              <List.Item key={i.id}>
                <Text fw={600}>{i.title}</Text>
                <Text size="sm">{new Date(i.published_at).toLocaleDateString()} · {i.severity} · {i.status}{i.backfilled ? " · historical" : ""}</Text>
                <Text size="sm">{i.summary}</Text>
                <Evidence match={i.match} />
                {i.match && <Sources sources={i.sources} />}
              </List.Item>
            ))}
          </List>
        </Tabs.Panel>
        {acc && <Tabs.Panel value="record" pt="md"><VendorRecord acc={acc} vendorId={v.id} vendorName={v.name} /></Tabs.Panel>}
        {acc && <Tabs.Panel value="attestations" pt="md"><Attestations acc={acc} vendorId={v.id} vendorName={v.name} /></Tabs.Panel>}
      </Tabs>
    </Stack>
  );
}

function GRC({ grc, graded }: { grc?: Schemas["GRCAssessment"]; graded: { grade: string; note: string } }) {
  if (!grc) return <Text c="dimmed">No assessment yet.</Text>;
  return (
    <Stack>
      <Group>
        {/* The grade of the latest scan, shown as in the header: not below the coverage a grade needs. */}
        <Text>Aggregate score <b>{grc.aggregate_score}</b> ({graded.grade ? grc.grade : graded.note || "not graded"})</Text>
        <Badge>{grc.recommendation.replaceAll("_", " ")}</Badge>
        <Text size="sm" c="dimmed">integration depth {grc.integration_depth}; assessed {new Date(grc.assessed_at).toLocaleDateString()}</Text>
      </Group>
      <Table>
        <Table.Thead><Table.Tr><Table.Th>Domain</Table.Th><Table.Th>Score</Table.Th><Table.Th>Weight</Table.Th><Table.Th>Findings</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {grc.domain_scores.map((d) => (
            <Table.Tr key={d.domain}>
              <Table.Td>{d.domain.replaceAll("_", " ")}</Table.Td><Table.Td>{d.score}</Table.Td><Table.Td>{d.weight}</Table.Td>
              <Table.Td>{d.findings.join("; ")}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {grc.evidence_summaries.length > 0 && <List>{grc.evidence_summaries.map((e, i) => <List.Item key={i}>{e}</List.Item>)}</List>}
      {grc.citations.length > 0 && (
        <>
          <Title order={4}>Citations</Title>
          <List>{grc.citations.map((c) => <List.Item key={c.url}><Anchor href={c.url} target="_blank" rel="noreferrer">{c.title || c.url}</Anchor></List.Item>)}</List>
        </>
      )}
    </Stack>
  );
}

/** Fields shows a content group's fields as a definition table. */
function Fields({ values }: { values: object }) {
  const rows = Object.entries(values).filter(([, v]) => v !== null && v !== "" && !(Array.isArray(v) && v.length === 0));
  if (rows.length === 0) return <Text c="dimmed">Nothing known yet.</Text>;
  return (
    <Table>
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th scope="row" w={260}>{k.replaceAll("_", " ")}</Table.Th>
            <Table.Td>{show(v)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function show(v: unknown): string {
  if (Array.isArray(v)) return v.map(show).join(", ");
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (v && typeof v === "object") return Object.entries(v).filter(([, x]) => x !== null && x !== "").map(([k, x]) => `${k.replaceAll("_", " ")}: ${show(x)}`).join("; ");
  return String(v);
}
