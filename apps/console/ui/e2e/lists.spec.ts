import { test, expect } from "@playwright/test";
import { audit, call, masterList, newAccount, signIn } from "./helpers";

const uniq = () => Math.random().toString(36).slice(2, 8);

test("two people add different vendors to one list without reloading: both are kept and the second is told of the first's", async ({ browser, request }) => {
  const alice = `alice-${uniq()}@acme.test`;
  const carol = `carol-${uniq()}@acme.test`;
  const a = await (await browser.newContext()).newPage();
  const c = await (await browser.newContext()).newPage();
  await signIn(a, alice, true);
  const acc = await newAccount(a, request, `Shared ${uniq()}`, [alice, carol]);
  const list = await masterList(a, request, acc);
  await signIn(c, carol);
  for (const p of [a, c]) {
    await p.goto(`/app/a/${acc}/lists/${list}`);
    await expect(p.getByTestId("shown-count")).toHaveText("0 of 0 vendors");
  }

  await a.getByLabel("Vendor name").fill("Alphawave");
  await a.getByRole("button", { name: "Add vendor" }).click();
  await expect(a.getByRole("link", { name: "Alphawave" })).toBeVisible();
  await expect(a.getByTestId("others-changes")).toHaveCount(0);

  // Carol's page was loaded before Alice's add and not read since.
  await expect(c.getByRole("link", { name: "Alphawave" })).toHaveCount(0);
  await c.getByLabel("Vendor name").fill("Betamax");
  await c.getByRole("button", { name: "Add vendor" }).click();
  await expect(c.getByRole("link", { name: "Betamax" })).toBeVisible();
  await expect(c.getByRole("link", { name: "Alphawave" })).toBeVisible();
  await expect(c.getByTestId("others-changes")).toContainText("1 vendor added by someone else: Alphawave");

  const held = await call(a, request, "GET", `/vendor-lists?account-id=${acc}&vendor-list-id=${list}`);
  expect(held.status).toBe(200);
  expect(held.body.vendors.map((v: { vendor_name: string }) => v.vendor_name)).toEqual(["Alphawave", "Betamax"]);

  // Adding a vendor that is on the list already says so, and changes nothing.
  await a.getByLabel("Vendor name").fill("betamax");
  await a.getByRole("button", { name: "Add vendor" }).click();
  await expect(a.getByTestId("already-on-list")).toContainText("Already on the list: Betamax");
  await expect(a.getByTestId("others-changes")).toContainText("1 vendor added by someone else: Betamax");

  // Carol removes Alphawave; Alice's removal of Betamax keeps nothing of hers undone.
  await c.getByRole("button", { name: "Remove Alphawave" }).click();
  await expect(c.getByRole("link", { name: "Alphawave" })).toHaveCount(0);
  await a.getByRole("button", { name: "Remove Betamax" }).click();
  await expect(a.getByRole("link", { name: "Betamax" })).toHaveCount(0);
  await expect(a.getByTestId("others-changes")).toContainText("1 vendor removed by someone else: Alphawave");
  await expect(a.getByTestId("shown-count")).toHaveText("0 of 0 vendors");

  // A vendor keeps the name it was given on the list, while the directory holds its canonical name.
  await a.getByLabel("Vendor name").fill("Cobalt Corp");
  await a.getByRole("button", { name: "Add vendor" }).click();
  await expect(a.getByRole("link", { name: "Cobalt Corp", exact: true })).toBeVisible();
  const cobalt = await call(a, request, "GET", `/vendor-lists?account-id=${acc}&vendor-list-id=${list}`);
  expect(cobalt.body.vendors.map((v: { vendor_name: string; display_name: string }) => [v.vendor_name, v.display_name])).toEqual([["Cobalt", "Cobalt Corp"]]);
});

test("a list over 50 vendors: named pagination buttons, long names wrap and badges are whole, no serious axe violation", async ({ page, request }) => {
  await signIn(page, `paged-${uniq()}@acme.test`);
  const list = await masterList(page, request, "individual");
  const long = `Averyveryverylongvendornamewithoutanyspaceswhatsoever${"x".repeat(60)} ${uniq()}`;
  const vendors = [long, ...Array.from({ length: 59 }, (_, i) => `Vendor ${String(i).padStart(2, "0")} ${uniq()}`)];
  expect((await call(page, request, "POST", `/vendor-lists?account-id=individual&operation=save-vendors&vendor-list-id=${list}`, { vendors })).status).toBe(200);
  const held = await call(page, request, "GET", `/vendor-lists?account-id=individual&vendor-list-id=${list}`);
  const longId = held.body.vendors.find((v: { vendor_name: string }) => v.vendor_name.startsWith("Averyvery")).vendor_id;
  const product = `A product with a rather long name that must not be cut ${"y".repeat(40)}`;
  expect((await call(page, request, "POST", `/vendor-lists/${list}/vendors/${longId}/products?account-id=individual`, { product_name: product })).status).toBe(201);

  await page.goto(`/app/a/individual/lists/${list}`);
  await expect(page.getByTestId("shown-count")).toHaveText("60 of 60 vendors");
  await expect(page.getByRole("button", { name: "Next page" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Previous page" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Page 2", exact: true })).toBeVisible();

  // Nothing of the long name or of the badges is hidden: no element scrolls its own text.
  const cut = await page.getByTestId("vendors-table").evaluate((table) =>
    [...table.querySelectorAll(".mantine-Badge-root, .mantine-Badge-label, a")]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent),
  );
  expect(cut).toEqual([]);
  const table = await page.getByTestId("vendors-table").boundingBox();
  expect(table!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  await audit(page, "list-paged");

  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page.getByRole("link", { name: /^Averyvery/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Vendor 58 / })).toBeVisible();
});
