import { test, expect } from "@playwright/test";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { audit, call, newAccount, signIn } from "./helpers";

const uniq = () => Math.random().toString(36).slice(2, 8);

test("webhooks: add one (secret shown once, with a copy button), send a test the receiver gets, see the delivery, delete it", async ({ page, request }) => {
  // A receiver on loopback (the server under test runs with
  // VETTED_FETCH_ALLOW_PRIVATE, as a closed network would).
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => { got.push({ headers: req.headers, body }); res.writeHead(204).end(); });
  });
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/vetted`;
  page.on("dialog", (d) => d.accept());
  try {
    const me = `hooks-${uniq()}@acme.test`;
    await signIn(page, me, true);
    const acc = await newAccount(page, request, `Hooks ${uniq()}`, [me]);
    await page.goto(`/app/a/${acc}`);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
    await expect(page.getByText("No webhooks yet.")).toBeVisible();

    // A URL the rules refuse is named at its field.
    await page.getByLabel("Endpoint URL").fill("ftp://hooks.example.com/x");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByText("invalid webhook URL: the scheme must be https", { exact: true })).toBeVisible();

    await page.getByLabel("Endpoint URL").fill(hook);
    await page.getByLabel("Description").fill("SIEM");
    await page.getByRole("checkbox", { name: "Vendors added or removed" }).check();
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByText("Signing secret: copy it now, it is shown only once")).toBeVisible();
    const secret = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await expect(page.getByRole("button", { name: "Copy secret" })).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(hook) })).toContainText("active");
    await audit(page, "webhooks");

    // What the API holds: the endpoint with its events, never the secret.
    const held = await call(page, request, "GET", `/webhooks?account-id=${acc}`);
    expect(held.status).toBe(200);
    expect(held.body.webhooks).toHaveLength(1);
    const w = held.body.webhooks[0];
    expect([w.url, w.description, w.status, w.events]).toEqual([hook, "SIEM", "active", ["incident.created", "list.vendors_changed"]]);
    expect(JSON.stringify(held.body)).not.toContain(secret);

    // Shown once: gone when dismissed, and not there after a reload.
    await page.getByRole("button", { name: "I have kept it" }).click();
    await page.reload();
    await expect(page.getByRole("row", { name: new RegExp(hook) })).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);

    await page.getByRole("button", { name: `Send a test event to ${hook}` }).click();
    await expect(page.getByText(/Test event queued/)).toBeVisible();
    const deliveries = page.getByRole("table", { name: "Deliveries" });
    await expect(deliveries.getByRole("row", { name: /webhook\.ping/ })).toContainText("delivered", { timeout: 15_000 });
    await expect(deliveries).toContainText("HTTP 204");
    await expect.poll(() => got.length).toBe(1);
    const log = await call(page, request, "GET", `/webhooks/deliveries?account-id=${acc}&webhook-id=${w.id}`);
    expect(log.body.total).toBe(1);
    const a = log.body.deliveries[0];
    expect([a.event_type, a.attempt, a.ok, a.status_code, a.next_retry_at]).toEqual(["webhook.ping", 1, true, 204, null]);
    expect(got[0].headers["webhook-id"]).toBe(a.message_id);
    expect(got[0].headers["webhook-signature"]).toMatch(/^v1,/);
    expect(JSON.parse(got[0].body).type).toBe("webhook.ping");
    await audit(page, "webhook-deliveries");

    await page.getByRole("button", { name: `Delete ${hook}` }).click();
    await expect(page.getByText("No webhooks yet.")).toBeVisible();
    expect((await call(page, request, "GET", `/webhooks?account-id=${acc}`)).body.webhooks).toHaveLength(0);
  } finally {
    receiver.close();
  }
});
