// importCSV sends a CSV in batches: each batch starts at the row the last
// one said (`next_row_offset`) while `has_more` holds. A refused batch
// throws its problem (with the row and column it names) and stops the
// import; the batches before it stay, and running the import again changes
// nothing for them (the server merges).
import type { Schemas } from "../api/client";

export type ImportProgress = {
  total: number;
  done: number;
  vendorsAdded: number;
  productsAdded: number;
  assessments: number;
  queued: number;
  finished: boolean;
};

type Batch = (csv: string, rowOffset: number, dryRun: boolean) => Promise<Schemas["ImportCSVJSON"]>;

export async function importCSV(csv: string, batch: Batch, report: (p: ImportProgress) => void): Promise<ImportProgress> {
  const p: ImportProgress = { total: 0, done: 0, vendorsAdded: 0, productsAdded: 0, assessments: 0, queued: 0, finished: false };
  let offset = 0;
  for (;;) {
    const r = await batch(csv, offset, false);
    p.total = r.rows_total;
    p.done = r.row_offset + r.rows_processed;
    p.vendorsAdded += r.vendors_added;
    p.productsAdded += r.products_added;
    p.assessments += r.assessments_upserted;
    p.queued += r.org_enrichment.queued;
    if (!r.has_more || r.next_row_offset <= offset) {
      p.finished = true;
      report({ ...p });
      return p;
    }
    report({ ...p });
    offset = r.next_row_offset;
  }
}
