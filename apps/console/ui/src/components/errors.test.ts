import { describe, expect, it } from "vitest";
import { inside, lastError, locationLabel } from "./errors";

describe("locationLabel", () => {
  it("names a location by the page's label, with the item's number from 1", () => {
    expect(locationLabel("body.vendors[5].vendor_name", { "body.vendors[].vendor_name": "Vendor name" })).toBe("Vendor name (vendor 6)");
  });
  it("makes a location without a label readable, never the wire path", () => {
    expect(locationLabel("body.vendors[5].vendor_name")).toBe("Vendor name (vendor 6)");
    expect(locationLabel("body.subscriber-email")).toBe("Subscriber email");
    expect(locationLabel("query.vendor-list")).toBe("Vendor list");
  });
  it("names an index of the field itself as its item", () => {
    expect(locationLabel("body.reminder_offsets_days[1]", { "body.reminder_offsets_days[]": "Reminder offsets" })).toBe("Reminder offsets (item 2)");
    expect(locationLabel("body.reminder_offsets_days", { "body.reminder_offsets_days": "Reminder offsets" })).toBe("Reminder offsets");
  });
  it("is empty without a location", () => expect(locationLabel(undefined)).toBe(""));
});

describe("inside", () => {
  it("matches the field, its items and its members, not a longer name", () => {
    expect(inside("body.users[0].role", ["body.users[0]"])).toBe(true);
    expect(inside("body.reminder_offsets_days[1]", ["body.reminder_offsets_days"])).toBe(true);
    expect(inside("body.url_extra", ["body.url"])).toBe(false);
    expect(inside(undefined, ["body.url"])).toBe(false);
  });
});

describe("lastError", () => {
  const failed = (at: number) => ({ error: new Error(`failed at ${at}`), status: "error", submittedAt: at });
  const ok = (at: number) => ({ error: null, status: "success", submittedAt: at });
  it("is the error of the action tried last", () => expect(lastError(ok(1), failed(2))).toEqual(new Error("failed at 2")));
  it("clears when a later action succeeds", () => expect(lastError(failed(1), ok(2))).toBeNull());
  it("is none before any action", () => expect(lastError({ error: null, submittedAt: 0 }, { error: null })).toBeNull());
});
