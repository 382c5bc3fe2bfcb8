import { defineConfig } from "@playwright/test";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The browser suite drives Debian's chromium against `vetted serve` on the
// embedded default (SQLite in the run's directory), started on a free loopback port by
// Playwright's webServer. VETTED_BIN names the binary (make console-e2e
// builds it); screenshots go to VETTED_E2E_OUT (the run's temp dir).
// Ports are chosen once, in the first process, and inherited by the workers.
// .ci/console.sh picks free ones below the ephemeral range (e2e/freeports.mjs);
// run by hand, a random one in that range.
const pick = () => String(10000 + Math.floor(Math.random() * 20000));
process.env.VETTED_E2E_PORT ??= pick();
process.env.VETTED_E2E_OIDC_PORT ??= pick();
process.env.VETTED_E2E_OP_PORT ??= pick();
const port = process.env.VETTED_E2E_PORT;
const oidcPort = process.env.VETTED_E2E_OIDC_PORT;
const opPort = process.env.VETTED_E2E_OP_PORT;
const issuer = `http://127.0.0.1:${opPort}/`;
// VETTED_OP names the OpenID provider's binary (e2e/op; .ci/console.sh builds it).
const op = process.env.VETTED_OP ?? "./op";
export const outDir = process.env.VETTED_E2E_OUT ?? join(tmpdir(), "vetted-console-e2e");
const bin = process.env.VETTED_BIN ?? "../../../bin/vetted";

export default defineConfig({
  testDir: "e2e",
  outputDir: join(outDir, "results"),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
    screenshot: "only-on-failure",
  },
  webServer: [{
    command: `${bin} serve`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    // The embedded default: SQLite in a data directory of the run's own.
    env: {
      VETTED_HTTP_ADDR: `127.0.0.1:${port}`,
      VETTED_DATA_DIR: join(outDir, `data-${port}`),
      VETTED_LOG_LEVEL: "warn",
      VETTED_RATE_LIMIT: "-1",
      // The webhooks test's receiver listens on loopback.
      VETTED_FETCH_ALLOW_PRIVATE: "true",
      // Lookups go to a closed loopback port and fail at once: the tests
      // reach no network, and hundreds of name-only vendors (the 500-vendor
      // list) must not keep the job runner busy with website discovery
      // waiting on DNS, ahead of the webhooks test's delivery.
      VETTED_SCAN_RESOLVER: "127.0.0.1:1",
    },
  }, {
    // The OpenID provider, and a second server that signs in with it only.
    command: op,
    url: `${issuer}.well-known/openid-configuration`,
    reuseExistingServer: false,
    env: { OP_PORT: opPort, OP_CLIENT_ID: "vetted-console", OP_REDIRECT_URI: `http://127.0.0.1:${oidcPort}/app/callback` },
  }, {
    command: `${bin} serve`,
    url: `http://127.0.0.1:${oidcPort}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      VETTED_STORE: "memory",
      VETTED_HTTP_ADDR: `127.0.0.1:${oidcPort}`,
      VETTED_DATA_DIR: join(outDir, "data-oidc"),
      VETTED_LOG_LEVEL: "warn",
      VETTED_AUTH_JWKS_URL: `${issuer}keys`,
      VETTED_AUTH_ISSUER: issuer,
      VETTED_AUTH_AUDIENCE: "vetted-console",
      VETTED_OIDC_ISSUER: issuer,
      VETTED_OIDC_CLIENT_ID: "vetted-console",
    },
  }],
});
