import { test, expect, type Page, type APIRequestContext } from "@playwright/test";
import { audit, call, masterList, newAccount, signIn } from "./helpers";

// The Attestations section of a vendor opened from an account: the
// directory's shared record beside the account's own, a SOC 2 report
// recorded with its file, an insurance certificate whose file is uploaded
// after the save, a delete with confirmation, a create by keyboard alone,
// and the section at phone width; axe on each.

const uniq = () => Math.random().toString(36).slice(2, 8);
const pdf = (text: string) => ({ name: "report.pdf", mimeType: "application/pdf", buffer: Buffer.from(`%PDF-1.4 ${text}`) });

/** seed makes an organization with one vendor on its master list and a directory attestation on it. */
async function seed(page: Page, request: APIRequestContext, me: string) {
  const acc = await newAccount(page, request, `Attest ${uniq()}`, [me]);
  const master = await masterList(page, request, acc);
  const name = `Trustwell ${uniq()}`;
  const saved = await call(page, request, "POST", `/vendor-lists?account-id=${acc}&operation=save-vendors&vendor-list-id=${master}`, { vendors: [name] });
  expect(saved.status).toBe(200);
  const vendor = saved.body.added[0].vendor_id as string;
  const dir = await call(page, request, "POST", `/directory/attestations?vendor-id=${vendor}`,
    { kind: "iso27001", certificate_number: "IS 777", issuer: "BSI", scope: "Cloud hosting", valid_until: "2030-06-30" });
  expect(dir.status).toBe(201);
  return { acc, vendor, name };
}

async function openSection(page: Page, acc: string, vendor: string, name: string) {
  await page.goto(`/app/a/${acc}/vendors/${vendor}`);
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  await page.getByRole("tab", { name: "Attestations" }).click();
  await expect(page.getByRole("heading", { name: "Attestations", level: 3 })).toBeVisible();
}

const rows = (page: Page) => page.getByTestId("attestation");

test("attestations: the directory's shown to the account, a SOC 2 report saved with its file, a file uploaded after the save, a delete", async ({ page, request }) => {
  const me = `attest-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, vendor, name } = await seed(page, request, me);
  page.on("dialog", (d) => d.accept());
  await openSection(page, acc, vendor, name);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("ISO 27001 certificate");
  await expect(rows(page).first()).toContainText("shared by the directory");
  await expect(rows(page).first()).toContainText("current");
  await expect(rows(page).first().getByRole("button", { name: /Delete/ })).toHaveCount(0);

  // A period ending before it starts is named at its field.
  await page.getByLabel("Report type").selectOption("2");
  await page.getByLabel("Period start").fill("2025-06-01");
  await page.getByLabel("Period end").fill("2025-05-31");
  await page.getByLabel("Auditor").fill("Audit & Co");
  await page.getByLabel("Opinion").selectOption("qualified");
  await page.getByRole("button", { name: "Save attestation" }).click();
  await expect(page.getByText("must not be before period_start")).toBeVisible();

  await page.getByLabel("Period end").fill("2026-05-31");
  await page.getByLabel("Subservice organizations carved out (one per line)").fill("AWS\nStripe");
  await page.locator("#attestation-file").setInputFiles(pdf("soc2"));
  await page.getByRole("button", { name: "Save attestation" }).click();
  await expect(page.getByText("SOC 2 report saved with its file.")).toBeVisible();
  const soc2 = rows(page).filter({ hasText: "SOC 2 report" });
  await expect(soc2).toContainText("2027-05-31");
  await expect(soc2.getByRole("button", { name: /Download the file of SOC 2 report/ })).toBeVisible();
  await audit(page, "attestations");

  const held = await call(page, request, "GET", `/attestations?account-id=${acc}&vendor-id=${vendor}`);
  const s = held.body.attestations.find((a: { kind: string }) => a.kind === "soc2");
  expect([s.report_type, s.period_end, s.valid_until, s.has_file, s.subservice_organizations]).toEqual([2, "2026-05-31", "2027-05-31", true, ["AWS", "Stripe"]]);

  // Saved without a file, then uploaded through the link the save answered.
  await page.getByLabel("Kind").selectOption("insurance");
  await page.getByRole("textbox", { name: "Valid until" }).fill("2020-01-31");
  await page.getByRole("button", { name: "Save attestation" }).click();
  await expect(page.getByText("Insurance certificate saved. Upload its file below.")).toBeVisible();
  const ins = rows(page).filter({ hasText: "Insurance certificate" });
  await expect(ins).toContainText("expired");
  await expect(ins).toContainText("none yet");
  await page.locator("#attestation-upload").setInputFiles(pdf("policy"));
  await expect(page.getByText("File of the Insurance certificate uploaded.")).toBeVisible();
  await expect(ins.getByRole("button", { name: /Download/ })).toBeVisible();

  await ins.getByRole("button", { name: "Delete Insurance certificate valid until 2020-01-31" }).click();
  await expect(rows(page)).toHaveCount(2);
  expect((await call(page, request, "GET", `/attestations?account-id=${acc}&vendor-id=${vendor}`)).body.attestations).toHaveLength(2);
});

test("attestations by keyboard alone: choose a kind, fill it, save", async ({ page, request }) => {
  const me = `attest-keys-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, vendor, name } = await seed(page, request, me);
  await openSection(page, acc, vendor, name);
  await page.getByLabel("Kind").focus();
  await page.keyboard.press("End"); // the last kind: Other document
  await expect(page.getByLabel("Kind")).toHaveValue("other");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: "Valid until" })).toBeFocused();
  await page.keyboard.type("12312031");
  // Past the date's segments and the file input to the save button.
  const save = page.getByRole("button", { name: "Save attestation" });
  for (let i = 0; i < 8 && !(await save.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(save).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Other document saved. Upload its file below.")).toBeVisible();
  await expect(rows(page).filter({ hasText: "Other document" })).toContainText("2031-12-31");
});

test("attestations at phone width: nothing runs off the page; axe", async ({ page, request }) => {
  const me = `attest-phone-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, vendor, name } = await seed(page, request, me);
  await page.setViewportSize({ width: 390, height: 844 });
  await openSection(page, acc, vendor, name);
  await expect(rows(page)).toHaveCount(1);
  await page.getByLabel("Kind").selectOption("pentest");
  await page.getByLabel("Performed on").fill("2024-02-29");
  await page.getByLabel("Firm").fill("Pen Ltd");
  await page.getByLabel("Open high findings").fill("2");
  await page.getByRole("button", { name: "Save attestation" }).click();
  await expect(rows(page).filter({ hasText: "Penetration test" })).toContainText("2025-02-28");
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await audit(page, "attestations-phone");
});
