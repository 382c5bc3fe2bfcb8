// Sign-in state. Tokens live in sessionStorage (never localStorage): they
// survive a reload of the tab and die with it. A new tab of the console
// (sessionStorage is per tab) asks the open ones for theirs over a
// BroadcastChannel, which only pages of this origin in this browser
// profile reach; signing out in one tab signs out all. Two ways in: the dev form
// (only while the server has dev tokens on: it mints a token as `vetted
// token` does) and OpenID Connect authorization code + PKCE through
// oidc-client-ts, whose user store is sessionStorage too.
import { UserManager, WebStorageStateStore, type User } from "oidc-client-ts";

export type ConsoleConfig = {
  dev_sign_in: boolean;
  groups_claim: string;
  admin_group: string;
  oidc: { issuer: string; client_id: string; scope: string } | null;
};

const KEY = "vetted.token";
const listeners = new Set<() => void>();
let manager: UserManager | null = null;

export function currentToken(): string | null {
  return sessionStorage.getItem(KEY);
}

function setToken(token: string | null, tell = true) {
  if (token) sessionStorage.setItem(KEY, token);
  else sessionStorage.removeItem(KEY);
  if (!token && tell) channel?.postMessage({ type: "signed-out" });
  listeners.forEach((l) => l());
}

// The hand-over between tabs: a tab without a token asks; a signed-in tab
// answers with its token; a sign-out is heard by every tab.
type Message = { type: "ask" } | { type: "token"; token: string } | { type: "signed-out" };
const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("vetted.session");
let asking: ((token: string) => void) | null = null;
if (channel) {
  channel.onmessage = (e: MessageEvent<Message>) => {
    const m = e.data;
    const mine = currentToken();
    if (m.type === "ask" && mine) channel.postMessage({ type: "token", token: mine } satisfies Message);
    else if (m.type === "token" && asking && !mine) asking(m.token);
    else if (m.type === "signed-out" && mine) setToken(null, false);
  };
}

/**
 * fromOpenTab takes the sign-in of another open tab of the console, when
 * this one has none: it asks, and waits up to `wait` ms for an answer (none
 * comes when no tab is signed in).
 */
export function fromOpenTab(wait = 400): Promise<void> {
  if (!channel || currentToken()) return Promise.resolve();
  return new Promise((done) => {
    const stop = () => { asking = null; done(); };
    const timer = setTimeout(stop, wait);
    asking = (token) => { clearTimeout(timer); setToken(token, false); stop(); };
    channel.postMessage({ type: "ask" } satisfies Message);
  });
}

export function onTokenChange(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export async function loadConfig(): Promise<ConsoleConfig> {
  const res = await fetch("/app/config.json");
  if (!res.ok) throw new Error(`console configuration: HTTP ${res.status}`);
  const cfg = (await res.json()) as ConsoleConfig;
  if (cfg.oidc) {
    manager = new UserManager({
      authority: cfg.oidc.issuer,
      client_id: cfg.oidc.client_id,
      redirect_uri: `${location.origin}/app/callback`,
      post_logout_redirect_uri: `${location.origin}/app/signin`,
      response_type: "code",
      scope: cfg.oidc.scope,
      userStore: new WebStorageStateStore({ store: window.sessionStorage }),
      automaticSilentRenew: true,
    });
    manager.events.addUserLoaded((u: User) => setToken(u.id_token ?? u.access_token));
    manager.events.addAccessTokenExpired(() => setToken(null));
  }
  return cfg;
}

/** devSignIn asks the server for a dev token for an e-mail. */
export async function devSignIn(email: string, admin: boolean): Promise<void> {
  const res = await fetch("/app/dev-token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, admin }),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.detail || body.title || `HTTP ${res.status}`);
  setToken(body.token);
}

export async function oidcSignIn(): Promise<void> {
  if (!manager) throw new Error("OpenID Connect is not configured");
  await manager.signinRedirect();
}

export async function oidcCallback(): Promise<void> {
  if (!manager) throw new Error("OpenID Connect is not configured");
  const user = await manager.signinRedirectCallback();
  // The API verifies the ID token's signature, issuer and audience (the client id).
  setToken(user.id_token ?? user.access_token);
}

export function signOut(): void {
  const wasOIDC = manager !== null && currentToken() !== null;
  setToken(null);
  if (wasOIDC && manager) void manager.removeUser();
}

/**
 * claims reads the token's payload for display only (what the page offers);
 * the server decides what the caller may do.
 */
export function claims(groupsClaim: string): { email?: string; groups: string[] } {
  const t = currentToken();
  if (!t) return { groups: [] };
  try {
    const part = t.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const c = JSON.parse(atob(part));
    const g = c[groupsClaim];
    return { email: c.email, groups: Array.isArray(g) ? g.filter((x: unknown) => typeof x === "string") : [] };
  } catch {
    return { groups: [] };
  }
}
