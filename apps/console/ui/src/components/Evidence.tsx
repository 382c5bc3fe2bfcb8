import { Anchor, Badge, Group, List, Text } from "@mantine/core";
import type { Schemas } from "../api/client";
import { confidenceText, ruleLabel, safeURL, sourceLabel, type Match } from "../pages/incidents";

export const severityColor: Record<string, string> = { critical: "red", high: "orange", medium: "yellow", low: "blue", info: "gray", positive: "green" };

/** SeverityBadge shows a severity; its text is the severity, so color is never the only cue. */
export function SeverityBadge({ severity }: { severity: string }) {
  return <Badge color={severityColor[severity] ?? "gray"} variant="light" c="dark">{severity}</Badge>;
}

/** Evidence shows why an incident of a platform-wide source was matched to its vendor. */
export function Evidence({ match }: { match: Match }) {
  if (!match) return null;
  return (
    <Text size="sm" data-testid="evidence">
      <Text span fw={600}>Evidence: </Text>
      {ruleLabel(match.rule)}; matched <Text span ff="monospace" size="sm">{match.matched_text}</Text>; confidence {confidenceText(match.confidence)}
    </Text>
  );
}

/** Sources lists the items merged into an incident, each linked to where it was published. */
export function Sources({ sources }: { sources: Schemas["IncidentSourceJSON"][] }) {
  if (sources.length === 0) return null;
  return (
    <List size="sm" data-testid="sources">
      {sources.map((s, i) => {
        const href = safeURL(s.url);
        const when = new Date(s.published_at).toLocaleDateString();
        return (
          <List.Item key={`${s.source}-${s.url}-${i}`}>
            <Group gap={6} wrap="wrap">
              <Text span size="sm" fw={600}>{sourceLabel(s.source)}</Text>
              <Text span size="sm">{when}</Text>
              {href && <Anchor size="sm" href={href} target="_blank" rel="noreferrer noopener">{s.url}</Anchor>}
            </Group>
          </List.Item>
        );
      })}
    </List>
  );
}
