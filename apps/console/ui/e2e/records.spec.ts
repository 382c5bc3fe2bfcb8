import { test, expect, type Page, type APIRequestContext } from "@playwright/test";
import { audit, call, masterList, newAccount, signIn, tabTo } from "./helpers";

// The Record tab of the vendor page opened from an account: the business
// owner among the members, contacts (rows added and removed, each field
// labelled), links, and notes with the hint that an @email mention mails a
// member. The mention mail itself is checked in the Go API test
// (TestVendorRecords): this run's server has no mail capture.

const uniq = () => Math.random().toString(36).slice(2, 8);

/** seed makes an organization of me (owner) and erin, with one vendor on master-list; answers both ids. */
async function seed(page: Page, request: APIRequestContext, me: string, erin: string) {
  const acc = await newAccount(page, request, `Records ${uniq()}`, [me, erin]);
  const master = await masterList(page, request, acc);
  const name = `Norvalis ${uniq()}`;
  expect((await call(page, request, "POST", `/vendor-lists?account-id=${acc}&operation=save-vendors&vendor-list-id=${master}`, { vendors: [name] })).status).toBe(200);
  const list = await call(page, request, "GET", `/vendor-lists?account-id=${acc}&vendor-list-id=${master}`);
  const vendor = list.body.vendors[0].vendor_id as string;
  return { acc, vendor, name };
}

test("vendor record: owner among the members, contacts added and removed, links, notes with the mention hint; errors at their fields; axe", async ({ page, request }) => {
  const me = `records-${uniq()}@acme.test`;
  const erin = `erin-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, vendor, name } = await seed(page, request, me, erin);
  await page.goto(`/app/a/${acc}/vendors/${vendor}`);
  await page.getByRole("tab", { name: "Record" }).click();
  await expect(page.getByText("Not edited yet.", { exact: false })).toBeVisible();
  await expect(page.getByText("No contacts yet.")).toBeVisible();
  await expect(page.getByText("No notes yet.")).toBeVisible();

  await page.getByRole("combobox", { name: "Business owner" }).click();
  await page.getByRole("option", { name: erin, exact: true }).click();
  await page.getByRole("button", { name: "Add contact" }).click();
  await page.getByLabel("Contact 1 name").fill("Sam Lee");
  await page.getByLabel("Contact 1 e-mail").fill("sam@norvalis.example");
  await page.getByRole("combobox", { name: "Contact 1 role" }).click();
  await page.getByRole("option", { name: "Legal", exact: true }).click();
  await page.getByRole("button", { name: "Add contact" }).click();
  await page.getByLabel("Contact 2 name").fill("Pat");
  await page.getByLabel("Contact 2 e-mail").fill("pat@norvalis");
  await page.getByLabel("Trust page").fill("ftp://trust.norvalis.example");
  await page.getByRole("button", { name: "Save record" }).click();
  // Each refusal is shown at its field.
  await expect(page.getByText(/its domain needs a dot/)).toBeVisible();
  await expect(page.getByText("must be an http or https URL (https://vendor.example/page) or empty")).toBeVisible();
  await audit(page, "vendor-record-errors");

  await page.getByLabel("Contact 2 e-mail").fill("pat@norvalis.example");
  await page.getByLabel("Trust page").fill("https://trust.norvalis.example");
  await page.getByLabel("Data processing agreement (DPA)").fill("https://norvalis.example/dpa");
  await page.getByRole("button", { name: "Save record" }).click();
  await expect(page.getByText("Record saved.")).toBeVisible();
  await expect(page.getByText(new RegExp(`Last changed .* by ${me}`))).toBeVisible();

  let held = await call(page, request, "GET", `/vendor-records?account-id=${acc}&vendor-id=${vendor}`);
  expect(held.status).toBe(200);
  expect(held.body.business_owner).toBe(erin);
  expect(held.body.contacts).toEqual([
    { name: "Sam Lee", email: "sam@norvalis.example", role: "legal" },
    { name: "Pat", email: "pat@norvalis.example", role: "security" },
  ]);
  expect(held.body.links).toEqual({ trust_page: "https://trust.norvalis.example", dpa: "https://norvalis.example/dpa", terms: "", sla: "" });

  // A note: the hint says who a mention mails (a member, not the author).
  await page.getByLabel("New note").fill(`Renewal call with @${erin} next week. cc @${me}`);
  await expect(page.getByText(`Will mail: ${erin}`)).toBeVisible();
  await page.getByRole("button", { name: "Add note" }).click();
  const notes = page.getByRole("list", { name: "Notes" });
  await expect(notes).toContainText(`Renewal call with @${erin} next week.`);
  await expect(notes).toContainText(me);
  await expect(page.getByLabel("New note")).toHaveValue("");
  await audit(page, "vendor-record");

  // Removing a row and saving drops the contact.
  await page.getByRole("button", { name: "Remove contact 1" }).click();
  await page.getByRole("button", { name: "Save record" }).click();
  await expect(page.getByText("Record saved.")).toBeVisible();
  held = await call(page, request, "GET", `/vendor-records?account-id=${acc}&vendor-id=${vendor}`);
  expect(held.body.contacts.map((c: { name: string }) => c.name)).toEqual(["Pat"]);
  expect(held.body.notes).toHaveLength(1);
  expect(held.body.notes[0].author).toBe(me);
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
});

test("vendor record by keyboard only: owner, a contact, a link and a note", async ({ page, request }) => {
  const me = `records-kb-${uniq()}@acme.test`;
  const erin = `erin-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, vendor } = await seed(page, request, me, erin);
  await page.goto(`/app/a/${acc}/vendors/${vendor}?tab=record`);
  await expect(page.getByText("Not edited yet.", { exact: false })).toBeVisible();

  await tabTo(page, "Business owner");
  await page.keyboard.type(erin.slice(0, 8));
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await tabTo(page, "Add contact");
  await page.keyboard.press("Enter");
  await tabTo(page, "Contact 1 name");
  await page.keyboard.type("Kim");
  await page.keyboard.press("Tab");
  await page.keyboard.type("kim@norvalis.example");
  await tabTo(page, "Terms");
  await page.keyboard.type("https://norvalis.example/terms");
  await tabTo(page, "Save record");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Record saved.")).toBeVisible();
  await tabTo(page, "New note");
  await page.keyboard.type("Checked by keyboard.");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("list", { name: "Notes" })).toContainText("Checked by keyboard.");

  const held = await call(page, request, "GET", `/vendor-records?account-id=${acc}&vendor-id=${vendor}`);
  expect(held.body.business_owner).toBe(erin);
  expect(held.body.contacts).toEqual([{ name: "Kim", email: "kim@norvalis.example", role: "security" }]);
  expect(held.body.links.terms).toBe("https://norvalis.example/terms");
  expect(held.body.notes.map((n: { text: string }) => n.text)).toEqual(["Checked by keyboard."]);
});

test("vendor record at phone width: every field reachable, nothing runs off the page; axe", async ({ page, request }) => {
  const me = `records-phone-${uniq()}@acme.test`;
  const erin = `erin-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, vendor } = await seed(page, request, me, erin);
  expect((await call(page, request, "PATCH", `/vendor-records?account-id=${acc}&vendor-id=${vendor}`, {
    contacts: [{ name: "Sam Lee", email: "sam.lee.with.a.long.address@norvalis.example", role: "privacy" }],
    links: { sla: "https://norvalis.example/a/rather/long/path/to/the/service-level-agreement" },
  })).status).toBe(200);
  expect((await call(page, request, "POST", `/vendor-records/notes?account-id=${acc}&vendor-id=${vendor}`, { text: "A long note ".repeat(40) })).status).toBe(201);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/app/a/${acc}/vendors/${vendor}?tab=record`);
  await expect(page.getByLabel("Contact 1 e-mail")).toHaveValue("sam.lee.with.a.long.address@norvalis.example");
  await expect(page.getByRole("button", { name: "Remove contact 1" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add note" })).toBeAttached();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await audit(page, "vendor-record-phone");
});
