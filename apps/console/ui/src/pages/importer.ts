// The CSV import of a file of any length. The API takes at most 500 data
// rows and 1 MB a request, so the file is cut, at record boundaries (a
// quoted cell may hold a newline), into chunks within both limits, each sent
// with the header row; within a chunk the server's batches are followed by
// `next_row_offset` while `has_more` holds. Rows in errors are the server's
// (counted within a chunk) moved to the file's data rows. A refused chunk
// throws its problem and stops the import; the chunks before it stay, and
// running the import again changes nothing for them (the server merges).
import { Problem, type Schemas } from "../api/client";

export const MAX_ROWS = 500;
export const MAX_BYTES = 1 << 20;

export type ImportProgress = {
  total: number;
  done: number;
  vendorsAdded: number;
  productsAdded: number;
  assessments: number;
  queued: number;
  finished: boolean;
};

type Quota = Schemas["OrgEnrichmentJSONQuotaStruct"];
type EnrichmentError = Schemas["EnrichmentErrorJSON"];

/** The enrichment a dry run foresees, as the real import will spend the quota (dryQuota). */
export type DryEnrichment = {
  queued: number;
  /** Vendors saved but not queued: quota_exceeded (in order) and the API's other reasons. */
  notQueued: EnrichmentError[];
  /** The quota as the real import will leave it; null before any answer. */
  quota: Quota | null;
};

export type DryRun = { rows: number; customVendors: string[]; errors: Schemas["RowErrorJSON"][]; enrichment: DryEnrichment };

/** The API's code of a vendor saved past the enrichment quota. */
export const QUOTA_EXCEEDED = "quota_exceeded";

/**
 * dryQuota is the dry-run quota rule, the CLI's (apps/csvimport/dryquota.go):
 * a dry run reports the enrichment quota as the real import will spend it.
 * The API rolls each dry-run request back, so every batch starts from the
 * quota as it was before the import: each would queue up to the whole
 * quota, and a vendor repeated in a later batch would be queued again.
 * The batches are replayed instead: the vendors a batch would queue or
 * refuse for the quota (org_enrichment.queued_vendors and its
 * quota_exceeded errors), less those an earlier batch already took, are
 * queued while the quota the first answer left lasts (its used less what
 * it queued), and the rest are not queued (quota_exceeded), in their
 * order. The answer is the summary so far.
 */
export function dryQuota(): (en: Schemas["OrgEnrichmentJSON"]) => DryEnrichment {
  const out: DryEnrichment = { queued: 0, notQueued: [], quota: null };
  const seen = new Set<string>();
  let refusal: EnrichmentError | null = null; // the API's, copied for a replayed one
  return (en) => {
    const queued = en.queued_vendors ?? [];
    const q = (out.quota ??= { limit: en.quota.limit, used: en.quota.used - queued.length, remaining: 0 });
    const place = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      if (q.used < q.limit) {
        q.used++;
        out.queued++;
        return;
      }
      const e = refusal ?? { code: QUOTA_EXCEEDED, message: "saved, but not queued for enrichment: the account has used its enrichment quota", vendor_name: "" };
      out.notQueued.push({ ...e, vendor_name: name });
    };
    for (const name of queued) place(name);
    for (const e of en.errors) {
      if (e.code !== QUOTA_EXCEEDED) {
        out.notQueued.push(e);
        continue;
      }
      refusal ??= e;
      place(e.vendor_name);
    }
    q.remaining = Math.max(q.limit - q.used, 0);
    return { ...out, notQueued: [...out.notQueued], quota: { ...q } };
  };
}

type Batch = (csv: string, rowOffset: number, dryRun: boolean) => Promise<Schemas["ImportCSVJSON"]>;

/** records splits CSV text into its records (header first), keeping each record's text. */
export function records(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === "\n" && !quoted) {
      out.push(text.slice(start, i).replace(/\r$/, ""));
      start = i + 1;
    }
  }
  if (start < text.length) out.push(text.slice(start).replace(/\r$/, ""));
  return out.filter((r, i) => i === 0 || r.trim() !== "");
}

export type Chunk = { first: number; rows: number; csv: string };

/** chunks cuts a file into requests within the API's limits; first is the chunk's first data row (from 1). */
export function chunks(text: string, maxRows = MAX_ROWS, maxBytes = MAX_BYTES): Chunk[] {
  const [header = "", ...rows] = records(text);
  const size = (s: string) => new TextEncoder().encode(s).length + 1;
  const out: Chunk[] = [];
  let cur: string[] = [];
  let bytes = size(header);
  let first = 1;
  const flush = () => {
    if (cur.length) out.push({ first, rows: cur.length, csv: [header, ...cur].join("\n") + "\n" });
    first += cur.length;
    cur = [];
    bytes = size(header);
  };
  for (const r of rows) {
    if (cur.length && (cur.length >= maxRows || bytes + size(r) > maxBytes)) flush();
    cur.push(r);
    bytes += size(r);
  }
  flush();
  return out;
}

/** inFile moves the rows a problem names from its chunk to the file. */
function inFile(err: unknown, first: number): unknown {
  if (err instanceof Problem) for (const e of err.errors) if (e.row) e.row += first - 1;
  return err;
}

export async function dryRun(csv: string, batch: Batch): Promise<DryRun> {
  const out: DryRun = { rows: 0, customVendors: [], errors: [], enrichment: { queued: 0, notQueued: [], quota: null } };
  const seen = new Set<string>();
  const replay = dryQuota();
  for (const c of chunks(csv)) {
    let r: Schemas["ImportCSVJSON"];
    try {
      r = await batch(c.csv, 0, true);
    } catch (err) {
      throw inFile(err, c.first);
    }
    out.rows += r.rows_total;
    for (const v of r.custom_vendors) if (!seen.has(v)) { seen.add(v); out.customVendors.push(v); }
    out.errors.push(...r.errors.map((e) => ({ ...e, row: e.row + c.first - 1 })));
    out.enrichment = replay(r.org_enrichment);
  }
  return out;
}

/**
 * importCSV sends the file's rows after the first `from` (0: all), the
 * rows before them being done already (an interrupted import resumed: the
 * chunks are cut the same way from the same file).
 */
export async function importCSV(csv: string, batch: Batch, report: (p: ImportProgress) => void, from = 0): Promise<ImportProgress> {
  const parts = chunks(csv);
  const total = parts.reduce((n, c) => n + c.rows, 0);
  const p: ImportProgress = { total, done: Math.min(from, total), vendorsAdded: 0, productsAdded: 0, assessments: 0, queued: 0, finished: false };
  for (const c of parts) {
    if (c.first - 1 + c.rows <= from) continue;
    let offset = Math.max(0, from - (c.first - 1));
    for (;;) {
      let r: Schemas["ImportCSVJSON"];
      try {
        r = await batch(c.csv, offset, false);
      } catch (err) {
        throw inFile(err, c.first);
      }
      p.done = c.first - 1 + r.row_offset + r.rows_processed;
      p.vendorsAdded += r.vendors_added;
      p.productsAdded += r.products_added;
      p.assessments += r.assessments_upserted;
      p.queued += r.org_enrichment.queued;
      if (!r.has_more || r.next_row_offset <= offset) break;
      report({ ...p });
      offset = r.next_row_offset;
    }
    report({ ...p });
  }
  p.finished = true;
  report({ ...p });
  return p;
}

/**
 * Resume bookkeeping: while an import runs, the file's name and size and
 * the rows done are kept in the browser (localStorage, per account and
 * list) so that picking the same file again offers "Resume from row N";
 * a finished import forgets them. Only these three values are kept, never
 * the file.
 */
export type Resume = { name: string; size: number; done: number; total: number };

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;
const resumeKey = (acc: string, list: string) => `vetted.import.${acc}.${list}`;

export function saveResume(store: Store, acc: string, list: string, file: { name: string; size: number }, p: ImportProgress): void {
  if (p.finished) store.removeItem(resumeKey(acc, list));
  else store.setItem(resumeKey(acc, list), JSON.stringify({ name: file.name, size: file.size, done: p.done, total: p.total }));
}

/** resumeFor is where an interrupted import of this file stopped, or null when it is another file or none stopped. */
export function resumeFor(store: Store, acc: string, list: string, file: { name: string; size: number }): Resume | null {
  try {
    const r = JSON.parse(store.getItem(resumeKey(acc, list)) ?? "null") as Resume | null;
    return r && r.name === file.name && r.size === file.size && r.done > 0 && r.done < r.total ? r : null;
  } catch {
    return null;
  }
}
