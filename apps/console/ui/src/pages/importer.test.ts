import { describe, expect, it } from "vitest";
import { chunks, dryRun, importCSV, records, resumeFor, saveResume } from "./importer";
import { Problem, type Schemas } from "../api/client";

const answer = (rows: number, over: Partial<Schemas["ImportCSVJSON"]> = {}): Schemas["ImportCSVJSON"] => ({
  assessments_upserted: 0, custom_vendors: [], dry_run: false, errors: [], has_more: false, next_row_offset: rows,
  org_enrichment: { already_known: 0, errors: [], queued: rows, queued_vendors: [], quota: { limit: 500, used: 0, remaining: 500 } },
  products_added: 1, row_offset: 0, rows_processed: rows, rows_total: rows, vendors_added: rows, ...over,
});
const file = (n: number) => "vendor_name\n" + Array.from({ length: n }, (_, i) => `Vendor ${i + 1}`).join("\n") + "\n";
const dataRows = (csv: string) => records(csv).length - 1;

describe("records", () => {
  it("keeps a quoted newline inside its record and drops blank lines and CRs", () => {
    expect(records('vendor_name,comment\r\nAcme,"two\nlines"\r\n\r\nGlobex,x\r\n')).toEqual(["vendor_name,comment", 'Acme,"two\nlines"', "Globex,x"]);
  });
});

describe("chunks", () => {
  it("cuts 1,200 rows into 500, 500 and 200, each with the header and its first file row", () => {
    const cs = chunks(file(1200));
    expect(cs.map((c) => [c.first, c.rows, dataRows(c.csv)])).toEqual([[1, 500, 500], [501, 500, 500], [1001, 200, 200]]);
    expect(cs.every((c) => c.csv.startsWith("vendor_name\n"))).toBe(true);
  });
  it("keeps every request under the byte limit, a multi-byte character counted as its bytes", () => {
    const row = "é".repeat(100); // 200 bytes
    const cs = chunks("vendor_name\n" + Array(40).fill(row).join("\n"), 500, 1000);
    expect(cs.every((c) => new TextEncoder().encode(c.csv).length <= 1000)).toBe(true);
    expect(cs.reduce((n, c) => n + c.rows, 0)).toBe(40);
  });
});

describe("importCSV", () => {
  it("sends every chunk, follows has_more inside one, and adds up", async () => {
    const calls: [number, number][] = [];
    const reports: number[] = [];
    const p = await importCSV(file(700), async (csv, off) => {
      const n = dataRows(csv);
      calls.push([n, off]);
      if (n === 500 && off === 0) return answer(250, { has_more: true, next_row_offset: 250, rows_total: 500 });
      return answer(n - off, { row_offset: off, rows_total: n });
    }, (r) => reports.push(r.done));
    expect(calls).toEqual([[500, 0], [500, 250], [200, 0]]);
    expect(reports.at(-1)).toBe(700);
    expect(p).toMatchObject({ total: 700, done: 700, vendorsAdded: 700, finished: true });
  });
  it("stops at a refused chunk and names the row of the file", async () => {
    const sent: number[] = [];
    const err = await importCSV(file(900), async (csv) => {
      sent.push(dataRows(csv));
      if (sent.length === 2) throw new Problem(422, { title: "Unprocessable Entity", errors: [{ location: "body.csv", row: 3, column: "vendor_name", message: "required" } as never] });
      return answer(dataRows(csv));
    }, () => {}).catch((e) => e);
    expect(sent).toEqual([500, 400]);
    expect((err as Problem).errors[0].row).toBe(503);
  });
  it("does not loop when the server makes no progress", async () => {
    let calls = 0;
    await importCSV(file(10), async () => { calls++; return answer(0, { has_more: true, next_row_offset: 0 }); }, () => {});
    expect(calls).toBe(1);
  });
});

describe("dryRun", () => {
  it("gathers custom vendors once and places row errors in the file", async () => {
    const d = await dryRun(file(600), async (csv) => answer(dataRows(csv), {
      custom_vendors: ["Acme"], errors: dataRows(csv) === 100 ? [{ row: 2, column: "website_url", message: "not a URL" }] : [],
    }));
    expect(d).toMatchObject({ rows: 600, customVendors: ["Acme"], errors: [{ row: 502, column: "website_url", message: "not a URL" }] });
  });

  // The API as it answers a dry-run request: rolled back, so every request
  // starts from the quota used before the import; a vendor is queued while
  // the quota lasts, then refused with quota_exceeded.
  const rolledBack = (limit: number, used: number) => async (csv: string) => {
    const names = [...new Set(records(csv).slice(1))];
    const fits = Math.max(0, Math.min(names.length, limit - used));
    const queued = names.slice(0, fits);
    return answer(names.length, {
      dry_run: true, custom_vendors: names,
      org_enrichment: {
        already_known: 0, queued: queued.length, queued_vendors: queued,
        errors: names.slice(fits).map((n) => ({ code: "quota_exceeded", message: "saved, but not queued for enrichment: quota", vendor_name: n })),
        quota: { limit, used: used + queued.length, remaining: limit - used - queued.length },
      },
    });
  };
  it("reports the quota as the real import spends it: 620 new vendors in two batches queue 500 and refuse 120", async () => {
    const d = await dryRun(file(620), rolledBack(500, 0));
    expect(d.enrichment.queued).toBe(500);
    expect(d.enrichment.quota).toEqual({ limit: 500, used: 500, remaining: 0 });
    expect(d.enrichment.notQueued.map((e) => e.vendor_name)).toEqual(Array.from({ length: 120 }, (_, i) => `Vendor ${501 + i}`));
    expect(d.enrichment.notQueued.every((e) => e.code === "quota_exceeded" && e.message.includes("quota"))).toBe(true);
  });
  it("counts a vendor repeated in a later batch once, from the quota used before the import", async () => {
    // Rows 501-600 name Vendor 1-100 again; 450 of 500 were used already.
    const csv = file(500) + Array.from({ length: 100 }, (_, i) => `Vendor ${i + 1}`).join("\n") + "\n";
    const d = await dryRun(csv, rolledBack(500, 450));
    expect(d.enrichment.queued).toBe(50);
    expect(d.enrichment.notQueued).toHaveLength(450);
    expect(d.enrichment.notQueued[0].vendor_name).toBe("Vendor 51");
    expect(d.enrichment.quota).toEqual({ limit: 500, used: 500, remaining: 0 });
  });
  it("keeps the API's other reasons and leaves the quota unspent where nothing is queued", async () => {
    const other = { code: "some_other_reason", message: "saved, but not queued", vendor_name: "Acme" };
    const d = await dryRun(file(3), async () => answer(3, {
      org_enrichment: { already_known: 3, queued: 0, queued_vendors: [], errors: [other], quota: { limit: 500, used: 7, remaining: 493 } },
    }));
    expect(d.enrichment).toEqual({ queued: 0, notQueued: [other], quota: { limit: 500, used: 7, remaining: 493 } });
  });
});

describe("resuming an interrupted import", () => {
  const echo = (calls: [number, number][]) => async (csv: string, off: number) => {
    const n = dataRows(csv);
    calls.push([n, off]);
    return answer(n - off, { row_offset: off, rows_total: n });
  };
  it("skips the chunks done and starts inside the chunk where it stopped", async () => {
    const calls: [number, number][] = [];
    const p = await importCSV(file(1200), echo(calls), () => {}, 700);
    expect(calls).toEqual([[500, 200], [200, 0]]);
    expect(p).toMatchObject({ total: 1200, done: 1200, vendorsAdded: 500, finished: true });
  });
  it("starts at the next chunk from a chunk's end", async () => {
    const calls: [number, number][] = [];
    await importCSV(file(1200), echo(calls), () => {}, 500);
    expect(calls).toEqual([[500, 0], [200, 0]]);
  });
  const store = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
  };
  const progress = (done: number, finished = false) => ({ total: 1200, done, vendorsAdded: 0, productsAdded: 0, assessments: 0, queued: 0, finished });
  it("offers the rows done for the same file only, and forgets a finished import", () => {
    const s = store();
    const f = { name: "vendors.csv", size: 4096 };
    expect(resumeFor(s, "acc", "list", f)).toBeNull();
    saveResume(s, "acc", "list", f, progress(500));
    expect(resumeFor(s, "acc", "list", f)).toEqual({ name: "vendors.csv", size: 4096, done: 500, total: 1200 });
    expect(resumeFor(s, "acc", "list", { name: "vendors.csv", size: 4095 })).toBeNull();
    expect(resumeFor(s, "acc", "other", f)).toBeNull();
    saveResume(s, "acc", "list", f, progress(1200, true));
    expect(resumeFor(s, "acc", "list", f)).toBeNull();
  });
});
