import { describe, expect, it } from "vitest";
import { contactsToSend, CONTACT_ROLES, LINKS, mentioned } from "./vendorRecord";

describe("vendor record form", () => {
  it("offers the four contact roles and links of the API", () => {
    expect(CONTACT_ROLES.map((r) => r.value)).toEqual(["security", "privacy", "account", "legal"]);
    expect(LINKS.map((l) => l.key)).toEqual(["trust_page", "dpa", "terms", "sla"]);
  });
  it("drops blank contact rows, keeps half-filled ones for the server to name", () => {
    expect(contactsToSend([
      { name: " ", email: "", role: "security" },
      { name: "Sam", email: "", role: "legal" },
      { name: "", email: "a@b.example", role: "privacy" },
    ])).toEqual([{ name: "Sam", email: "", role: "legal" }, { name: "", email: "a@b.example", role: "privacy" }]);
  });
  it("previews the members a note mails: once each, not the author, not strangers", () => {
    const members = ["ann@acme.example", "Erin@acme.example", "bo@acme.example"];
    expect(mentioned("ask @erin@ACME.example and @erin@acme.example.", members, "ann@acme.example")).toEqual(["erin@acme.example"]);
    expect(mentioned("@ann@acme.example @eve@else.example", members, "ann@acme.example")).toEqual([]);
    expect(mentioned("(@bo@acme.example), mail erin@acme.example", members, "ann@acme.example")).toEqual(["bo@acme.example"]);
  });
});
