import { describe, expect, it } from "vitest";
import { confidenceText, evidenceText, incidentsQuery, PAGE_SIZE, ruleLabel, safeURL, sourceLabel, sourcesText } from "./incidents";

describe("incident evidence", () => {
  it("says what each rule means, and keeps an unknown one readable", () => {
    expect(ruleLabel("kev_vendor_project")).toBe("KEV vendor is this vendor");
    expect(ruleLabel("some_new_rule")).toBe("some new rule");
  });
  it("writes confidence as a bounded percentage", () => {
    expect(confidenceText(0.95)).toBe("95%");
    expect(confidenceText(1.2)).toBe("100%");
    expect(confidenceText(-1)).toBe("0%");
  });
  it("puts rule, matched text and confidence in one line, and nothing without a match", () => {
    expect(evidenceText({ rule: "breach_domain", matched_text: 'domain "acme.com"', confidence: 0.9 }))
      .toBe('breached domain is this vendor\'s: domain "acme.com" (confidence 90%)');
    expect(evidenceText(null)).toBe("");
    expect(evidenceText(undefined)).toBe("");
  });
  it("names sources and counts them", () => {
    expect(sourceLabel("kev")).toBe("CISA KEV");
    expect(sourceLabel("status_page")).toBe("status page");
    expect(sourcesText(1)).toBe("1 source");
    expect(sourcesText(3)).toBe("3 sources");
  });
});

describe("incidents query", () => {
  it("asks for a page of the account, with only the filters set", () => {
    expect(incidentsQuery("a1", { sources: [], severities: [], list: null })).toEqual({ "account-id": "a1", limit: PAGE_SIZE });
    expect(incidentsQuery("a1", { sources: ["kev", "news"], severities: ["high"], list: "l1" }, "c1")).toEqual({
      "account-id": "a1", limit: PAGE_SIZE, source: ["kev", "news"], severity: ["high"], "vendor-list-id": "l1", cursor: "c1",
    });
  });
});

describe("source links", () => {
  it("keeps http and https links only", () => {
    expect(safeURL("https://example.com/a")).toBe("https://example.com/a");
    expect(safeURL("javascript:alert(1)")).toBeUndefined();
    expect(safeURL("not a url")).toBeUndefined();
  });
});
