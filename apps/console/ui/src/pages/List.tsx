import { useMemo, useState } from "react";
import { Link, useParams } from "react-router";
import {
  Alert, Anchor, Badge, Button, Group, Pagination, Select, Stack, Switch, Table, Text, TextInput, Title, VisuallyHidden } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fieldError, Problem, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { lastError, type Labels } from "../components/errors";
import { STATE_LABEL, day, grade } from "./reviews";
import { currentToken } from "../auth";
import { othersChanges, othersNote } from "./listedits";
import { canWrite } from "./roles";
import { useRole, useTitle } from "../App";
import { focusHeading } from "../page";

type Entry = Schemas["EntryJSON"];
type Saved = Schemas["SaveVendorsJSON"];
const PAGE = 50;

/** The add form's fields: an error there is shown at its field, named by its label anywhere else. */
const NAME = "body.vendors[0].vendor_name";
const SITE = "body.vendors[0].website_url";
const LABELS: Labels = { "body.vendors[].vendor_name": "Vendor name", "body.vendors[].website_url": "Website", "body.vendor-id": "Vendor" };

/** wrap lets a long name break onto more lines instead of widening the table. */
const wrap = { overflowWrap: "anywhere", wordBreak: "break-word" } as const;
/** Badges grow with their text instead of cutting it with an ellipsis. */
const wholeBadge = {
  root: { height: "auto", maxWidth: "100%", whiteSpace: "normal", overflow: "visible" },
  label: { overflow: "visible", textOverflow: "clip", whiteSpace: "normal", ...wrap },
} as const;

export function ListPage() {
  const { acc = "individual", list = "" } = useParams();
  const qc = useQueryClient();
  const key = ["list", acc, list];
  // sort asks for the shaped entries: rating, tier, approval and review state with each.
  const readList = () => unwrap(api.GET("/vendor-lists", { params: { query: { "account-id": acc, "vendor-list-id": list, sort: "name" } } }));
  const read = useQuery({ queryKey: key, queryFn: readList });
  useTitle(read.data?.list?.name);
  const writer = canWrite(acc, useRole(acc));
  const statusOf = useMemo(() => {
    const m = new Map<string, string>();
    for (const e of read.data?.vendors ?? []) if (e.compliance_approval_status) m.set(e.vendor_id, e.compliance_approval_status);
    return m;
  }, [read.data]);

  const [q, setQ] = useState("");
  const [enrichment, setEnrichment] = useState<string | null>(null);
  const [approval, setApproval] = useState<string | null>(null);
  const [alerts, setAlerts] = useState<string | null>(null);
  const [letter, setLetter] = useState<string | null>(null);
  const [state, setState] = useState<string | null>(null);
  const [sort, setSort] = useState<string>("name");
  const [page, setPage] = useState(1);
  const entries = read.data?.vendors ?? [];
  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const out = entries.filter(
      (e) =>
        (!needle || e.display_name.toLowerCase().includes(needle) || e.vendor_name.toLowerCase().includes(needle) || e.products.some((p) => p.product_name.toLowerCase().includes(needle))) &&
        (!enrichment || e.enrichment_status === enrichment) &&
        (!approval || (statusOf.get(e.vendor_id) ?? "none") === approval) &&
        (!alerts || String(e.alerts_enabled) === alerts) &&
        (!letter || (grade(e.rating) || "none") === letter) &&
        (!state || e.review_state === state),
    );
    const by: Record<string, (a: Entry, b: Entry) => number> = {
      name: (a, b) => a.display_name.localeCompare(b.display_name),
      "-added": (a, b) => b.added_at.localeCompare(a.added_at),
      status: (a, b) => (statusOf.get(a.vendor_id) ?? "").localeCompare(statusOf.get(b.vendor_id) ?? ""),
      enrichment: (a, b) => a.enrichment_status.localeCompare(b.enrichment_status),
      "-rating": (a, b) => (b.rating ?? -1) - (a.rating ?? -1),
      next_review_at: (a, b) => (a.next_review_at ?? "9999").localeCompare(b.next_review_at ?? "9999"),
    };
    return out.sort(by[sort]);
  }, [entries, q, enrichment, approval, alerts, letter, state, sort, statusOf]);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  const visible = shown.slice((Math.min(page, pages) - 1) * PAGE, Math.min(page, pages) * PAGE);

  // Vendors are added and removed one at a time (add-vendors,
  // remove-vendors), never by resending the list: what another person
  // changed meanwhile stays, and the list read again after the change shows
  // it, with a note of what they changed.
  const [others, setOthers] = useState("");
  const change = useMutation({
    mutationFn: async (v: { op: "add-vendors" | "remove-vendors"; vendor: { vendor_name: string; website_url?: string } }) => {
      const had = read.data?.vendors ?? [];
      const saved = (await unwrap(
        api.POST("/vendor-lists", {
          params: { query: { "account-id": acc, operation: v.op, "vendor-list-id": list } },
          body: { vendors: [v.vendor] },
        }),
      )) as Saved;
      const now = await qc.fetchQuery({ queryKey: key, queryFn: readList, staleTime: 0 });
      const shown = (es: Entry[]) => es.map((e) => ({ vendor_id: e.vendor_id, vendor_name: e.display_name }));
      return { saved, note: othersNote(othersChanges(shown(had), saved, shown(now.vendors ?? []))) };
    },
    onSuccess: ({ note }) => {
      setOthers(note);
      qc.invalidateQueries({ queryKey: ["lists", acc] });
      // As after the other pages' saves: focus on the heading (a removed row's button is gone).
      focusHeading();
    },
  });
  const saved = change.data?.saved;
  const [name, setName] = useState("");
  const [site, setSite] = useState("");

  const toggle = useMutation({
    mutationFn: (v: { id: string; on: boolean }) =>
      unwrap(
        api.PATCH("/vendor-lists", {
          params: { query: { "account-id": acc, operation: "alerts-enabled", "vendor-list-id": list } },
          body: { "vendor-id": v.id, alerts_enabled: v.on },
        }),
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });

  const summary = saved?.added.length ? saved.org_enrichment : undefined;
  // The error of the action tried last; an add's errors are shown at the form's fields.
  const error = lastError(change, toggle);
  const atForm = error && error === change.error && change.variables?.op === "add-vendors" ? change.error : null;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{read.data?.list?.name ?? "List"}</Title>
        <Group>
          <Button variant="default" onClick={() => exportCSV(acc, list, read.data?.list?.name ?? "vendors")}>Export CSV</Button>
          {writer && <Button component={Link} to={`/a/${acc}/lists/${list}/import`} variant="default">Import CSV</Button>}
          <Button component={Link} to={`/a/${acc}/lists/${list}/subscribers`} variant="default">Subscribers</Button>
        </Group>
      </Group>
      <ErrorNote error={read.error} />
      {writer && <form
        onSubmit={(e) => {
          e.preventDefault();
          const vendor = { vendor_name: name.trim(), ...(site.trim() ? { website_url: site.trim() } : {}) };
          change.mutate({ op: "add-vendors", vendor }, { onSuccess: () => { setName(""); setSite(""); } });
        }}
      >
        <Group align="flex-start">
          <TextInput label="Vendor name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldError(atForm, NAME)} />
          <TextInput
            label="Website (optional)"
            placeholder="https://example.com"
            value={site}
            onChange={(e) => setSite(e.currentTarget.value)}
            error={fieldError(atForm, SITE)}
          />
          <Button type="submit" mt={25} loading={change.isPending}>Add vendor</Button>
        </Group>
      </form>}
      <ErrorNote error={error} labels={LABELS} atFields={atForm ? [NAME, SITE] : []} />
      {others && (
        <Alert title="Changed by someone else" color="blue" data-testid="others-changes" role="status">{others}</Alert>
      )}
      {saved?.already_on_list?.length ? (
        <Alert color="gray" data-testid="already-on-list" role="status">
          Already on the list: {saved.already_on_list.map((v) => v.vendor_name).join(", ")}
        </Alert>
      ) : null}
      {saved?.not_on_list?.length ? (
        <Alert color="gray" data-testid="not-on-list" role="status">Not on the list: {saved.not_on_list.join(", ")}</Alert>
      ) : null}
      {summary && (
        <Alert title="Enrichment" color={summary.errors.length ? "yellow" : "blue"} data-testid="org-enrichment" role="status">
          {summary.queued} queued, {summary.already_known} already known; quota {summary.quota.used} of {summary.quota.limit} used,{" "}
          {summary.quota.remaining} remaining.
          {summary.errors.map((e) => (
            <Text key={e.vendor_name} size="sm">{e.vendor_name}: {e.message}</Text>
          ))}
        </Alert>
      )}
      <Group align="flex-end">
        <TextInput label="Search" placeholder="Vendor or product" value={q} onChange={(e) => { setQ(e.currentTarget.value); setPage(1); }} />
        <Select label="Enrichment" clearable value={enrichment} onChange={(v) => { setEnrichment(v); setPage(1); }}
          data={[...new Set(entries.map((e) => e.enrichment_status))].sort()} />
        <Select label="Approval" clearable value={approval} onChange={(v) => { setApproval(v); setPage(1); }}
          data={["none", "not-started", "in-progress", "on-hold", "approved", "conditional approval", "rejected"]} />
        <Select label="Alerts" clearable value={alerts} onChange={(v) => { setAlerts(v); setPage(1); }}
          data={[{ value: "true", label: "on" }, { value: "false", label: "off" }]} />
        <Select label="Rating" clearable value={letter} onChange={(v) => { setLetter(v); setPage(1); }}
          data={RATING_BANDS} />
        <Select label="Review" clearable value={state} onChange={(v) => { setState(v); setPage(1); }}
          data={Object.entries(STATE_LABEL).map(([value, label]) => ({ value, label }))} />
        <Select label="Sort" value={sort} allowDeselect={false} onChange={(v) => v && setSort(v)}
          data={[{ value: "name", label: "Name" }, { value: "-added", label: "Newest" }, { value: "status", label: "Approval" }, { value: "enrichment", label: "Enrichment" }, { value: "-rating", label: "Rating" }, { value: "next_review_at", label: "Next review" }]} />
      </Group>
      <Group gap="xs" justify="space-between">
        <Text size="sm" c="dimmed" data-testid="shown-count">{shown.length} of {entries.length} vendors</Text>
        {/* The list answers no coverage (how many of the scan's checks ran), so it shows no grade: each rating opens its vendor, which shows the grade with its coverage. */}
        <Text size="sm" c="dimmed" id="rating-hint">A rating opens its vendor, where its grade is shown with the checks it was made from.</Text>
      </Group>
      <Table striped data-testid="vendors-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Vendor</Table.Th><Table.Th>Enrichment</Table.Th><Table.Th>Rating</Table.Th><Table.Th>Tier</Table.Th>
            <Table.Th>Approval</Table.Th><Table.Th>Next review</Table.Th>
            <Table.Th>Alerts</Table.Th><Table.Th>Products</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {visible.map((e) => (
            <Table.Tr key={e.vendor_id}>
              <Table.Td style={{ ...wrap, minWidth: "10rem" }}>
                <Anchor component={Link} to={`/a/${acc}/vendors/${e.vendor_id}`} style={wrap}>{e.display_name}</Anchor>
                {e.is_custom && <Badge ml="xs" size="xs" variant="light" styles={wholeBadge}>custom</Badge>}
              </Table.Td>
              <Table.Td>
                {e.enrichment_status === "needs_website" ? <Badge size="sm" color="red.9" variant="outline" styles={wholeBadge}>needs a website</Badge> : e.enrichment_status}
              </Table.Td>
              <Table.Td>
                {e.rating === null ? "" : (
                  <Anchor component={Link} to={`/a/${acc}/vendors/${e.vendor_id}`} aria-label={`Rating ${e.rating} of ${e.display_name}`} aria-describedby="rating-hint">{e.rating}</Anchor>
                )}
              </Table.Td>
              <Table.Td>{e.tier}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/a/${acc}/lists/${list}/vendors/${e.vendor_id}/assessment`}>
                  {statusOf.get(e.vendor_id) ?? "start review"}
                </Anchor>
              </Table.Td>
              <Table.Td>
                {day(e.next_review_at)}{" "}
                {e.review_state && e.review_state !== "current" && (
                  <Badge variant="light" c="dark.9" color={e.review_state === "overdue" ? "red" : "yellow"} styles={wholeBadge}>{STATE_LABEL[e.review_state]}</Badge>
                )}
              </Table.Td>
              <Table.Td>
                {writer ? (
                  <Switch
                    aria-label={`Alerts for ${e.display_name}`}
                    checked={e.alerts_enabled}
                    onChange={(ev) => toggle.mutate({ id: e.vendor_id, on: ev.currentTarget.checked })}
                  />
                ) : e.alerts_enabled ? "on" : "off"}
              </Table.Td>
              <Table.Td><Products acc={acc} list={list} entry={e} writer={writer} /></Table.Td>
              <Table.Td>
                {writer && <Button
                  size="xs" variant="subtle" color="red" aria-label={`Remove ${e.display_name}`}
                  onClick={() => change.mutate({ op: "remove-vendors", vendor: { vendor_name: e.vendor_name } })}
                >
                  Remove
                </Button>}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {pages > 1 && (
        <Pagination
          total={pages} value={Math.min(page, pages)} onChange={setPage} aria-label="Pages"
          getItemProps={(n) => ({ "aria-label": `Page ${n}` })}
          getControlProps={(control) => ({ "aria-label": PAGE_CONTROL[control] })}
        />
      )}
    </Stack>
  );
}

function Products({ acc, list, entry, writer }: { acc: string; list: string; entry: Entry; writer: boolean }) {
  const qc = useQueryClient();
  const [name, setName] = useState("");
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/vendor-lists/{vendor_list_id}/vendors/{vendor_id}/products", {
          params: { path: { vendor_list_id: list, vendor_id: entry.vendor_id }, query: { "account-id": acc } },
          body: { product_name: name },
        }),
      ),
    onSuccess: () => { setName(""); qc.invalidateQueries({ queryKey: ["list", acc, list] }); },
  });
  const dup = add.error instanceof Problem && add.error.status === 409;
  return (
    <Stack gap={4}>
      <Group gap={4}>{entry.products.map((p) => <Badge key={p.id} variant="outline" styles={wholeBadge}>{p.product_name}</Badge>)}</Group>
      {writer && <form onSubmit={(e) => { e.preventDefault(); if (name.trim()) add.mutate(); }}>
        <TextInput
          size="xs"
          placeholder="Add product"
          aria-label={`Add product to ${entry.display_name}`}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={dup ? "already on this vendor" : fieldError(add.error, "body.product_name") ?? (add.error as Error | null)?.message}
        />
      </form>}
    </Stack>
  );
}

/** RATING_BANDS filter by rating, in the bands of the grade letters (grade in reviews.ts), without naming a grade the list cannot back with its coverage. */
const RATING_BANDS = [
  { value: "A", label: "90 to 100" }, { value: "B", label: "80 to 89" }, { value: "C", label: "70 to 79" },
  { value: "D", label: "60 to 69" }, { value: "F", label: "below 60" }, { value: "none", label: "not rated" },
];

/** PAGE_CONTROL names the pagination's arrow buttons, which show only an icon. */
const PAGE_CONTROL: Record<"first" | "previous" | "next" | "last", string> = {
  first: "First page", previous: "Previous page", next: "Next page", last: "Last page",
};

/** exportCSV downloads the register (GET /vendor-lists/export) as a file. */
async function exportCSV(acc: string, list: string, name: string) {
  const res = await fetch(`/vendor-lists/export?account-id=${encodeURIComponent(acc)}&vendor-list-id=${encodeURIComponent(list)}&format=csv`, {
    headers: { Authorization: `Bearer ${currentToken()}` },
  });
  if (!res.ok) throw new Error(`export: HTTP ${res.status}`);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = `${name}.csv`;
  a.click();
  URL.revokeObjectURL(url);
}
