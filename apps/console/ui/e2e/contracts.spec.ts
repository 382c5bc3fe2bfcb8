import { test, expect, type Locator, type Page, type APIRequestContext } from "@playwright/test";
import { audit, call, masterList, newAccount, signIn } from "./helpers";

// The Contracts page of an account: the list (vendor, reference, end date,
// notice deadline, state), the form that records and edits a contract with
// every field labelled, deletion with a confirmation; by mouse, by keyboard
// alone and at phone width, each audited by axe. The server's clock is the
// real one, so dates are counted from today.

const uniq = () => Math.random().toString(36).slice(2, 8);
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** seed makes an organization of me whose master list has one vendor; answers the account and the vendor's name. */
async function seed(page: Page, request: APIRequestContext, me: string) {
  const acc = await newAccount(page, request, `Contracts ${uniq()}`, [me]);
  const vendor = `Vorlando ${uniq()}`;
  const master = await masterList(page, request, acc);
  const r = await call(page, request, "POST", `/vendor-lists?account-id=${acc}&operation=save-vendors&vendor-list-id=${master}`, { vendors: [vendor] });
  expect(r.status).toBe(200);
  return { acc, vendor, vendorId: r.body.added[0].vendor_id as string };
}

/** focusByTab presses Tab until target has focus (at most n times). */
async function focusByTab(page: Page, target: Locator, n = 80) {
  for (let i = 0; i < n; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

test("contracts: record one with every field, see its notice deadline and state, a bad LEI named at its field, edit it, delete it after confirming", async ({ page, request }) => {
  const me = `contracts-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, vendor } = await seed(page, request, me);
  await page.goto(`/app/a/${acc}`);
  await page.getByRole("link", { name: "Contracts" }).click();
  await expect(page.getByRole("heading", { name: "Contracts", level: 2 })).toBeVisible();
  await expect(page.getByText("No contracts yet.")).toBeVisible();

  await page.getByLabel("Vendor").selectOption({ label: vendor });
  await page.getByLabel("Reference").fill("MSA-2026");
  await page.getByLabel("Start date").fill(day(-300));
  await page.getByLabel("End date").fill(day(100));
  await page.getByLabel("Notice period (days)").fill("30");
  await page.getByLabel("Annual value").fill("120000.55");
  await page.getByLabel("Currency").fill("EUR");
  await page.getByLabel("Governing law").fill("DE");
  await page.getByLabel("Provider LEI").fill("5493001KJTIIGC8Y1R13");
  await page.getByLabel("DPA signed").check();
  await page.getByLabel("Supports a critical or important function").check();
  await page.getByRole("button", { name: "Add a service" }).click();
  await page.getByLabel("Service 1 name").fill("Cloud hosting");
  await page.getByLabel("Service 1 type").selectOption("hosting");
  await page.getByRole("button", { name: "Record contract" }).click();
  await expect(page.getByText("check digits do not match (ISO 7064 MOD 97-10)")).toBeVisible();
  await audit(page, "contracts-invalid");

  await page.getByLabel("Provider LEI").fill("5493001KJTIIGC8Y1R12");
  await page.getByRole("button", { name: "Record contract" }).click();
  await expect(page.getByRole("status")).toContainText(`Recorded the contract with ${vendor}`);
  const row = page.getByTestId("contract");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(day(100));
  await expect(row).toContainText(day(70)); // notice deadline: 30 days before the end
  await expect(row).toContainText("Notice due"); // 70 days away: inside the 90 days
  await audit(page, "contracts");

  // What the API holds is what the form sent, the value exact.
  const held = await call(page, request, "GET", `/contracts?account-id=${acc}`);
  const c = held.body.contracts[0];
  expect([c.reference, c.annual_value, c.currency, c.governing_law, c.lei, c.dpa_signed, c.supports_critical_function, c.state])
    .toEqual(["MSA-2026", 120000.55, "EUR", "DE", "5493001KJTIIGC8Y1R12", true, true, "notice_due"]);
  expect(c.services).toEqual([{ name: "Cloud hosting", type: "hosting" }]);

  // Edit: the form is filled with the contract; a later end makes it active.
  await page.getByRole("button", { name: `Edit ${vendor} MSA-2026` }).click();
  await expect(page.getByRole("heading", { name: `Edit contract: ${vendor} MSA-2026` })).toBeVisible();
  await expect(page.getByLabel("Annual value")).toHaveValue("120000.55");
  await page.getByLabel("End date").fill(day(400));
  await page.getByRole("button", { name: "Save contract" }).click();
  await expect(page.getByRole("status")).toContainText("Saved the contract");
  await expect(row).toContainText("Active");
  await expect(row).toContainText(day(370));

  // Delete asks first; dismissed, nothing goes.
  page.once("dialog", (d) => d.dismiss());
  await page.getByRole("button", { name: `Delete ${vendor} MSA-2026` }).click();
  await expect(row).toHaveCount(1);
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: `Delete ${vendor} MSA-2026` }).click();
  await expect(page.getByText("No contracts yet.")).toBeVisible();
  expect((await call(page, request, "GET", `/contracts?account-id=${acc}`)).body.contracts).toHaveLength(0);
});

test("contracts by keyboard alone: record a contract", async ({ page, request }) => {
  const me = `contracts-keys-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, vendor } = await seed(page, request, me);
  await page.goto(`/app/a/${acc}/contracts`);
  await expect(page.getByText("No contracts yet.")).toBeVisible();

  await focusByTab(page, page.getByLabel("Vendor"));
  await page.keyboard.type(vendor.slice(0, 4)); // a closed native select picks by typing
  await expect(page.getByLabel("Vendor")).not.toHaveValue("");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Reference")).toBeFocused();
  await page.keyboard.type("Keys-1");
  await focusByTab(page, page.getByLabel("Start date"));
  await page.keyboard.type(day(-10));
  await focusByTab(page, page.getByLabel("End date"));
  await page.keyboard.type(day(500));
  await focusByTab(page, page.getByLabel("Renews automatically"));
  await page.keyboard.press("Space");
  await focusByTab(page, page.getByRole("button", { name: "Add a service" }));
  await page.keyboard.press("Enter");
  await focusByTab(page, page.getByLabel("Service 1 name"));
  await page.keyboard.type("Payroll");
  await focusByTab(page, page.getByRole("button", { name: "Record contract" }));
  await page.keyboard.press("Enter");
  const row = page.getByTestId("contract");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Keys-1");
  await expect(row).toContainText("Active");
  await expect(row).toContainText("renews");
  const held = await call(page, request, "GET", `/contracts?account-id=${acc}`);
  expect([held.body.contracts[0].auto_renew, held.body.contracts[0].services]).toEqual([true, [{ name: "Payroll", type: "saas" }]]);
});

test("contracts at phone width: the menu reaches the page, nothing runs off it; axe", async ({ page, request }) => {
  const me = `contracts-phone-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, vendorId } = await seed(page, request, me);
  expect((await call(page, request, "POST", `/contracts?account-id=${acc}`, {
    vendor_id: vendorId, reference: "Phone", start_date: day(-400), end_date: day(-1),
  })).status).toBe(201);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/app/a/${acc}`);
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("link", { name: "Contracts", exact: true }).click();
  await page.mouse.move(0, 0);
  await expect(page.getByTestId("contract")).toContainText("Expired");
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expect(page.getByLabel("Vendor")).toBeVisible();
  await audit(page, "contracts-phone");
});
