import { describe, expect, it } from "vitest";
import { assignableRoles, canManage, canRemove, canWrite } from "./roles";

describe("roles offered", () => {
  it("an owner is offered every role", () => expect(assignableRoles("owner")).toEqual(["owner", "admin", "member", "viewer"]));
  it("an admin is never offered owner", () => expect(assignableRoles("admin")).not.toContain("owner"));
  it("an admin cannot re-role an owner", () => expect(assignableRoles("admin", "owner")).toEqual([]));
  it("members and viewers manage nobody", () => {
    expect(assignableRoles("member")).toEqual([]);
    expect(assignableRoles("viewer")).toEqual([]);
  });
  it("the last owner cannot be removed, a second one can", () => {
    expect(canRemove("owner", "owner", 1)).toBe(false);
    expect(canRemove("owner", "owner", 2)).toBe(true);
    expect(canRemove("admin", "owner", 2)).toBe(false);
    expect(canRemove("admin", "member", 1)).toBe(true);
    expect(canRemove("member", "viewer", 1)).toBe(false);
  });
});

describe("write controls offered", () => {
  it("a viewer writes nothing; members and above write; the personal space is its owner's", () => {
    expect(canWrite("acc", "viewer")).toBe(false);
    expect(canWrite("acc", undefined)).toBe(false);
    expect(["member", "admin", "owner"].map((r) => canWrite("acc", r as "member"))).toEqual([true, true, true]);
    expect(canWrite("individual", undefined)).toBe(true);
  });
  it("account settings are for admins and owners", () => {
    expect(canManage("acc", "member")).toBe(false);
    expect(canManage("acc", "viewer")).toBe(false);
    expect(canManage("acc", "admin")).toBe(true);
    expect(canManage("individual", undefined)).toBe(true);
  });
});
