// What the members page offers before the click, from spec 4.2: an owner
// may assign any role, an admin any role but owner (and may not touch an
// owner), members and viewers manage nobody, and the last owner can be
// neither demoted nor removed. The server enforces the same rules; this
// only keeps the page from offering what would be refused.
import type { Schemas } from "../api/client";

type Role = Schemas["Role"];
const ALL: Role[] = ["owner", "admin", "member", "viewer"];

export function assignableRoles(mine: Role | undefined, theirs?: Role): Role[] {
  if (mine === "owner") return ALL;
  if (mine === "admin") return theirs === "owner" ? [] : ALL.filter((r) => r !== "owner");
  return [];
}

export function canRemove(mine: Role | undefined, theirs: Role, owners: number): boolean {
  if (theirs === "owner" && owners <= 1) return false;
  if (mine === "owner") return true;
  return mine === "admin" && theirs !== "owner";
}
