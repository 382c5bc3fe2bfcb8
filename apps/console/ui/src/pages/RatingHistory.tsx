import { Badge, List, Stack, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { scanGrade } from "./reviews";

type Rec = Schemas["RatingRecordJSON"];

/**
 * RatingChart draws the ratings of the scans, oldest left, as a plain SVG
 * line with a dot per scan (a scan that could not rate leaves a gap) and
 * the grade bands' lines at 90, 80, 70 and 60; a scan with a change that
 * mattered is a red dot. A dot's title gives the grade with its coverage
 * (scanGrade). No chart library: this is all it needs.
 */
export function RatingChart({ history }: { history: Rec[] }) {
  const scans = [...history].reverse();
  const w = 640, h = 200, pad = 32;
  const x = (i: number) => pad + (scans.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (scans.length - 1));
  const y = (r: number) => h - pad - (r / 100) * (h - 2 * pad);
  const segments: string[] = [];
  let cur = "";
  scans.forEach((s, i) => {
    if (s.security_rating == null) {
      if (cur) segments.push(cur);
      cur = "";
      return;
    }
    cur += `${cur ? "L" : "M"}${x(i).toFixed(1)},${y(s.security_rating).toFixed(1)} `;
  });
  if (cur) segments.push(cur);
  const rated = scans.filter((s) => s.security_rating != null).length;
  return (
    <svg role="img" aria-label={`Security rating over ${scans.length} scans (${rated} rated)`} viewBox={`0 0 ${w} ${h}`} width="100%"
      style={{ maxWidth: w }} data-testid="rating-chart">
      {[90, 80, 70, 60].map((g, i) => (
        <g key={g}>
          <line x1={pad} x2={w - pad} y1={y(g)} y2={y(g)} stroke="#ced4da" strokeDasharray="4 4" />
          <text x={4} y={y(g) + 4} fontSize={11} fill="#495057">{"ABCD"[i]}</text>
        </g>
      ))}
      <line x1={pad} x2={w - pad} y1={y(0)} y2={y(0)} stroke="#adb5bd" />
      {segments.map((d) => <path key={d} d={d} fill="none" stroke="#1c7ed6" strokeWidth={2} />)}
      {scans.map((s, i) => s.security_rating != null && (
        <circle key={s.id} cx={x(i)} cy={y(s.security_rating)} r={4} fill={s.changes.length ? "#e03131" : "#1c7ed6"}>
          <title>{`${new Date(s.scanned_at).toLocaleString()}: ${s.security_rating} (${scanGrade(s.grade, s.checks_run, s.checks_total)})`}</title>
        </circle>
      ))}
    </svg>
  );
}

/** RatingHistory is the vendor's scans, newest first, with the chart. */
export function RatingHistory({ vendor }: { vendor: string }) {
  const history = useQuery({
    queryKey: ["rating-history", vendor],
    queryFn: () => unwrap(api.GET("/vendor/{id_or_name}/rating-history", { params: { path: { id_or_name: vendor }, query: { limit: 50 } } })),
  });
  const recs = history.data?.history ?? [];
  return (
    <Stack>
      <ErrorNote error={history.error} />
      {history.data && recs.length === 0 && <Text c="dimmed">Not scanned yet.</Text>}
      {recs.length > 0 && <RatingChart history={recs} />}
      {recs.length > 0 && (
        <Table striped data-testid="rating-history">
          <Table.Thead>
            <Table.Tr><Table.Th>Scanned</Table.Th><Table.Th>Rating</Table.Th><Table.Th>Grade</Table.Th><Table.Th>Findings</Table.Th><Table.Th>What changed</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {recs.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{new Date(r.scanned_at).toLocaleString()}</Table.Td>
                <Table.Td>{r.security_rating ?? "not rated"}</Table.Td>
                <Table.Td data-testid="scan-grade">{scanGrade(r.grade, r.checks_run, r.checks_total)}</Table.Td>
                <Table.Td>{r.findings.length}</Table.Td>
                <Table.Td>
                  {r.changes.length === 0 ? <Text size="sm" c="dimmed">nothing that matters</Text> : (
                    <List size="sm">
                      {r.changes.map((c) => <List.Item key={c.kind + c.detail}><Badge size="xs" variant="outline" color="red.9" mr="xs">{c.kind.replaceAll("_", " ")}</Badge>{c.detail}</List.Item>)}
                    </List>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
