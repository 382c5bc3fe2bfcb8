import { describe, expect, it } from "vitest";
import { canManageWebhooks, EVENT_TYPES } from "./webhooks";

describe("webhooks offered", () => {
  it("admins and owners manage, members and viewers read", () => {
    expect(canManageWebhooks("a1", "owner")).toBe(true);
    expect(canManageWebhooks("a1", "admin")).toBe(true);
    expect(canManageWebhooks("a1", "member")).toBe(false);
    expect(canManageWebhooks("a1", "viewer")).toBe(false);
    expect(canManageWebhooks("a1", undefined)).toBe(false);
  });
  it("the personal space's owner manages its webhooks", () => expect(canManageWebhooks("individual", undefined)).toBe(true));
  it("offers the six event types of the API", () => expect(EVENT_TYPES.map((t) => t.value)).toHaveLength(6));
});
