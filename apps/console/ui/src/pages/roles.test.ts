import { describe, expect, it } from "vitest";
import { assignableRoles, canRemove } from "./roles";

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
