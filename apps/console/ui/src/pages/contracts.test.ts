import { describe, expect, it } from "vitest";
import { bodyOf, emptyForm, formOf, SERVICE_TYPES, STATES, type Contract } from "./contracts";

const c: Contract = {
  id: "c1", vendor_id: "v1", vendor_name: "Acme", reference: "MSA", start_date: "2026-01-01", end_date: "2026-12-31", auto_renew: true,
  notice_period_days: 30, annual_value: 1200.5, currency: "EUR", governing_law: "DE", dpa_signed: true,
  services: [{ name: "Hosting", type: "hosting" }], supports_critical_function: false, lei: "", notice_deadline: "2026-12-01",
  state: "active", created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z",
};

describe("contract form", () => {
  it("sends back what it was given", () => {
    const b = bodyOf(formOf(c));
    expect(b).toMatchObject({ vendor_id: "v1", notice_period_days: 30, annual_value: 1200.5, currency: "EUR", services: [{ name: "Hosting", type: "hosting" }] });
  });
  it("an empty value is none, an empty notice period 0", () => {
    const b = bodyOf({ ...emptyForm(), notice_period_days: "" });
    expect([b.annual_value, b.notice_period_days]).toEqual([null, 0]);
  });
  it("reads thousands separators", () => expect(bodyOf({ ...emptyForm(), annual_value: "120,000.55" }).annual_value).toBe(120000.55));
  it("a notice period that is not a number reaches the server as invalid", () => expect(bodyOf({ ...emptyForm(), notice_period_days: "ten" }).notice_period_days).toBe(-1));
  it("offers the eleven service types and three states of the API", () => {
    expect(SERVICE_TYPES).toHaveLength(11);
    expect(Object.keys(STATES)).toEqual(["active", "notice_due", "expired"]);
  });
});
