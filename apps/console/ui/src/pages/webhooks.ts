// What the webhooks page offers: admins and owners of an organization (and
// the owner of a personal space) manage endpoints; everyone else reads the
// list and the delivery log. The server enforces the same rule.
import type { Schemas } from "../api/client";

export function canManageWebhooks(acc: string, role: Schemas["Role"] | undefined): boolean {
  return acc === "individual" || role === "owner" || role === "admin";
}

/** The event types an endpoint may ask for, with what each means. */
export const EVENT_TYPES = [
  { value: "incident.created", label: "Incident recorded" },
  { value: "vendor.rating_changed", label: "Rating changed" },
  { value: "assessment.status_changed", label: "Assessment status changed" },
  { value: "review.due_soon", label: "Review due soon" },
  { value: "review.overdue", label: "Review overdue" },
  { value: "list.vendors_changed", label: "Vendors added or removed" },
] as const;
