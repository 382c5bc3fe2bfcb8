import { useEffect, useRef, useState, useSyncExternalStore, createContext, useContext, type ReactNode } from "react";
import { Navigate, Route, Routes, useLocation, useMatch, useNavigate, useParams, Link } from "react-router";
import { AppShell, Burger, Group, NavLink, Select, Text, Button, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./api/client";
import { claims, currentToken, onTokenChange, signOut, type ConsoleConfig } from "./auth";
import { SignInPage, CallbackPage } from "./pages/SignIn";
import { DashboardPage } from "./pages/Dashboard";
import { ListsPage } from "./pages/Lists";
import { ListPage } from "./pages/List";
import { ImportPage } from "./pages/Import";
import { VendorPage } from "./pages/Vendor";
import { AssessmentPage } from "./pages/Assessment";
import { MembersPage } from "./pages/Members";
import { SubscribersPage } from "./pages/Subscribers";
import { AdminPage } from "./pages/Admin";
import { ReviewsPage } from "./pages/Reviews";
import { WebhooksPage } from "./pages/Webhooks";
import { IncidentsPage } from "./pages/Incidents";
import { ContractsPage } from "./pages/Contracts";
import { PossiblePage } from "./pages/Possible";
import { focusHeading, pageName, titleText } from "./page";
import type { Schemas } from "./api/client";

const ConfigContext = createContext<ConsoleConfig>({ dev_sign_in: false, groups_claim: "groups", admin_group: "Admins", oidc: null });
export const useConfig = () => useContext(ConfigContext);

/** useIsAdmin says whether to offer platform-admin pages (the server still decides). */
export function useIsAdmin(): boolean {
  const cfg = useConfig();
  useSyncExternalStore(onTokenChange, currentToken);
  return claims(cfg.groups_claim).groups.includes(cfg.admin_group);
}

/** useRole is the caller's role in an account (undefined while unknown, and in the personal space). */
export function useRole(acc: string): Schemas["Role"] | undefined {
  const mine = useQuery({ queryKey: ["users"], queryFn: () => unwrap(api.GET("/users")) });
  return mine.data?.accounts?.find((a) => a.id === acc)?.role;
}

// What the page shows, when it knows better than its route ("Review of
// Globex"), for the tab's title.
const TitleContext = createContext<(t: { path: string; text: string } | null) => void>(() => {});

/** useTitle names the tab after what the page shows; the route's name until then. */
export function useTitle(text: string | undefined) {
  const set = useContext(TitleContext);
  const { pathname } = useLocation();
  useEffect(() => {
    if (!text) return;
    set({ path: pathname, text });
    return () => set(null);
  }, [set, pathname, text]);
}

// The account a page outside /a/<account> (a vendor opened by its old
// address) belongs to: the last one the tab showed.
const LAST_ACCOUNT = "vetted.account";

export function App({ config }: { config: ConsoleConfig }) {
  const token = useSyncExternalStore(onTokenChange, currentToken);
  const location = useLocation();
  return (
    <ConfigContext.Provider value={config}>
      <Routes>
        <Route path="/signin" element={<Titled><SignInPage /></Titled>} />
        <Route path="/callback" element={<CallbackPage />} />
        <Route
          path="*"
          element={token ? <Shell /> : <Navigate to="/signin" replace state={{ from: location.pathname + location.search }} />}
        />
      </Routes>
    </ConfigContext.Provider>
  );
}

/** Titled names the tab after the route, for the pages outside the shell. */
function Titled({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  useEffect(() => { document.title = titleText(pageName(pathname)); }, [pathname]);
  return <>{children}</>;
}

function Shell() {
  const [opened, { toggle }] = useDisclosure();
  const cfg = useConfig();
  const isAdmin = useIsAdmin();
  const { pathname } = useLocation();
  const acc = useMatch("/a/:acc/*")?.params.acc;
  const accounts = useQuery({ queryKey: ["users"], queryFn: () => unwrap(api.GET("/users")) });
  const [shown, setShown] = useState<{ path: string; text: string } | null>(null);
  useEffect(() => { if (acc) sessionStorage.setItem(LAST_ACCOUNT, acc); }, [acc]);
  const accountName = !acc ? undefined : acc === "individual" ? "Personal space" : accounts.data?.accounts?.find((a) => a.id === acc)?.name;
  const page = shown?.path === pathname ? shown.text : pageName(pathname);
  useEffect(() => { document.title = titleText(page, accountName); }, [page, accountName]);
  // After a navigation (not the first page: Tab then starts at the skip
  // link), focus goes to the new page's heading, once it is there.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) { first.current = false; return; }
    if (focusHeading()) return;
    const main = document.getElementById("main");
    if (!main) return;
    const seen = new MutationObserver(() => focusHeading() && seen.disconnect());
    seen.observe(main, { childList: true, subtree: true });
    return () => seen.disconnect();
  }, [pathname]);
  return (
    <TitleContext.Provider value={setShown}>
    <a href="#main" className="skip-link" onClick={(e) => { e.preventDefault(); document.getElementById("main")?.focus(); }}>Skip to content</a>
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: "sm", collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Title order={1} size="h3">
              <Link to="/" style={{ color: "inherit", textDecoration: "none" }}>Vetted</Link>
            </Title>
          </Group>
          <Group wrap="nowrap">
            {/* On a phone the header keeps the menu and Sign out; the e-mail needs the room. */}
            <Text size="sm" c="dimmed" visibleFrom="sm">{claims(cfg.groups_claim).email}</Text>
            <Button variant="default" size="xs" onClick={signOut}>Sign out</Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="md" aria-label="Main">
        <Routes>
          <Route path="/a/:acc/*" element={<AccountNav isAdmin={isAdmin} />} />
          <Route path="*" element={<AccountNav isAdmin={isAdmin} />} />
        </Routes>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} style={{ outline: "none" }}>
        <Routes>
          <Route path="/" element={<Navigate to="/a/individual" replace />} />
          <Route path="/a/:acc" element={<DashboardPage />} />
          <Route path="/a/:acc/lists" element={<ListsPage />} />
          <Route path="/a/:acc/incidents" element={<IncidentsPage />} />
          <Route path="/a/:acc/contracts" element={<ContractsPage />} />
          <Route path="/a/:acc/lists/:list" element={<ListPage />} />
          <Route path="/a/:acc/lists/:list/import" element={<ImportPage />} />
          <Route path="/a/:acc/lists/:list/subscribers" element={<SubscribersPage />} />
          <Route path="/a/:acc/lists/:list/vendors/:vendor/assessment" element={<AssessmentPage />} />
          <Route path="/a/:acc/members" element={<MembersPage />} />
          <Route path="/a/:acc/reviews" element={<ReviewsPage />} />
          <Route path="/a/:acc/webhooks" element={<WebhooksPage />} />
          <Route path="/a/:acc/vendors/:vendor" element={<VendorPage />} />
          <Route path="/vendors/:vendor" element={<VendorInAccount />} />
          <Route path="/admin" element={<AdminPage />} />
          <Route path="/admin/possible" element={<PossiblePage />} />
          <Route path="*" element={<Text>Nothing here. <Link to="/">Home</Link></Text>} />
        </Routes>
      </AppShell.Main>
    </AppShell>
    </TitleContext.Provider>
  );
}

/** VendorInAccount opens a vendor by its address outside an account in the account the tab was in. */
function VendorInAccount() {
  const { vendor = "" } = useParams();
  const acc = sessionStorage.getItem(LAST_ACCOUNT) ?? "individual";
  return <Navigate to={`/a/${encodeURIComponent(acc)}/vendors/${encodeURIComponent(vendor)}`} replace />;
}

function AccountNav({ isAdmin }: { isAdmin: boolean }) {
  const { acc = "individual" } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const accounts = useQuery({ queryKey: ["users"], queryFn: () => unwrap(api.GET("/users")) });
  const options = [
    { value: "individual", label: "Personal space" },
    ...(accounts.data?.accounts ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.role})` })),
  ];
  const here = (p: string) => location.pathname === p;
  return (
    <>
      <Select
        label="Account"
        data={options}
        value={acc}
        allowDeselect={false}
        onChange={(v) => v && navigate(`/a/${v}`)}
        mb="md"
      />
      <NavLink component={Link} to={`/a/${acc}`} label="Dashboard" active={here(`/a/${acc}`)} />
      <NavLink component={Link} to={`/a/${acc}/lists`} label="Lists" active={location.pathname.startsWith(`/a/${acc}/lists`)} />
      <NavLink component={Link} to={`/a/${acc}/incidents`} label="Incidents" active={here(`/a/${acc}/incidents`)} />
      <NavLink component={Link} to={`/a/${acc}/reviews`} label="Reviews due" active={here(`/a/${acc}/reviews`)} />
      <NavLink component={Link} to={`/a/${acc}/contracts`} label="Contracts" active={here(`/a/${acc}/contracts`)} />
      {acc !== "individual" && (
        <NavLink component={Link} to={`/a/${acc}/members`} label="Members and roles" active={here(`/a/${acc}/members`)} />
      )}
      <NavLink component={Link} to={`/a/${acc}/webhooks`} label="Webhooks" active={here(`/a/${acc}/webhooks`)} />
      {isAdmin && <NavLink component={Link} to="/admin" label="Platform admin" active={here("/admin")} />}
      {isAdmin && <NavLink component={Link} to="/admin/possible" label="Possible matches" active={here("/admin/possible")} />}
    </>
  );
}
