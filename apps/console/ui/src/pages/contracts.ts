// What the Contracts page reads and sends: the form's state, built from a
// contract or empty, and the body it sends (POST, or a PATCH replacing
// every writable field); the service types and states with their labels.
import type { Schemas } from "../api/client";

export type Contract = Schemas["ContractJSON"];
export type Fields = Schemas["ContractFieldsJSON"];
export type ServiceType = Schemas["ContractServiceJSON"]["type"];

/** The service types of the API (core/contracts/services.go), with labels. */
export const SERVICE_TYPES: { value: ServiceType; label: string }[] = [
  { value: "saas", label: "Software as a service" },
  { value: "iaas", label: "Infrastructure as a service" },
  { value: "paas", label: "Platform as a service" },
  { value: "hosting", label: "Hosting" },
  { value: "data_processing", label: "Data processing" },
  { value: "payment", label: "Payment" },
  { value: "communication", label: "Communication" },
  { value: "security", label: "Security" },
  { value: "consulting", label: "Consulting" },
  { value: "support", label: "Support" },
  { value: "other", label: "Other" },
];

export const STATES: Record<Contract["state"], { label: string; color: string }> = {
  active: { label: "Active", color: "green" },
  notice_due: { label: "Notice due", color: "orange" },
  expired: { label: "Expired", color: "gray" },
};

/** Form is the form's state: every field as the inputs hold it. */
export interface Form {
  vendor_id: string;
  reference: string;
  start_date: string;
  end_date: string;
  auto_renew: boolean;
  notice_period_days: string;
  annual_value: string;
  currency: string;
  governing_law: string;
  dpa_signed: boolean;
  services: { name: string; type: ServiceType }[];
  supports_critical_function: boolean;
  lei: string;
}

export function emptyForm(): Form {
  return {
    vendor_id: "", reference: "", start_date: "", end_date: "", auto_renew: false, notice_period_days: "0", annual_value: "",
    currency: "", governing_law: "", dpa_signed: false, services: [], supports_critical_function: false, lei: "",
  };
}

export function formOf(c: Contract): Form {
  return {
    vendor_id: c.vendor_id, reference: c.reference, start_date: c.start_date, end_date: c.end_date, auto_renew: c.auto_renew,
    notice_period_days: String(c.notice_period_days), annual_value: c.annual_value == null ? "" : String(c.annual_value),
    currency: c.currency, governing_law: c.governing_law, dpa_signed: c.dpa_signed, services: c.services.map((s) => ({ ...s })),
    supports_critical_function: c.supports_critical_function, lei: c.lei,
  };
}

/**
 * bodyOf is what the form sends. Empty numbers are sent as they read (0
 * days, no value); a number that does not parse is sent as NaN's null so
 * that the server names the field. The annual value goes as a JSON number
 * (exact to 15 significant digits, as JavaScript numbers are).
 */
export function bodyOf(f: Form): Fields {
  const days = f.notice_period_days.trim() === "" ? 0 : Number(f.notice_period_days);
  const value = f.annual_value.trim() === "" ? null : Number(f.annual_value.replace(/[\s,]/g, ""));
  return {
    vendor_id: f.vendor_id, reference: f.reference, start_date: f.start_date, end_date: f.end_date, auto_renew: f.auto_renew,
    notice_period_days: Number.isFinite(days) ? days : -1, annual_value: value !== null && Number.isFinite(value) ? value : null,
    currency: f.currency, governing_law: f.governing_law, dpa_signed: f.dpa_signed, services: f.services,
    supports_critical_function: f.supports_critical_function, lei: f.lei,
  };
}
