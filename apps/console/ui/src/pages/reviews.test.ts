import { describe, expect, it } from "vitest";
import { day, grade } from "./reviews";

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
