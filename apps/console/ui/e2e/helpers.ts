import { expect, type Page, type APIRequestContext } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

export const outDir = process.env.VETTED_E2E_OUT ?? join(tmpdir(), "vetted-console-e2e");

/** signIn uses the dev form as a person does and waits for the dashboard. */
export async function signIn(page: Page, email: string, admin = false) {
  await page.goto("/app/");
  await expect(page).toHaveURL(/\/app\/signin/);
  await page.getByRole("textbox", { name: "E-mail", exact: true }).fill(email);
  if (admin) await page.getByLabel("Platform admin").check();
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
}

/** token is the bearer token the page holds (sessionStorage). */
export async function token(page: Page): Promise<string> {
  const t = await page.evaluate(() => sessionStorage.getItem("vetted.token"));
  expect(t, "the page keeps a token").toBeTruthy();
  return t!;
}

/** call is the API as the signed-in user, to check what it holds. */
export async function call(page: Page, request: APIRequestContext, method: string, path: string, data?: unknown) {
  const res = await request.fetch(path, {
    method,
    headers: { Authorization: `Bearer ${await token(page)}`, "Content-Type": "application/json" },
    data: data === undefined ? undefined : JSON.stringify(data),
  });
  const body = await res.json().catch(() => null);
  return { status: res.status(), body };
}

/** audit runs axe on the page: no serious or critical violation; keeps a screenshot. */
export async function audit(page: Page, name: string) {
  mkdirSync(outDir, { recursive: true });
  await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: true });
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const detail = result.violations.map((v) => `  ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`).join("\n");
  appendFileSync(join(outDir, "axe.txt"), `${name}: ${result.violations.length} violations (${bad.length} serious or critical), ${result.passes.length} rules passed\n${detail}\n`);
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** accountWithOwner creates an organization (as a platform admin) and answers its id. */
export async function newAccount(page: Page, request: APIRequestContext, name: string, users: string[]) {
  const r = await call(page, request, "POST", "/accounts", { account: name, users });
  expect(r.status).toBe(201);
  return r.body.id as string;
}

export async function masterList(page: Page, request: APIRequestContext, acc: string): Promise<string> {
  const r = await call(page, request, "GET", `/vendor-lists?account-id=${acc}`);
  expect(r.status).toBe(200);
  return r.body.lists.find((l: { name: string }) => l.name === "master-list").id;
}

/** tabTo presses Tab until the element with this text or label has focus (at most n times). */
export async function tabTo(page: Page, name: string, n = 60) {
  for (let i = 0; i < n; i++) {
    await page.keyboard.press("Tab");
    const hit = await page.evaluate((want) => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return false;
      const label = el.getAttribute("aria-label") ?? (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null);
      return el.innerText?.trim() === want || label?.replace("*", "").trim() === want;
    }, name);
    if (hit) return;
  }
  throw new Error(`Tab never reached ${name}`);
}
