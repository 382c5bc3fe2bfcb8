// The attestation form: which fields each kind takes (the API refuses a
// field of another kind) and the body a filled form sends.
import type { Schemas } from "../api/client";

export type Kind = "soc2" | "iso27001" | "pentest" | "insurance" | "other";
type Body = Schemas["AttestationBody"];

export const KINDS: { value: Kind; label: string }[] = [
  { value: "soc2", label: "SOC 2 report" },
  { value: "iso27001", label: "ISO 27001 certificate" },
  { value: "pentest", label: "Penetration test" },
  { value: "insurance", label: "Insurance certificate" },
  { value: "other", label: "Other document" },
];

export const OPINIONS = ["unqualified", "qualified", "adverse", "disclaimer"] as const;

export type FieldType = "date" | "text" | "number" | "report_type" | "opinion" | "list";

/** A form field: the body's name, its label, its input, whether the API requires it. */
export type Field = { name: keyof Body; label: string; type: FieldType; required: boolean };

export const FIELDS: Record<Kind, Field[]> = {
  soc2: [
    { name: "report_type", label: "Report type", type: "report_type", required: true },
    { name: "period_start", label: "Period start", type: "date", required: true },
    { name: "period_end", label: "Period end", type: "date", required: true },
    { name: "auditor", label: "Auditor", type: "text", required: true },
    { name: "opinion", label: "Opinion", type: "opinion", required: true },
    { name: "exceptions", label: "Exceptions", type: "text", required: false },
    { name: "subservice_organizations", label: "Subservice organizations carved out (one per line)", type: "list", required: false },
    { name: "cuecs", label: "Complementary user entity controls (one per line)", type: "list", required: false },
  ],
  iso27001: [
    { name: "certificate_number", label: "Certificate number", type: "text", required: true },
    { name: "issuer", label: "Issuer", type: "text", required: true },
    { name: "scope", label: "Scope", type: "text", required: false },
    { name: "valid_until", label: "Valid until", type: "date", required: true },
  ],
  pentest: [
    { name: "performed_on", label: "Performed on", type: "date", required: true },
    { name: "firm", label: "Firm", type: "text", required: true },
    { name: "open_critical", label: "Open critical findings", type: "number", required: false },
    { name: "open_high", label: "Open high findings", type: "number", required: false },
  ],
  insurance: [{ name: "valid_until", label: "Valid until", type: "date", required: true }],
  other: [{ name: "valid_until", label: "Valid until", type: "date", required: true }],
};

/** The file types the evidence store takes for an attestation. */
export const FILE_TYPES = ["application/pdf", "image/png", "image/jpeg", "text/plain", "application/zip"];

/**
 * attestationBody is what a filled form sends: the kind's fields that have
 * a value (an empty optional field is left out, an empty required one too,
 * so the API names it), numbers as numbers, lists one entry per line.
 */
export function attestationBody(kind: Kind, values: Record<string, string>, fileType?: string): Body {
  const body: Record<string, unknown> = { kind };
  for (const f of FIELDS[kind]) {
    const raw = (values[f.name] ?? "").trim();
    if (raw === "") continue;
    if (f.type === "number" || f.type === "report_type") body[f.name] = Number(raw);
    else if (f.type === "list") body[f.name] = raw.split("\n").map((s) => s.trim()).filter(Boolean);
    else body[f.name] = raw;
  }
  if (fileType && FILE_TYPES.includes(fileType)) body.content_type = fileType;
  return body as Body;
}

/** stateColor is the badge color of a derived state. */
export function stateColor(state: string): string {
  return state === "current" ? "green" : state === "expiring" ? "yellow" : "red";
}

/** kindLabel names a kind for people. */
export function kindLabel(kind: string): string {
  return KINDS.find((k) => k.value === kind)?.label ?? kind;
}

/** summary is one line of what a record says, by kind. */
export function summary(a: Schemas["AttestationJSON"]): string {
  switch (a.kind) {
    case "soc2":
      return `Type ${a.report_type}, ${a.period_start} to ${a.period_end}, ${a.auditor}, ${a.opinion} opinion`;
    case "iso27001":
      return `${a.certificate_number} by ${a.issuer}${a.scope ? `, ${a.scope}` : ""}`;
    case "pentest":
      return `${a.firm}, ${a.performed_on}: ${a.open_critical ?? 0} critical, ${a.open_high ?? 0} high open`;
  }
  return "";
}
