import { Badge, Card, Stack, Table, Text, Title } from "@mantine/core";
import { type Schemas } from "../api/client";

type View = Schemas["VendorViewJSON"];

// Outline badges in the darkest shade of each color: readable on white
// (the axe contrast rule), whatever the verdict.
const verdictColor: Record<string, string> = {
  kept: "green.9", parked: "orange.9", for_sale: "orange.9", unrelated_redirect: "orange.9", name_mismatch: "yellow.9", generic_page: "yellow.9",
  no_https: "red.9", refused: "red.9", http_error: "red.9", timeout: "gray.9", unresolvable: "gray.9", skipped: "gray.9",
};

const percent = (x: number) => `${Math.round(x * 100)}%`;

/** needsWebsite: the vendor is known by name only and discovery found no site. */
export function needsWebsite(v: View): boolean {
  return Object.values(v.enrichment ?? {}).some((s) => s.status === "needs_website");
}

/** WebsiteOrigin says where the vendor's website came from, next to it. */
export function WebsiteOrigin({ v }: { v: View }) {
  if (v.website_source === "given") return <Badge variant="light" color="gray" data-testid="website-source">given</Badge>;
  if (v.website_source === "discovered") {
    const d = v.website_discovery;
    return (
      <Badge variant="outline" color="teal.9" data-testid="website-source">
        discovered{d ? ` · ${percent(d.confidence)} confident` : ""}
      </Badge>
    );
  }
  if (needsWebsite(v)) return <Badge variant="outline" color="red.9" data-testid="website-source">needs a website</Badge>;
  return null;
}

/**
 * WebsiteEvidence is the evidence of the vendor's website discovery: the
 * site chosen and the name its page gave, or why none was good enough,
 * and every domain tried with its verdict and reason.
 */
export function WebsiteEvidence({ v }: { v: View }) {
  const d = v.website_discovery;
  if (!d) {
    return <Text c="dimmed">{v.website_source === "given" ? "The website was given; no discovery ran." : "No website discovery has run."}</Text>;
  }
  return (
    <Stack data-testid="website-evidence">
      <Card withBorder>
        {d.website ? (
          <Text>
            Chose <b>{d.website}</b> with {percent(d.confidence)} confidence (threshold {percent(d.threshold)}): its {d.match_source} names
            it <b>“{d.match_text}”</b>.
          </Text>
        ) : (
          <Text>
            No site named the vendor with at least {percent(d.threshold)} confidence: it <b>needs a website</b>. Give it by adding the vendor to a list with its website.
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {d.candidates.length} domains tried in {(d.elapsed_ms / 1000).toFixed(1)} s on {new Date(d.discovered_at).toLocaleString()}
        </Text>
      </Card>
      <Title order={3}>Domains tried</Title>
      <Table striped>
        <Table.Thead>
          <Table.Tr><Table.Th>Domain</Table.Th><Table.Th>Verdict</Table.Th><Table.Th>Confidence</Table.Th><Table.Th>Why</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {d.candidates.map((c) => (
            <Table.Tr key={c.domain}>
              <Table.Td>{c.domain}{c.chosen && <Badge ml="xs" size="xs" variant="outline" color="green.9">chosen</Badge>}</Table.Td>
              <Table.Td><Badge variant="outline" color={verdictColor[c.verdict] ?? "gray.9"}>{c.verdict.replaceAll("_", " ")}</Badge></Table.Td>
              <Table.Td>{c.confidence > 0 ? percent(c.confidence) : "–"}</Table.Td>
              <Table.Td><Text size="sm" style={{ wordBreak: "break-word" }}>{c.reason}</Text></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
