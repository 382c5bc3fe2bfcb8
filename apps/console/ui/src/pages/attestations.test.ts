import { describe, expect, it } from "vitest";
import { attestationBody, FIELDS, KINDS, stateColor, summary } from "./attestations";

describe("attestation form", () => {
  it("offers the five kinds of the API", () => expect(KINDS.map((k) => k.value)).toEqual(["soc2", "iso27001", "pentest", "insurance", "other"]));
  it("sends only the kind's fields, numbers as numbers and lists by line", () => {
    const body = attestationBody("soc2", {
      report_type: "2", period_start: "2025-01-01", period_end: "2025-12-31", auditor: " Audit & Co ", opinion: "qualified",
      exceptions: "", subservice_organizations: "AWS\n\n Stripe ", valid_until: "2027-01-01",
    });
    expect(body).toEqual({ kind: "soc2", report_type: 2, period_start: "2025-01-01", period_end: "2025-12-31", auditor: "Audit & Co",
      opinion: "qualified", subservice_organizations: ["AWS", "Stripe"] });
  });
  it("leaves an empty required field out, for the API to name", () => expect(attestationBody("insurance", { valid_until: "" })).toEqual({ kind: "insurance" }));
  it("takes the file's type when the store accepts it", () => {
    expect(attestationBody("other", { valid_until: "2026-01-01" }, "image/png").content_type).toBe("image/png");
    expect(attestationBody("other", { valid_until: "2026-01-01" }, "text/html").content_type).toBeUndefined();
  });
  it("pen test counts are numbers", () => expect(attestationBody("pentest", { performed_on: "2025-01-01", firm: "X", open_high: "3" }).open_high).toBe(3));
  it("every kind has a date the validity hangs on", () => {
    for (const k of KINDS) expect(FIELDS[k.value].some((f) => f.type === "date" && f.required)).toBe(true);
  });
  it("colors states", () => expect([stateColor("current"), stateColor("expiring"), stateColor("expired")]).toEqual(["green", "yellow", "red"]));
  it("summarises a pen test", () =>
    expect(summary({ kind: "pentest", firm: "Pen Ltd", performed_on: "2025-01-01", open_critical: 0, open_high: 2 } as never)).toBe("Pen Ltd, 2025-01-01: 0 critical, 2 high open"));
});
