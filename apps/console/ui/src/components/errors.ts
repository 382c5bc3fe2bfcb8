// How an error answer is shown: each error by the label of its field, not
// by its wire location (body.vendors[5].vendor_name), once, and only until
// the next action succeeds.

/** Labels name the fields of a form by location pattern: indexes written `[]` ("body.vendors[].vendor_name"). */
export type Labels = Record<string, string>;

const human = (s: string) => {
  const t = s.replace(/[_-]+/g, " ").trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
};

/**
 * locationLabel names an error's location as a person reads it: the form's
 * label for it when the page gives one ("Website" for
 * body.vendors[].website_url), else its last name made readable; each index
 * becomes the item's number from 1 ("Vendor name (vendor 6)").
 */
export function locationLabel(location: string | undefined, labels: Labels = {}): string {
  if (!location) return "";
  const pattern = location.replace(/\[\d+\]/g, "[]");
  const parts = location.replace(/^(body|query|path|header)\./, "").split(".");
  const items: string[] = [];
  parts.forEach((p, n) => {
    const m = /^(.*?)((?:\[\d+\])+)$/.exec(p);
    if (!m) return;
    const idx = [...m[2].matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]) + 1);
    // An index of the named field itself (reminder_offsets_days[1]) reads as "item 2".
    const what = m[1] && n < parts.length - 1 ? human(m[1]).toLowerCase().replace(/s$/, "") : "item";
    items.push(...idx.map((i) => `${what} ${i}`));
  });
  const last = parts[parts.length - 1].replace(/\[\d+\]/g, "");
  const name = labels[pattern] ?? labels[location] ?? human(last || parts.join(" "));
  const where = items.join(", ");
  return where ? `${name} (${where})` : name;
}

/** inside says whether a location is at or within one of the fields. */
export function inside(location: string | undefined, fields: string[]): boolean {
  return !!location && fields.some((f) => location === f || location.startsWith(`${f}[`) || location.startsWith(`${f}.`));
}

type Result = { error: unknown; status?: string; submittedAt?: number };

/**
 * lastError is the error of the action tried last among a page's
 * mutations, none when it succeeded: an earlier failure is not shown once
 * a later action has gone through.
 */
export function lastError(...results: Result[]): unknown {
  let last: Result | undefined;
  for (const r of results) if ((r.submittedAt ?? 0) > 0 && (!last || (r.submittedAt ?? 0) >= (last.submittedAt ?? 0))) last = r;
  return last && last.status === "error" ? last.error : null;
}
