import { describe, expect, it } from "vitest";
import { cadenceErrors, day, grade, gradeCoverage, scanGrade } from "./reviews";

describe("grade", () => {
  it("follows the score bands at their edges", () => {
    expect([100, 90, 89, 80, 79, 70, 69, 60, 59, 0].map(grade)).toEqual(["A", "A", "B", "B", "C", "C", "D", "D", "F", "F"]);
  });
  it("is empty without a rating", () => {
    expect(grade(null)).toBe("");
    expect(grade(undefined)).toBe("");
  });
});

describe("day", () => {
  it("is the UTC date of a time", () => expect(day("2027-02-28T23:59:59Z")).toBe("2027-02-28"));
  it("is empty for none", () => expect(day(null)).toBe(""));
});

describe("cadenceErrors", () => {
  const full = { critical: 6, high: 12, medium: 24, low: 36, not_tiered: 12 };
  it("passes a full policy", () => expect(cadenceErrors(full)).toEqual({}));
  it("refuses a cleared field instead of sending 0 or 1", () => {
    expect(Object.keys(cadenceErrors({ ...full, critical: "" }))).toEqual(["critical"]);
    expect(Object.keys(cadenceErrors({ ...full, high: undefined }))).toEqual(["high"]);
  });
  it("refuses values outside 1..120 and fractions", () => {
    expect(Object.keys(cadenceErrors({ ...full, low: 0, medium: 121, high: 1.5 })).sort()).toEqual(["high", "low", "medium"]);
  });
});

describe("gradeCoverage", () => {
  it("shows a grade with the checks behind it", () => expect(gradeCoverage("B", 20, 26)).toEqual({ grade: "B", note: "graded on 20 of 26 checks" }));
  it("shows no grade made from fewer than half the checks", () => {
    expect(gradeCoverage("A", 1, 27)).toEqual({ grade: "", note: "not graded: only 1 of 27 checks ran, a grade needs 14" });
    expect(gradeCoverage("A", 13, 26).grade).toBe("A");
    expect(gradeCoverage("A", 12, 26).grade).toBe("");
  });
  it("says not graded without a grade", () => expect(gradeCoverage("", 0, 26)).toEqual({ grade: "", note: "not graded" }));
});

describe("scanGrade", () => {
  it("shows a scan's grade with its coverage", () => expect(scanGrade("B", 20, 26)).toBe("B, graded on 20 of 26 checks"));
  it("shows no grade made from fewer than half the checks", () =>
    expect(scanGrade("A", 1, 27)).toBe("not graded: only 1 of 27 checks ran, a grade needs 14"));
  it("says when the coverage was not recorded", () => {
    expect(scanGrade("C", null, null)).toBe("C, coverage not recorded");
    expect(scanGrade("", null, null)).toBe("not graded");
  });
  it("says not graded without a grade", () => expect(scanGrade("", 26, 26)).toBe("not graded"));
});
