import { describe, expect, it } from "vitest";
import { importCSV } from "./importer";
import type { Schemas } from "../api/client";

const answer = (row_offset: number, rows: number, total: number): Schemas["ImportCSVJSON"] => ({
  assessments_upserted: 0, custom_vendors: [], dry_run: false, errors: [],
  has_more: row_offset + rows < total, next_row_offset: row_offset + rows,
  org_enrichment: { already_known: 0, errors: [], queued: rows, quota: { limit: 500, used: 0, remaining: 500 } },
  products_added: 1, row_offset, rows_processed: rows, rows_total: total, vendors_added: rows,
});

describe("importCSV", () => {
  it("follows next_row_offset while has_more and adds up the batches", async () => {
    const offsets: number[] = [];
    const reports: number[] = [];
    const p = await importCSV("csv", async (_csv, off) => { offsets.push(off); return answer(off, Math.min(500, 1200 - off), 1200); }, (r) => reports.push(r.done));
    expect(offsets).toEqual([0, 500, 1000]);
    expect(reports).toEqual([500, 1000, 1200]);
    expect(p).toMatchObject({ total: 1200, done: 1200, vendorsAdded: 1200, productsAdded: 3, queued: 1200, finished: true });
  });
  it("stops at a refused batch and throws its problem", async () => {
    const offsets: number[] = [];
    await expect(
      importCSV("csv", async (_c, off) => { offsets.push(off); if (off > 0) throw new Error("row 501 column vendor_name"); return answer(0, 500, 900); }, () => {}),
    ).rejects.toThrow("row 501");
    expect(offsets).toEqual([0, 500]);
  });
  it("does not loop when the server makes no progress", async () => {
    let calls = 0;
    await importCSV("csv", async () => { calls++; return { ...answer(0, 0, 10), has_more: true, next_row_offset: 0 }; }, () => {});
    expect(calls).toBe(1);
  });
});
