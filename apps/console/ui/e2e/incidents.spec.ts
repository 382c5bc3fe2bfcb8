import { test, expect, type Page, type APIRequestContext, type Route } from "@playwright/test";
import { audit, call, masterList, newAccount, signIn, tabTo } from "./helpers";

// The Incidents page of an account (the incidents of the vendors it
// follows, with filters and paging), each incident's evidence on it and on
// the vendor page, and the platform admins' possible-match queue.
//
// Incidents recorded by hand (POST /vendor/{id}/incidents) seed the real
// server: paging, the severity and list filters, the keyboard and the
// phone width run against it. Evidence and possible matches come only from
// the poll of platform-wide sources, which this run's server does not poll
// (the embedded profile with no feeds), so those tests answer the incident
// and possible-match reads with fixtures in the API's shapes.

const uniq = () => Math.random().toString(36).slice(2, 8);
const SEVERITIES = ["critical", "high", "medium", "low", "info"];

/**
 * seed makes an organization whose master list has three vendors (one also
 * on a list "Critical") and records n incidents by hand, one an hour,
 * severities in turn; answers the account, the Critical list and the vendors.
 */
async function seed(page: Page, request: APIRequestContext, me: string, n: number) {
  const acc = await newAccount(page, request, `Incidents ${uniq()}`, [me]);
  const names = [`Qorvanta ${uniq()}`, `Zentrafy ${uniq()}`, `Plumeria ${uniq()}`];
  const master = await masterList(page, request, acc);
  expect((await call(page, request, "POST", `/vendor-lists?account-id=${acc}&operation=save-vendors&vendor-list-id=${master}`, { vendors: names })).status).toBe(200);
  const crit = await call(page, request, "POST", `/vendor-lists?account-id=${acc}&vendor-list=Critical`);
  expect(crit.status).toBe(201);
  expect((await call(page, request, "POST", `/vendor-lists?account-id=${acc}&operation=save-vendors&vendor-list-id=${crit.body.id}`, { vendors: [names[0]] })).status).toBe(200);
  const start = Date.UTC(2026, 9, 1);
  for (let i = 1; i <= n; i++) {
    const r = await call(page, request, "POST", `/vendor/${encodeURIComponent(names[i % 3])}/incidents`, {
      title: `Incident ${String(i).padStart(3, "0")} at ${names[i % 3]}`, severity: SEVERITIES[i % 5], backfilled: true,
      url: `https://news.example/${i}`, published_at: new Date(start + i * 3600_000).toISOString(),
    });
    expect(r.status).toBe(201);
  }
  return { acc, crit: crit.body.id as string, names };
}

const rows = (page: Page) => page.getByTestId("incident");

/** pick chooses an option of a Mantine select by its label, with the mouse. */
async function pick(page: Page, label: string, option: string) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await page.keyboard.press("Escape");
}

test("incidents: the account's incidents newest first, 50 a page with More, filters by severity and list; axe", async ({ page, request }) => {
  const me = `incidents-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, names } = await seed(page, request, me, 60);
  await page.goto(`/app/a/${acc}`);
  await page.getByRole("link", { name: "Incidents", exact: true }).click();
  await page.mouse.move(0, 0); // off the menu's link: axe judges the page, not a hover
  await expect(page.getByRole("heading", { name: "Incidents", level: 2 })).toBeVisible();
  await expect(page).toHaveTitle(/^Incidents · /);

  await expect(rows(page)).toHaveCount(50);
  await expect(page.getByTestId("incident-count")).toHaveText("50 incidents shown; more follow");
  const first = rows(page).first();
  await expect(first.getByRole("heading", { level: 3 })).toHaveText(`Incident 060 at ${names[0]}`);
  await expect(first.getByRole("link", { name: `Incident 060 at ${names[0]}` })).toHaveAttribute("href", "https://news.example/60");
  await expect(first.getByRole("link", { name: names[0], exact: true })).toBeVisible();
  await expect(first).toContainText("critical");
  await expect(first).toContainText("1 source");
  await expect(first).toContainText("published");
  await expect(rows(page).nth(49).getByRole("heading")).toHaveText(`Incident 011 at ${names[2]}`);
  await audit(page, "incidents");

  await page.getByRole("button", { name: "More incidents" }).click();
  await expect(rows(page)).toHaveCount(60);
  await expect(page.getByRole("button", { name: "More incidents" })).toHaveCount(0);
  await expect(rows(page).last().getByRole("heading")).toHaveText(`Incident 001 at ${names[1]}`);

  // 60 incidents, severities in turn: 12 critical.
  await pick(page, "Severity", "critical");
  await expect(rows(page)).toHaveCount(12);
  for (const sev of await rows(page).locator(".mantine-Badge-label").allTextContents()) expect(sev).toBe("critical");
  // Only the vendor on Critical: 4 of those 12 (i % 3 == 0 and i % 5 == 0).
  await pick(page, "List", "Critical");
  await expect(rows(page)).toHaveCount(4);
  for (const t of await rows(page).getByRole("heading").allTextContents()) expect(t).toContain(names[0]);
  await audit(page, "incidents-filtered");

  // The filters are the API's: what the page shows is what GET /incidents answers.
  const api = await call(page, request, "GET", `/incidents?account-id=${acc}&severity=critical&limit=200`);
  expect(api.status).toBe(200);
  expect(api.body.incidents).toHaveLength(12);
});

test("incidents by keyboard alone: filter by severity, page with More, reach an incident's vendor", async ({ page, request }) => {
  const me = `incidents-keys-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, names } = await seed(page, request, me, 55);
  await page.goto(`/app/a/${acc}/incidents`);
  await expect(rows(page)).toHaveCount(50);

  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("MAIN");
  // Through the 50 incidents (two links each) to the button after them.
  await tabTo(page, "More incidents", 160);
  await page.keyboard.press("Enter");
  await expect(rows(page)).toHaveCount(55);

  // The severity filter opens, moves and picks with keys.
  await page.getByRole("combobox", { name: "Severity" }).focus();
  await page.keyboard.type("high");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
  await expect(rows(page)).toHaveCount(11);

  // A vendor's link opens its page.
  await page.getByRole("main").focus();
  await tabTo(page, names[1], 40);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: names[1], level: 2 })).toBeVisible();
});

test("incidents at phone width: the menu reaches the page, nothing runs off it; axe", async ({ page, request }) => {
  const me = `incidents-phone-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc } = await seed(page, request, me, 3);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/app/a/${acc}`);
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("link", { name: "Incidents", exact: true }).click();
  await page.mouse.move(0, 0); // off the menu's link: axe judges the page, not a hover
  await expect(rows(page)).toHaveCount(3);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expect(page.getByRole("combobox", { name: "Severity" })).toBeVisible();
  await audit(page, "incidents-phone");
});

// An incident of a platform-wide source in the API's shape.
function matched(n: number, vendorId: string, vendor: string) {
  const at = new Date(Date.UTC(2026, 10, 1) - n * 3600_000).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, vendor_id: vendorId, vendor_name: vendor,
    title: `${vendor} confirms its support system was breached (${n})`, summary: "", incident_type: "", affected_service: "Connect Secure",
    potentially_impacted_data: [], status: "open", severity: n % 2 ? "high" : "critical", url: `https://news.example/story-${n}`,
    source: "news", external_id: `story-${n}`, published_at: at, backfilled: false,
    match: { rule: "news_named", matched_text: `named "${vendor.toLowerCase()}"; security term "breached"`, confidence: 0.9 },
    sources: [
      { source: "news", url: `https://news.example/story-${n}`, published_at: at },
      { source: "kev", url: `https://www.cisa.gov/kev#CVE-2026-${1000 + n}`, published_at: at },
    ],
    lists: [{ id: "11111111-1111-4111-8111-111111111111", name: "master-list" }],
  };
}

test("evidence: each incident of a platform-wide source shows its rule, matched text, confidence and sources, on the Incidents page and the vendor page", async ({ page, request }) => {
  const me = `evidence-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const { acc, names } = await seed(page, request, me, 0);
  const held = await call(page, request, "GET", `/vendor-lists?account-id=${acc}&vendor-list=master-list`);
  const vendor = held.body.vendors.find((v: { vendor_name: string }) => v.vendor_name === names[0]);
  const asked: URLSearchParams[] = [];
  await page.route((u) => u.pathname === "/incidents", async (route: Route) => {
    const q = new URL(route.request().url()).searchParams;
    asked.push(q);
    const kev = q.getAll("source").includes("kev");
    await route.fulfill({ json: { incidents: [matched(1, vendor.vendor_id, names[0]), ...(kev ? [] : [matched(2, vendor.vendor_id, names[0])])] } });
  });
  await page.route((u) => u.pathname === `/vendor/${vendor.vendor_id}/incidents`, (route) =>
    route.fulfill({ json: { incidents: [matched(1, vendor.vendor_id, names[0])] } }));

  await page.goto(`/app/a/${acc}/incidents`);
  await expect(rows(page)).toHaveCount(2);
  const row = rows(page).first();
  await expect(row.getByTestId("evidence")).toHaveText(
    `Evidence: security story names this vendor; matched named "${names[0].toLowerCase()}"; security term "breached"; confidence 90%`);
  await expect(row).toContainText("2 sources");
  await expect(row.getByTestId("sources")).toContainText("CISA KEV");
  await expect(row.getByRole("link", { name: "https://www.cisa.gov/kev#CVE-2026-1001" })).toBeVisible();
  await audit(page, "incidents-evidence");

  await pick(page, "Source", "CISA KEV");
  await expect(rows(page)).toHaveCount(1);
  expect(asked.at(-1)?.getAll("source")).toEqual(["kev"]);
  expect(asked.at(-1)?.get("limit")).toBe("50");

  await row.getByRole("link", { name: names[0], exact: true }).click();
  await expect(page.getByRole("heading", { name: names[0], level: 2 })).toBeVisible();
  await page.getByRole("tab", { name: "Incidents" }).click();
  const panel = page.getByRole("tabpanel", { name: "Incidents" });
  await expect(panel.getByTestId("evidence")).toContainText("confidence 90%");
  await expect(panel.getByTestId("sources")).toContainText("News");
  await expect(panel.getByTestId("sources")).toContainText("CISA KEV");
  await audit(page, "vendor-incident-evidence");
});

test("possible matches: a platform admin confirms one and dismisses one; others are refused the queue", async ({ page, request }) => {
  const me = `possible-${uniq()}@acme.test`;
  await signIn(page, me, true);
  const vendorId = "22222222-2222-4222-8222-222222222222";
  type P = ReturnType<typeof possible>;
  function possible(n: number, vendor: string) {
    const draft = matched(n, vendorId, vendor);
    draft.title = `${vendor} announces new pricing (${n})`;
    draft.match = { rule: "news_named", matched_text: `named "${vendor.toLowerCase()}"; no security term`, confidence: 0.5 };
    return { id: `33333333-3333-4333-8333-${String(n).padStart(12, "0")}`, vendor_id: vendorId, vendor_name: vendor, status: "pending",
      created_at: draft.published_at, decided_at: null as string | null, decided_by: "", incident_id: null as string | null, incident: draft };
  }
  const queue: P[] = [possible(1, "Okta"), possible(2, "Box")];
  const decided: string[] = [];
  const queueURL = (u: URL) => u.pathname.startsWith("/incidents/possible");
  await page.route(queueURL, async (route: Route) => {
    const u = new URL(route.request().url());
    const m = /^\/incidents\/possible\/([^/]+)\/(confirm|dismiss)$/.exec(u.pathname);
    if (!m) {
      const status = u.searchParams.get("status") ?? "pending";
      return route.fulfill({ json: { possible: queue.filter((p) => p.status === status) } });
    }
    const p = queue.find((x) => x.id === m[1])!;
    decided.push(`${m[2]} ${p.vendor_name}`);
    p.status = m[2] === "confirm" ? "confirmed" : "dismissed";
    p.decided_at = new Date().toISOString();
    p.decided_by = me;
    if (m[2] === "confirm") {
      p.incident_id = p.incident.id;
      return route.fulfill({ json: { possible: p, incident: p.incident } });
    }
    return route.fulfill({ json: { possible: p } });
  });

  await page.goto("/app/a/individual");
  await page.getByRole("link", { name: "Possible matches" }).click();
  await expect(page.getByRole("heading", { name: "Possible matches", level: 2 })).toBeVisible();
  await page.mouse.move(0, 0); // the pointer off the menu's link it clicked: axe judges the page, not a hover
  const items = page.getByTestId("possible");
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText("Okta");
  await expect(items.first().getByTestId("evidence")).toContainText("no security term");
  await audit(page, "possible-matches");

  await page.getByRole("button", { name: "Confirm Okta announces new pricing (1) as an incident of Okta" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Confirmed" })).toHaveText("Confirmed: Okta announces new pricing (1) (Okta).");
  await expect(items).toHaveCount(1);
  // Dismissed by keyboard.
  await page.getByRole("button", { name: "Dismiss Box announces new pricing (2) for Box" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("No pending possible match.")).toBeVisible();
  expect(decided).toEqual(["confirm Okta", "dismiss Box"]);

  await page.getByText("Confirmed", { exact: true }).click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(`confirmed by ${me}`);
  await expect(items.first().getByRole("button")).toHaveCount(0);
  await page.unroute(queueURL);

  // The real queue is the platform admins': an account's owner is refused it.
  const admin = await call(page, request, "GET", "/incidents/possible");
  expect(admin.status).toBe(200);
  const other = `not-admin-${uniq()}@acme.test`;
  await page.getByRole("button", { name: "Sign out" }).click();
  await signIn(page, other);
  await expect(page.getByRole("link", { name: "Possible matches" })).toHaveCount(0);
  expect((await call(page, request, "GET", "/incidents/possible")).status).toBe(403);
});
