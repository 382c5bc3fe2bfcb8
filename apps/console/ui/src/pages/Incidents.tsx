import { useState } from "react";
import { Link, useParams } from "react-router";
import { Anchor, Button, Group, MultiSelect, Paper, Select, Stack, Text, Title } from "@mantine/core";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { Evidence, SeverityBadge, Sources } from "../components/Evidence";
import { incidentsQuery, safeURL, SEVERITIES, SOURCES, sourcesText, type Filters } from "./incidents";

/**
 * IncidentsPage lists the incidents of the vendors the account follows,
 * newest first, with the evidence of each match; filters by source,
 * severity and list; a page of PAGE_SIZE at a time ("More incidents").
 */
export function IncidentsPage() {
  const { acc = "individual" } = useParams();
  const [f, setF] = useState<Filters>({ sources: [], severities: [], list: null });
  const lists = useQuery({
    queryKey: ["lists", acc],
    queryFn: () => unwrap(api.GET("/vendor-lists", { params: { query: { "account-id": acc } } })),
  });
  const pages = useInfiniteQuery({
    queryKey: ["account-incidents", acc, f],
    queryFn: ({ pageParam }) => unwrap(api.GET("/incidents", { params: { query: incidentsQuery(acc, f, pageParam) } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor || undefined,
  });
  const rows = pages.data?.pages.flatMap((p) => p.incidents) ?? [];
  return (
    <Stack>
      <Title order={2}>Incidents</Title>
      <Text size="sm" c="dimmed">
        Security incidents of the vendors on this account's lists, newest first: from news, CISA's known exploited vulnerabilities,
        breach lists and SEC filings, each with the evidence that tied it to the vendor, and from vendors' status pages.
      </Text>
      <Group align="flex-end" wrap="wrap" role="search" aria-label="Filter incidents">
        <MultiSelect label="Source" placeholder={f.sources.length ? undefined : "Any source"} data={[...SOURCES]} value={f.sources}
          onChange={(sources) => setF({ ...f, sources })} clearable w={{ base: "100%", sm: 260 }} />
        <MultiSelect label="Severity" placeholder={f.severities.length ? undefined : "Any severity"} data={[...SEVERITIES]} value={f.severities}
          onChange={(severities) => setF({ ...f, severities })} clearable w={{ base: "100%", sm: 260 }} />
        <Select label="List" placeholder="All lists" clearable data={(lists.data?.lists ?? []).map((l) => ({ value: l.id, label: l.name }))}
          value={f.list} onChange={(list) => setF({ ...f, list })} w={{ base: "100%", sm: 220 }} />
      </Group>
      <ErrorNote error={pages.error ?? lists.error} />
      {pages.isLoading && <Text>Loading…</Text>}
      {pages.isSuccess && rows.length === 0 && <Text c="dimmed">No incident for the vendors in scope.</Text>}
      {rows.length > 0 && (
        <Text size="sm" role="status" data-testid="incident-count">{rows.length} incident{rows.length === 1 ? "" : "s"} shown{pages.hasNextPage ? "; more follow" : ""}</Text>
      )}
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: "none" }} aria-label="Incidents">
        {rows.map((i) => <IncidentRow key={i.id} acc={acc} i={i} />)}
      </Stack>
      {pages.hasNextPage && (
        <Button variant="default" w={{ base: "100%", sm: 220 }} loading={pages.isFetchingNextPage} onClick={() => pages.fetchNextPage()}>
          More incidents
        </Button>
      )}
    </Stack>
  );
}

function IncidentRow({ acc, i }: { acc: string; i: Schemas["AccountIncidentJSON"] }) {
  const href = safeURL(i.url);
  return (
    <Paper component="li" withBorder p="sm" data-testid="incident">
      <Stack gap={4}>
        <Title order={3} size="h5">
          {href ? <Anchor href={href} target="_blank" rel="noreferrer noopener">{i.title}</Anchor> : i.title}
        </Title>
        <Group gap="xs" wrap="wrap">
          <Anchor component={Link} to={`/a/${acc}/vendors/${i.vendor_id}`} fw={600}>{i.vendor_name}</Anchor>
          <SeverityBadge severity={i.severity} />
          <Text span size="sm">{sourcesText(i.sources.length)}</Text>
          <Text span size="sm">published <time dateTime={i.published_at}>{new Date(i.published_at).toLocaleDateString()}</time></Text>
          {i.backfilled && <Text span size="sm" c="dimmed">historical</Text>}
          {i.lists.length > 0 && <Text span size="sm" c="dimmed">on {i.lists.map((l) => l.name).join(", ")}</Text>}
        </Group>
        <Evidence match={i.match} />
        {i.sources.length > 1 && <Sources sources={i.sources} />}
      </Stack>
    </Paper>
  );
}
