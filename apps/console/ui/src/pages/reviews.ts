// Display helpers of the review lifecycle. The rule itself (due dates and
// states) lives in the server; the page only shows what it answers.
import type { Schemas } from "../api/client";

export const TIERS: { value: Schemas["Tier"]; label: string }[] = [
  { value: "critical", label: "critical" },
  { value: "high", label: "high" },
  { value: "medium", label: "medium" },
  { value: "low", label: "low" },
  { value: "", label: "not tiered" },
];

export const STATE_LABEL: Record<Schemas["ReviewState"], string> = {
  never_reviewed: "never reviewed",
  current: "current",
  due_soon: "due soon",
  overdue: "overdue",
};

/** grade is the letter of a 0-100 rating (A >= 90, B >= 80, C >= 70, D >= 60, F). */
export function grade(rating: number | null | undefined): string {
  if (rating === null || rating === undefined) return "";
  if (rating >= 90) return "A";
  if (rating >= 80) return "B";
  if (rating >= 70) return "C";
  if (rating >= 60) return "D";
  return "F";
}

/** day shows a time as its UTC date (due dates are days). */
export function day(t: string | null | undefined): string {
  return t ? t.slice(0, 10) : "";
}
