// The vendor record form's pure parts: the contact roles the API takes,
// the rows the form sends (blank rows dropped, so an added but unused row
// is not refused), and which members a note's text will mail (the rule of
// core/records/mentions.go, for the hint under the note field; the server
// decides).
import type { Schemas } from "../api/client";

export type Contact = Schemas["ContactJSON"];
export type Role = Contact["role"];

export const CONTACT_ROLES: { value: Role; label: string }[] = [
  { value: "security", label: "Security" },
  { value: "privacy", label: "Privacy" },
  { value: "account", label: "Account manager" },
  { value: "legal", label: "Legal" },
];

export const LINKS = [
  { key: "trust_page", label: "Trust page" },
  { key: "dpa", label: "Data processing agreement (DPA)" },
  { key: "terms", label: "Terms" },
  { key: "sla", label: "Service level agreement (SLA)" },
] as const;

export const blankContact = (): Contact => ({ name: "", email: "", role: "security" });

/** contactsToSend drops the rows whose name and e-mail are both blank. */
export function contactsToSend(rows: Contact[]): Contact[] {
  return rows.filter((c) => c.name.trim() !== "" || c.email.trim() !== "");
}

/**
 * mentioned lists the members a note mentions as @address, lower-cased,
 * each once, the author left out: who will get a mail.
 */
export function mentioned(text: string, members: string[], author: string): string[] {
  const known = new Set(members.map((m) => m.toLowerCase()));
  const out: string[] = [];
  const re = /(^|[^A-Za-z0-9.\-_+@])@([^\s@"'()<>[\]{},;]+@[^\s@"'()<>[\]{},;]+)/g;
  for (const m of text.matchAll(re)) {
    const e = m[2].replace(/[.:!?]+$/, "").toLowerCase();
    if (known.has(e) && e !== author.toLowerCase() && !out.includes(e)) out.push(e);
  }
  return out;
}
