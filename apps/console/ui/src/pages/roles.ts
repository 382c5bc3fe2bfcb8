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

/**
 * canWrite: what the page offers to change in an account (lists, vendors,
 * reviews, evidence, subscribers, imports): members and above, and the
 * owner of the personal space; a viewer reads only. core/access holds the
 * rule (viewer reads, member or above writes).
 */
export function canWrite(acc: string, mine: Role | undefined): boolean {
  return acc === "individual" || mine === "owner" || mine === "admin" || mine === "member";
}

/** canManage: account settings (the review policy): admins and owners, and the owner of the personal space. */
export function canManage(acc: string, mine: Role | undefined): boolean {
  return acc === "individual" || mine === "owner" || mine === "admin";
}
