// What the Incidents pages show of an incident of a platform-wide source:
// its evidence (the rule that matched it to the vendor, the text it matched,
// how sure the rule is) and the items merged into it, in a person's words.
import type { Schemas } from "../api/client";

/** The platform-wide sources an incident's items come from, as the API names them. */
export const SOURCES = [
  { value: "news", label: "News" },
  { value: "kev", label: "CISA KEV" },
  { value: "breach", label: "Breach list" },
  { value: "filing", label: "SEC filing (8-K)" },
] as const;

/** The severities of an incident, most severe first. */
export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;

/** The page size of the Incidents page. */
export const PAGE_SIZE = 50;

/** sourceLabel names a source of an item ("kev" reads "CISA KEV"); others (status page, manual) as they are. */
export function sourceLabel(source: string): string {
  return SOURCES.find((s) => s.value === source)?.label ?? source.replaceAll("_", " ");
}

const RULES: Record<string, string> = {
  kev_vendor_project: "KEV vendor is this vendor",
  breach_domain: "breached domain is this vendor's",
  filing_filer: "8-K item 1.05 filed by this vendor",
  news_named: "security story names this vendor",
};

/** ruleLabel says what a match rule means. */
export function ruleLabel(rule: string): string {
  return RULES[rule] ?? rule.replaceAll("_", " ");
}

/** confidenceText writes a confidence in [0,1] as a percentage ("95%"). */
export function confidenceText(c: number): string {
  return `${Math.round(Math.min(1, Math.max(0, c)) * 100)}%`;
}

/** The evidence as the API gives it; null for status-page, feed and manual incidents. */
export type Match = Schemas["IncidentMatchJSON"] | null | undefined;

/** evidenceText is the evidence in one line, or "" when the incident has none. */
export function evidenceText(m: Match): string {
  if (!m) return "";
  return `${ruleLabel(m.rule)}: ${m.matched_text} (confidence ${confidenceText(m.confidence)})`;
}

/** sourcesText counts the items merged into an incident ("3 sources"). */
export function sourcesText(n: number): string {
  return n === 1 ? "1 source" : `${n} sources`;
}

/** Filters are what the Incidents page narrows to. */
export type Filters = { sources: string[]; severities: string[]; list: string | null };

/** incidentsQuery is the GET /incidents query of an account, filters and page. */
export function incidentsQuery(acc: string, f: Filters, cursor?: string) {
  return {
    "account-id": acc,
    limit: PAGE_SIZE,
    ...(f.sources.length ? { source: f.sources } : {}),
    ...(f.severities.length ? { severity: f.severities } : {}),
    ...(f.list ? { "vendor-list-id": f.list } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

/** safeURL keeps http(s) links only: a source's link is the feed's text, never a script. */
export function safeURL(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}
