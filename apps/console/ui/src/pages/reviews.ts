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

/** The tiers of a review policy's cadence, as the API names them. */
export const CADENCE_TIERS = ["critical", "high", "medium", "low", "not_tiered"] as const;
export const MAX_CADENCE_MONTHS = 120;

/**
 * cadenceErrors checks the months between reviews before they are sent: a
 * cleared field is refused (it is never sent as 0 or clamped to 1), as is a
 * value outside 1..120 or not whole. Keyed by tier.
 */
export function cadenceErrors(cadence: Record<string, number | string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of CADENCE_TIERS) {
    const v = cadence[k];
    if (v === undefined || v === "" || (typeof v === "string" && v.trim() === "")) out[k] = "Enter the months between reviews (1 to 120)";
    else if (!Number.isInteger(Number(v)) || Number(v) < 1 || Number(v) > MAX_CADENCE_MONTHS) out[k] = "Must be whole months from 1 to 120";
  }
  return out;
}

/** The share of the scan's checks that must have run for a grade to be shown. */
export const MIN_GRADED_SHARE = 0.5;

/**
 * gradeCoverage says how a grade is shown with the checks behind it: a
 * grade made from fewer than MIN_GRADED_SHARE of the checks is not shown
 * ("not graded").
 */
export function gradeCoverage(grade: string | undefined, run: number | undefined, total: number | undefined): { grade: string; note: string } {
  if (!grade || run === undefined || !total) return { grade: "", note: grade ? "" : "not graded" };
  const need = Math.ceil(total * MIN_GRADED_SHARE);
  if (run < need) return { grade: "", note: `not graded: only ${run} of ${total} checks ran, a grade needs ${need}` };
  return { grade, note: `graded on ${run} of ${total} checks` };
}

/**
 * scanGrade is how the grade of one recorded scan reads (the rating
 * history, the dashboard's rating changes): "B, graded on 20 of 26 checks",
 * no grade below MIN_GRADED_SHARE (as gradeCoverage), and "B, coverage not
 * recorded" for a scan kept before its coverage was (checks_run null).
 */
export function scanGrade(grade: string, run: number | null | undefined, total: number | null | undefined): string {
  if (run == null || total == null) return grade ? `${grade}, coverage not recorded` : "not graded";
  const g = gradeCoverage(grade, run, total);
  return g.grade ? `${g.grade}, ${g.note}` : g.note;
}
