import { test, expect } from "@playwright/test";

// The round trip of a real sign-in: the console sends the browser to the
// OpenID provider (authorization code + PKCE), the person signs in there,
// the provider sends them back to /app/callback, and the API accepts the
// ID token it verifies against the provider's JWKS.
test("OpenID Connect: sign in at the provider, come back signed in, sign out", async ({ page }) => {
  const base = `http://127.0.0.1:${process.env.VETTED_E2E_OIDC_PORT}`;
  const users: number[] = [];
  page.on("response", (r) => { if (new URL(r.url()).pathname === "/users") users.push(r.status()); });
  await page.goto(`${base}/app/`);
  await expect(page.getByText("Development sign-in")).toHaveCount(0); // dev tokens are off here
  await page.getByRole("button", { name: "Sign in with your organization" }).click();
  await expect(page).toHaveURL(new RegExp(`^http://127.0.0.1:${process.env.VETTED_E2E_OP_PORT}/login/`));
  await page.locator('input[name="username"]').fill("test-user@127.0.0.1");
  await page.locator('input[name="password"]').fill("verysecure");
  await page.locator('button[type="submit"], input[type="submit"]').first().click();
  await expect(page).toHaveURL(new RegExp(`^${base}/app/a/individual`));
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByText("test-user@zitadel.ch")).toBeVisible();
  expect(users.length).toBeGreaterThan(0);
  expect(users.every((s) => s === 200)).toBe(true);
  expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/app\/signin/);
});
