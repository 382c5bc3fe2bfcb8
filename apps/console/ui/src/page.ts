// What each page is called, for the tab's title ("Reviews due · Acme ·
// Vetted"), and where focus goes when a page opens or a form is saved:
// its heading, so a screen reader says where the person is.

const PAGES: [RegExp, string][] = [
  [/^\/signin$/, "Sign in"],
  [/^\/callback$/, "Signing in"],
  [/^\/a\/[^/]+$/, "Dashboard"],
  [/^\/a\/[^/]+\/lists$/, "Lists"],
  [/^\/a\/[^/]+\/incidents$/, "Incidents"],
  [/^\/a\/[^/]+\/lists\/[^/]+$/, "List"],
  [/^\/a\/[^/]+\/lists\/[^/]+\/import$/, "CSV import"],
  [/^\/a\/[^/]+\/lists\/[^/]+\/subscribers$/, "Alert subscribers"],
  [/^\/a\/[^/]+\/lists\/[^/]+\/vendors\/[^/]+\/assessment$/, "Review"],
  [/^\/a\/[^/]+\/vendors\/[^/]+$/, "Vendor"],
  [/^\/vendors\/[^/]+$/, "Vendor"],
  [/^\/a\/[^/]+\/members$/, "Members and roles"],
  [/^\/a\/[^/]+\/reviews$/, "Reviews due"],
  [/^\/a\/[^/]+\/webhooks$/, "Webhooks"],
  [/^\/admin$/, "Platform admin"],
  [/^\/admin\/possible$/, "Possible matches"],
];

/** pageName is the page a path (under /app) shows. */
export function pageName(pathname: string): string {
  const p = pathname.replace(/\/+$/, "") || "/";
  return PAGES.find(([re]) => re.test(p))?.[1] ?? "Not found";
}

/** titleText is the tab's title: the page (or what it shows), the account, the product. */
export function titleText(page: string, account?: string): string {
  return [page, account, "Vetted"].filter(Boolean).join(" · ");
}

/** focusHeading moves focus to the page's heading (the first h2 of main); false while there is none yet. */
export function focusHeading(): boolean {
  const h = document.querySelector<HTMLElement>("main h2, main h1");
  if (!h) return false;
  h.tabIndex = -1;
  h.focus();
  return true;
}
