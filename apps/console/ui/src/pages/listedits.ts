// What another person changed on a list while the page showed it: the
// list page adds and removes vendors one at a time (add-vendors,
// remove-vendors) and reads the list again after each change.
import type { Schemas } from "../api/client";

type Entry = Pick<Schemas["EntryJSON"], "vendor_id" | "vendor_name">;
type Saved = Pick<Schemas["SaveVendorsJSON"], "added" | "removed">;

/**
 * othersChanges compares the list as read after one's own add or remove
 * with what the page had, plus that change: whatever else differs was
 * changed by someone else meanwhile.
 */
export function othersChanges(had: Entry[], mine: Saved, now: Entry[]): { added: string[]; removed: string[] } {
  const expected = new Map(had.map((e) => [e.vendor_id, e.vendor_name]));
  for (const v of mine.added) expected.set(v.vendor_id, v.vendor_name);
  for (const v of mine.removed) expected.delete(v.vendor_id);
  const present = new Map(now.map((e) => [e.vendor_id, e.vendor_name]));
  return {
    added: [...present].filter(([id]) => !expected.has(id)).map(([, n]) => n).sort(),
    removed: [...expected].filter(([id]) => !present.has(id)).map(([, n]) => n).sort(),
  };
}

/** othersNote says what someone else changed, or nothing. */
export function othersNote(c: { added: string[]; removed: string[] }): string {
  const part = (names: string[], what: string) =>
    names.length ? `${names.length} vendor${names.length > 1 ? "s" : ""} ${what} by someone else: ${names.join(", ")}` : "";
  return [part(c.added, "added"), part(c.removed, "removed")].filter(Boolean).join("; ");
}
