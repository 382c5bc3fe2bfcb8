import { describe, expect, it } from "vitest";
import { pageName, titleText } from "./page";

describe("page titles", () => {
  it("names every page by its route", () => {
    expect(["/a/x", "/a/x/lists", "/a/x/lists/l", "/a/x/lists/l/import", "/a/x/lists/l/subscribers", "/a/x/lists/l/vendors/v/assessment",
      "/a/x/vendors/v", "/a/x/members", "/a/x/reviews", "/a/x/webhooks/", "/a/x/incidents", "/admin", "/admin/possible", "/signin", "/nope"].map(pageName)).toEqual([
      "Dashboard", "Lists", "List", "CSV import", "Alert subscribers", "Review", "Vendor", "Members and roles", "Reviews due", "Webhooks",
      "Incidents", "Platform admin", "Possible matches", "Sign in", "Not found"]);
  });
  it("joins the page, the account and the product", () => {
    expect(titleText("Reviews due", "Acme")).toBe("Reviews due · Acme · Vetted");
    expect(titleText("Sign in")).toBe("Sign in · Vetted");
  });
});
