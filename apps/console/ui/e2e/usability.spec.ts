import { test, expect, type Page, type APIRequestContext } from "@playwright/test";
import { audit, call, masterList, newAccount, signIn, token } from "./helpers";

// The rough edges a reviewer hit in the first week (issue 31): the
// keyboard, focus and titles, what a viewer is offered, unsaved edits, the
// account a vendor is opened in, errors named by their labels, a grade with
// its coverage, the import's dry run and resume, and a second tab.

const uniq = () => Math.random().toString(36).slice(2, 8);

/** review saves a vendor on the account's master list with a started review; answers the list and the vendor's id. */
async function review(page: Page, request: APIRequestContext, acc: string, vendor: string) {
  const list = await masterList(page, request, acc);
  expect((await call(page, request, "POST", `/vendor-lists?account-id=${acc}&operation=save-vendors&vendor-list-id=${list}`, { vendors: [vendor] })).status).toBe(200);
  const held = await call(page, request, "GET", `/vendor-lists?account-id=${acc}&vendor-list-id=${list}`);
  const id = held.body.vendors.find((v: { vendor_name: string }) => v.vendor_name === vendor).vendor_id as string;
  const put = await call(page, request, "PUT", `/vendor-assessments?account-id=${acc}&vendor-list-id=${list}`,
    { vendor_id: id, compliance_approval_status: "in-progress", use_case: "Payroll" });
  expect(put.status).toBeLessThan(300);
  return { list, id };
}

/** tabTo presses Tab until the locator has focus (at most n times). */
async function tabTo(page: Page, name: string, n = 40) {
  for (let i = 0; i < n; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((want) => (document.activeElement as HTMLElement | null)?.innerText?.trim() === want, name)) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

const focusedHeading = (page: Page) => page.evaluate(() => {
  const el = document.activeElement;
  return el && /^H[12]$/.test(el.tagName) ? (el as HTMLElement).innerText : null;
});

test("keyboard alone: the skip link is the first stop and lands in main; Tab and Enter reach the evidence upload; the history shows the upload and the removal", async ({ page, request }) => {
  // File chooser interception on from the start: switched on only when the Enter below is pressed, it may come too late.
  page.on("filechooser", () => {});
  await signIn(page, `keys-${uniq()}@acme.test`);
  const vendor = `Tyrell ${uniq()}`;
  const { list, id } = await review(page, request, "individual", vendor);
  await page.goto(`/app/a/individual/lists/${list}/vendors/${id}/assessment`);
  await expect(page.getByRole("heading", { name: `Review of ${vendor}` })).toBeVisible();

  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("MAIN");

  await tabTo(page, "Choose a file to upload");
  const chooser = page.waitForEvent("filechooser");
  await page.keyboard.press("Enter");
  await (await chooser).setFiles({ name: "pentest.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 pentest") });
  await expect(page.getByText(/pentest\.pdf.*uploaded/)).toBeVisible();
  // The history is read again after the upload: no reload needed.
  const history = page.getByTestId("audit-log");
  await expect(history.getByText(/pentest\.pdf/)).toHaveCount(1);
  await audit(page, "assessment-keyboard");

  await tabTo(page, "Delete");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Delete pentest.pdf" })).toHaveCount(0);
  await expect(history.getByText(/pentest\.pdf/)).toHaveCount(2);
});

test("the review's history pages are named buttons (axe: button-name)", async ({ page, request }) => {
  await signIn(page, `history-${uniq()}@acme.test`);
  const vendor = `Pages ${uniq()}`;
  const { list, id } = await review(page, request, "individual", vendor);
  for (let i = 0; i < 11; i++) {
    const put = await call(page, request, "PUT", `/vendor-assessments?account-id=individual&vendor-list-id=${list}`, { vendor_id: id, use_case: `Use ${i}` });
    expect(put.status).toBeLessThan(300);
  }
  await page.goto(`/app/a/individual/lists/${list}/vendors/${id}/assessment`);
  await expect(page.getByRole("button", { name: "History page 2" })).toBeVisible();
  await audit(page, "assessment-history-pages");
  await page.getByRole("button", { name: "Next page of the history" }).click();
  await expect(page.getByRole("button", { name: "History page 2" })).toHaveAttribute("aria-current", "page");
});

test("focus and titles: the sign-in page has a main landmark and a title; a navigation and a save focus the page's heading; each tab title names the page and the account", async ({ page, request }) => {
  await page.goto("/app/signin");
  await expect(page).toHaveTitle("Sign in · Vetted");
  await expect(page.getByRole("main")).toContainText("Sign in");
  await audit(page, "signin");

  const me = `titles-${uniq()}@acme.test`;
  await signIn(page, me, true);
  await expect(page).toHaveTitle("Dashboard · Personal space · Vetted");
  const name = `Acme ${uniq()}`;
  const acc = await newAccount(page, request, name, [me]);
  await page.goto(`/app/a/${acc}`);
  await expect(page).toHaveTitle(`Dashboard · ${name} · Vetted`);
  await page.getByRole("link", { name: "Reviews due" }).click();
  await expect(page).toHaveTitle(`Reviews due · ${name} · Vetted`);
  await expect.poll(() => focusedHeading(page)).toBe("Reviews due");

  await page.getByRole("link", { name: "Lists" }).click();
  await expect(page).toHaveTitle(`Lists · ${name} · Vetted`);
  await expect.poll(() => focusedHeading(page)).toBe("Lists");

  const vendor = `Soylent ${uniq()}`;
  const { list, id } = await review(page, request, acc, vendor);
  await page.goto(`/app/a/${acc}/lists/${list}/vendors/${id}/assessment`);
  await expect(page).toHaveTitle(`Review of ${vendor} · ${name} · Vetted`);
  await page.getByLabel("Use case").fill("Payroll and benefits");
  await page.getByRole("button", { name: "Save review" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved.");
  await expect.poll(() => focusedHeading(page)).toBe(`Review of ${vendor}`);
});

test("review policy: a cleared cadence is refused at its field and never saved as 1", async ({ page, request }) => {
  const me = `cadence-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const acc = await newAccount(page, request, `Cadence ${uniq()}`, [me]);
  await page.goto(`/app/a/${acc}/reviews`);
  const critical = page.getByRole("textbox", { name: "critical", exact: true });
  await expect(critical).toHaveValue("6");
  await critical.fill("");
  await critical.blur();
  await expect(critical).toHaveValue("");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Enter the months between reviews (1 to 120)")).toBeVisible();
  await expect(critical).toHaveAttribute("aria-invalid", "true");
  expect((await call(page, request, "GET", `/review-policy?account-id=${acc}`)).body.cadence_months.critical).toBe(6);
  await critical.fill("4");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByRole("status")).toHaveText("Policy saved.");
  expect((await call(page, request, "GET", `/review-policy?account-id=${acc}`)).body.cadence_months.critical).toBe(4);
  await expect(page.getByText("Enter the months between reviews (1 to 120)")).toHaveCount(0);
});

test("a viewer is offered no write control: lists, a list's vendors, a review and its evidence, subscribers, the policy, the import, members, webhooks", async ({ page, request, browser }) => {
  const owner = `owner-${uniq()}@acme.test`;
  const viewer = `viewer-${uniq()}@acme.test`;
  await signIn(page, owner, true);
  const acc = await newAccount(page, request, `Readers ${uniq()}`, [owner, viewer]);
  expect((await call(page, request, "PATCH", `/users?account-id=${acc}`, { users: [{ email: viewer, role: "viewer" }] })).status).toBeLessThan(300);
  const vendor = `Cyberdyne ${uniq()}`;
  const { list, id } = await review(page, request, acc, vendor);

  const ctx = await browser.newContext();
  const v = await ctx.newPage();
  try {
    await signIn(v, viewer);
    await v.goto(`/app/a/${acc}/lists`);
    await expect(v.getByRole("link", { name: "master-list" })).toBeVisible();
    await expect(v.getByRole("button", { name: "Create list" })).toHaveCount(0);
    await expect(v.getByRole("button", { name: /^Delete list/ })).toHaveCount(0);

    // The list: read, searched, exported; no vendor added or removed, no alerts switched, no product added, no import.
    await v.getByRole("link", { name: "master-list" }).click();
    await expect(v.getByRole("link", { name: vendor })).toBeVisible();
    await expect(v.getByRole("button", { name: "Export CSV" })).toBeVisible();
    await expect(v.getByRole("link", { name: "Subscribers" })).toBeVisible();
    await expect(v.getByRole("button", { name: "Add vendor" })).toHaveCount(0);
    await expect(v.getByRole("textbox", { name: "Vendor name" })).toHaveCount(0);
    await expect(v.getByRole("link", { name: "Import CSV" })).toHaveCount(0);
    await expect(v.getByRole("switch")).toHaveCount(0);
    await expect(v.getByRole("button", { name: /^Remove / })).toHaveCount(0);
    await expect(v.getByRole("textbox", { name: /^Add product to / })).toHaveCount(0);
    await expect(v.getByRole("row", { name: new RegExp(vendor) }).getByRole("cell", { name: /^(on|off)$/ })).toHaveCount(1); // the alerts' state, as text
    await audit(v, "list-viewer");

    await v.goto(`/app/a/${acc}/lists/${list}/vendors/${id}/assessment`);
    await expect(v.getByRole("heading", { name: `Review of ${vendor}` })).toBeVisible();
    await expect(v.getByLabel("Use case")).toHaveValue("Payroll");
    await expect(v.getByLabel("Use case")).toBeDisabled();
    await expect(v.getByRole("button", { name: "Save review" })).toHaveCount(0);
    await expect(v.getByRole("button", { name: "Choose a file to upload" })).toHaveCount(0);
    await expect(v.getByTestId("audit-log")).toBeVisible();
    await audit(v, "assessment-viewer");

    await v.goto(`/app/a/${acc}/lists/${list}/subscribers`);
    await expect(v.getByRole("heading", { name: "Alert subscribers" })).toBeVisible();
    await expect(v.getByRole("button", { name: "Add subscriber" })).toHaveCount(0);

    await v.goto(`/app/a/${acc}/reviews`);
    await expect(v.getByRole("heading", { name: "Review policy" })).toBeVisible();
    await expect(v.getByRole("button", { name: "Save policy" })).toHaveCount(0);
    await expect(v.getByRole("textbox", { name: "critical", exact: true })).toBeDisabled();

    await v.goto(`/app/a/${acc}/lists/${list}/import`);
    await expect(v.getByText("Viewers cannot import into a list")).toBeVisible();
    await expect(v.getByRole("button", { name: "Import", exact: true })).toHaveCount(0);

    await v.goto(`/app/a/${acc}/members`);
    await expect(v.getByText(owner)).toBeVisible();
    await expect(v.getByRole("button", { name: "Add member" })).toHaveCount(0);
    await expect(v.getByRole("button", { name: /^Remove / })).toHaveCount(0);

    await v.goto(`/app/a/${acc}/webhooks`);
    await expect(v.getByRole("heading", { name: "Webhooks" })).toBeVisible();
    await expect(v.getByRole("button", { name: "Add webhook" })).toHaveCount(0);
  } finally {
    await ctx.close();
  }
});

test("unsaved review edits ask before leaving: a link inside the console, and closing the tab", async ({ page, request }) => {
  await signIn(page, `unsaved-${uniq()}@acme.test`);
  const vendor = `Initech ${uniq()}`;
  const { list, id } = await review(page, request, "individual", vendor);
  const here = `/app/a/individual/lists/${list}/vendors/${id}/assessment`;
  await page.goto(here);
  await expect(page.getByLabel("Use case")).toHaveValue("Payroll");
  // Nothing changed: leaving asks nothing.
  const asked: string[] = [];
  page.on("dialog", (d) => { asked.push(d.type()); void (asked.length === 1 ? d.dismiss() : d.accept()); });
  await page.getByRole("link", { name: "Back to the list" }).click();
  await expect(page).toHaveURL(new RegExp(`/lists/${list}$`));
  expect(asked).toEqual([]);

  await page.goto(here);
  await page.getByLabel("Use case").fill("Payroll and pensions");
  await page.getByRole("link", { name: "Back to the list" }).click();
  await expect.poll(() => asked).toEqual(["confirm"]); // dismissed: stay
  await expect(page).toHaveURL(new RegExp(`${here}$`));
  await expect(page.getByLabel("Use case")).toHaveValue("Payroll and pensions");
  await page.getByRole("link", { name: "Reviews due" }).click();
  await expect.poll(() => asked).toEqual(["confirm", "confirm"]); // accepted: gone
  await expect(page).toHaveURL(/\/reviews$/);
  expect((await call(page, request, "GET", `/vendor-assessments?account-id=individual&vendor-list-id=${list}`)).body.assessments[0].use_case).toBe("Payroll");

  // The browser's own question before a closed tab or a reload (asked after the person typed on the page).
  page.removeAllListeners("dialog");
  await page.goto(here);
  await page.getByLabel("Use case").click();
  await page.keyboard.type(" and more");
  const before = page.waitForEvent("dialog");
  await page.close({ runBeforeUnload: true });
  const d = await before;
  expect(d.type()).toBe("beforeunload");
  await d.dismiss();
});

test("a vendor opened from an account's list stays in that account: the address, the account switcher, the links and back", async ({ page, request }) => {
  const me = `context-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const name = `Umbrella ${uniq()}`;
  const acc = await newAccount(page, request, name, [me]);
  const vendor = `Hooli ${uniq()}`;
  const { list, id } = await review(page, request, acc, vendor);
  await page.goto(`/app/a/${acc}/lists/${list}`);
  await page.getByRole("link", { name: vendor }).click();
  await expect(page).toHaveURL(new RegExp(`/app/a/${acc}/vendors/${id}$`));
  await expect(page.getByRole("heading", { name: vendor })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Account", exact: true })).toHaveValue(`${name} (owner)`);
  await expect(page).toHaveTitle(`${vendor} · ${name} · Vetted`);
  await expect(page.getByRole("link", { name: "Lists" })).toHaveAttribute("href", `/app/a/${acc}/lists`);
  await audit(page, "vendor-in-account");
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/app/a/${acc}/lists/${list}$`));
  // The dashboard links to vendors in the account too.
  await page.goto(`/app/a/${acc}`);
  await page.getByRole("link", { name: vendor }).click();
  await expect(page).toHaveURL(new RegExp(`/app/a/${acc}/vendors/${id}$`));
});

test("errors are named by the field's label, once, and clear when the next action succeeds", async ({ page, request }) => {
  const me = `errors-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const acc = await newAccount(page, request, `Errors ${uniq()}`, [me]);
  await page.goto(`/app/a/${acc}/webhooks`);
  await page.getByLabel("Endpoint URL").fill("ftp://hooks.example.com/x");
  await page.getByRole("button", { name: "Add webhook" }).click();
  const message = page.getByText("invalid webhook URL: the scheme must be https");
  await expect(message).toHaveCount(1);
  await expect(page.getByRole("alert")).toContainText("Correct the fields marked in red.");
  await expect(page.locator("main")).not.toContainText("body.url");
  await audit(page, "webhooks-error");
  // The next action goes through: the error is gone.
  await page.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/vetted");
  await page.getByRole("button", { name: "Add webhook" }).click().catch(() => {});
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(message).toHaveCount(0);

  // A refused action followed by another one that succeeds: the first error does not stay.
  await page.goto(`/app/a/${acc}/lists`);
  await page.getByLabel("New list").fill("master-list");
  await page.getByRole("button", { name: "Create list" }).click();
  await expect(page.getByRole("alert")).toContainText("already has a list named");
  await expect(page.locator("main")).not.toContainText("query.vendor-list");
  await page.getByLabel("New list").fill(`Second ${uniq()}`);
  await page.getByRole("button", { name: "Create list" }).click();
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("the list page: an add's error is at its field, named by its label, once, and gone after the next add; the tab has the list's name; focus on the heading after a save; vendors open in the account, their rating without a grade", async ({ page, request }) => {
  const me = `listerr-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const name = `Listed ${uniq()}`;
  const acc = await newAccount(page, request, name, [me]);
  const list = await masterList(page, request, acc);
  // No scan rates a vendor here: the list's answer gives the first a rating on its way to the page.
  await page.route(`**/vendor-lists?*vendor-list-id=${list}*`, async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    const res = await route.fetch();
    const body = await res.json();
    if (body.vendors?.length) body.vendors[0].rating = 95;
    await route.fulfill({ response: res, json: body });
  });
  await page.goto(`/app/a/${acc}/lists/${list}`);
  await expect(page).toHaveTitle(`master-list · ${name} · Vetted`);

  const vendor = `Acme ${uniq()}`;
  await page.getByLabel("Vendor name").fill(vendor);
  await page.getByLabel("Website (optional)").fill("not a url");
  await page.getByRole("button", { name: "Add vendor" }).click();
  const message = page.getByText("must be a URL without spaces or control characters");
  await expect(message).toHaveCount(1);
  await expect(page.getByLabel("Website (optional)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("alert")).toContainText("Correct the fields marked in red.");
  await expect(page.locator("main")).not.toContainText("body.vendors");
  await audit(page, "list-error");

  await page.getByLabel("Website (optional)").fill("https://acme.example");
  await page.getByRole("button", { name: "Add vendor" }).click();
  await expect(page.getByRole("link", { name: vendor, exact: true })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(message).toHaveCount(0);
  await expect.poll(() => focusedHeading(page)).toBe("master-list");

  const held = await call(page, request, "GET", `/vendor-lists?account-id=${acc}&vendor-list-id=${list}`);
  const id = held.body.vendors[0].vendor_id as string;
  await expect(page.getByRole("link", { name: vendor, exact: true })).toHaveAttribute("href", `/app/a/${acc}/vendors/${id}`);
  const rating = page.getByRole("link", { name: `Rating 95 of ${vendor}` });
  await expect(rating).toHaveAttribute("href", `/app/a/${acc}/vendors/${id}`);
  await expect(rating).toHaveAccessibleDescription(/its grade is shown with the checks it was made from/);
  await expect(page.getByRole("row", { name: new RegExp(vendor) })).not.toContainText(/\bA\b/); // the list has no coverage for a grade

  // A removal saves too: its button is gone, focus is on the heading.
  await page.getByRole("textbox", { name: "Search" }).focus();
  await page.getByRole("button", { name: `Remove ${vendor}` }).click();
  await expect(page.getByRole("link", { name: vendor, exact: true })).toHaveCount(0);
  await expect.poll(() => focusedHeading(page)).toBe("master-list");
});

test("a grade is shown with its coverage, and none made from fewer than half the checks", async ({ page, request }) => {
  await signIn(page, `grade-${uniq()}@acme.test`);
  const vendor = `Gradeco ${uniq()}`;
  const { id } = await review(page, request, "individual", vendor);
  // The e2e server cannot reach any site, so no scan rates: the answers are
  // given a grade and a coverage on their way to the page.
  let ran = 1;
  await page.route(`**/vendor/${id}/security-instances`, async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), checks_run: ran, checks_total: 26 } });
  });
  await page.route(`**/vendor/${id}`, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    const grc = { aggregate_score: 95, grade: "A", recommendation: "approve", integration_depth: "read-only", assessed_at: new Date().toISOString(),
      domain_scores: [], evidence_summaries: [], citations: [] };
    await route.fulfill({ response: res, json: { ...body, scores: { ...body.scores, security_rating: 95, grade: "A" }, latest_grc_assessment: grc } });
  });
  await page.goto(`/app/a/individual/vendors/${id}`);
  await expect(page.getByTestId("grade-coverage")).toHaveText("not graded: only 1 of 26 checks ran, a grade needs 13");
  await expect(page.getByTestId("grade")).toHaveCount(0);
  await page.getByRole("tab", { name: "Assessment" }).click();
  await expect(page.getByText("Aggregate score 95 (not graded: only 1 of 26 checks ran, a grade needs 13)")).toBeVisible();
  ran = 20;
  await page.reload();
  await expect(page.getByTestId("grade")).toHaveText("grade A");
  await expect(page.getByTestId("grade-coverage")).toHaveText("graded on 20 of 26 checks");
  await page.getByRole("tab", { name: "Assessment" }).click();
  await expect(page.getByText("Aggregate score 95 (A)")).toBeVisible();
  await audit(page, "vendor-grade");
  // What the API says without the page's help: a vendor never scanned ran no check.
  const si = await call(page, request, "GET", `/vendor/${id}/security-instances`);
  expect([si.body.checks_run, si.body.checks_total]).toEqual([0, 26]);

  // Each scan of the rating history and of the dashboard's rating changes
  // reads the same way: its grade with its coverage, none below half the
  // checks, and "coverage not recorded" for a scan kept before it was.
  const scans: [string, number | null][] = [["B", 20], ["A", 1], ["C", null]];
  const recs = scans.map(([grade, run], i) => ({
    id: `00000000-0000-4000-8000-00000000000${i}`, scanned_at: new Date(Date.now() - i * 86_400_000).toISOString(), security_rating: 80,
    grade, checks_run: run, checks_total: run === null ? null : 26, findings: [], certificate_expires_at: null,
    changes: [{ kind: "grade_drop", detail: `grade dropped to ${grade}` }],
  }));
  const shown = ["B, graded on 20 of 26 checks", "not graded: only 1 of 26 checks ran, a grade needs 13", "C, coverage not recorded"];
  await page.route(`**/vendor/${id}/rating-history*`, (route) => route.fulfill({ json: { vendor_id: id, history: recs } }));
  await page.route("**/metrics/recent-rating-changes*", (route) =>
    route.fulfill({ json: recs.map((r) => ({ ...r, kind: "rating_change", vendor_id: id, vendor_name: vendor, product: "" })) }));
  await page.getByRole("tab", { name: "Rating history" }).click();
  await expect(page.getByTestId("scan-grade")).toHaveText(shown);
  await page.goto("/app/a/individual");
  await expect(page.getByTestId("change-grade")).toHaveText(shown);
});

test("import: a dry run with bad rows keeps Import off; an interrupted import resumes from its row", async ({ page, request }) => {
  await signIn(page, `resume-${uniq()}@acme.test`);
  const list = (await call(page, request, "POST", `/vendor-lists?account-id=individual&vendor-list=Resume ${uniq()}`, {})).body.id;
  await page.goto(`/app/a/individual/lists/${list}/import`);
  await page.getByLabel("CSV file").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("vendor_name,website_url\nAcme,not a url\n,https://x.test\n") });
  await page.getByRole("button", { name: "Check (dry run)" }).click();
  const dry = page.getByTestId("dry-run");
  await expect(dry).toContainText("row 2, column vendor_name");
  await expect(dry).toContainText("the import stays off");
  await expect(page.getByRole("button", { name: "Import", exact: true })).toBeDisabled();
  await audit(page, "import-dry-run-errors");

  const rows = Array.from({ length: 1200 }, (_, i) => `Resumed ${String(i).padStart(4, "0")} ${uniq()}`);
  const csv = Buffer.from(["vendor_name", ...rows].join("\n") + "\n");
  const sent: number[] = [];
  // The second batch of the real import never reaches the server: the import stops after row 500.
  await page.route("**/vendor-lists?*operation=import-csv*", async (route) => {
    const body = route.request().postDataJSON();
    if (body.dry_run) return route.continue();
    sent.push(sent.length);
    if (sent.length === 2) return route.abort("connectionreset");
    return route.continue();
  });
  await page.getByLabel("CSV file").setInputFiles({ name: "vendors.csv", mimeType: "text/csv", buffer: csv });
  await page.getByRole("button", { name: "Check (dry run)" }).click();
  await expect(dry).toContainText("1200 rows");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page.getByRole("button", { name: "Resume from row 501" })).toBeVisible();
  await page.unroute("**/vendor-lists?*operation=import-csv*");

  // Another visit, the same file picked again: the page remembers where it stopped.
  await page.goto(`/app/a/individual/lists/${list}`);
  await page.goto(`/app/a/individual/lists/${list}/import`);
  await page.getByLabel("CSV file").setInputFiles({ name: "vendors.csv", mimeType: "text/csv", buffer: csv });
  const resumeSent: number[] = [];
  page.on("request", (r) => { if (r.url().includes("operation=import-csv")) resumeSent.push(r.postDataJSON().row_offset); });
  await page.getByRole("button", { name: "Resume from row 501" }).click();
  await expect(page.getByTestId("import-progress")).toContainText("1200 of 1200 rows");
  await expect(page.getByTestId("import-progress")).toContainText("Done");
  expect(resumeSent).toHaveLength(2); // rows 501-1000 and 1001-1200, never the first 500 again
  const held = await call(page, request, "GET", `/vendor-lists?account-id=individual&vendor-list-id=${list}`);
  expect(held.body.vendors).toHaveLength(1200);
  // Done: nothing is offered for the file any more.
  await page.getByLabel("CSV file").setInputFiles({ name: "vendors.csv", mimeType: "text/csv", buffer: csv });
  await expect(page.getByRole("button", { name: /Resume from row/ })).toHaveCount(0);
});

test("a new tab is signed in from an open one; signing out there signs out both", async ({ page, context }) => {
  const me = `tabs-${uniq()}@acme.test`;
  await signIn(page, me);
  const second = await context.newPage();
  await second.goto("/app/a/individual/lists");
  await expect(second.getByRole("heading", { name: "Lists" })).toBeVisible();
  await expect(second.getByText(me)).toBeVisible();
  expect(await token(second)).toBe(await token(page));
  expect(await second.evaluate(() => Object.keys(localStorage).filter((k) => k.includes("token")).length)).toBe(0);
  await second.getByRole("button", { name: "Sign out" }).click();
  await expect(second).toHaveURL(/\/app\/signin/);
  await expect(page).toHaveURL(/\/app\/signin/);
});

test("phone width: long names wrap, badges are never cut, the skip link and the upload are there", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, `phone-${uniq()}@acme.test`);
  const vendor = `Bartholomew-Featherstonehaugh-Cholmondeley-International-Holdings-Incorporated ${uniq()}`;
  const { list, id } = await review(page, request, "individual", vendor);
  const fits = () => page.evaluate(() => {
    const over = (el: Element) => el.scrollWidth > el.clientWidth + 1;
    return {
      headings: [...document.querySelectorAll("main h2")].filter(over).map((e) => e.textContent),
      badges: [...document.querySelectorAll(".mantine-Badge-label")].filter(over).map((e) => e.textContent),
      page: document.documentElement.scrollWidth <= window.innerWidth,
      header: [...document.querySelectorAll("header")].every((h) => h.scrollHeight <= h.clientHeight + 1 && h.scrollWidth <= h.clientWidth + 1),
    };
  });
  await page.goto(`/app/a/individual/lists/${list}/vendors/${id}/assessment`);
  await expect(page.getByRole("heading", { name: `Review of ${vendor}` })).toBeVisible();
  expect(await fits()).toEqual({ headings: [], badges: [], page: true, header: true });
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await expect(page.getByRole("button", { name: "Choose a file to upload" })).toBeVisible();
  await audit(page, "assessment-phone");

  await page.goto(`/app/a/individual/vendors/${id}`);
  await expect(page.getByRole("heading", { name: vendor })).toBeVisible();
  expect(await fits()).toMatchObject({ headings: [], badges: [], header: true });
  await audit(page, "vendor-phone");
});
