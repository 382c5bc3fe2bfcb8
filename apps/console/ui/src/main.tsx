import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { MantineProvider, createTheme, type CSSVariablesResolver } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createBrowserRouter, RouterProvider } from "react-router";
import "@mantine/core/styles.css";
import "./console.css";
import { App } from "./App";
import { fromOpenTab, loadConfig } from "./auth";
import { Problem } from "./api/client";

// Shades dark enough for WCAG AA contrast (4.5:1) on white, text on the
// primary colour, dimmed text, and a field's error (and its text).
const theme = createTheme({ primaryColor: "blue", primaryShade: 8 });
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-dimmed": "#495057", "--mantine-color-anchor": "#1864ab", "--mantine-color-error": "#c92a2a" },
  dark: {},
});

const queries = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      retry: (n, err) => !(err instanceof Problem && err.status < 500) && n < 2,
    },
  },
});

Promise.all([loadConfig(), fromOpenTab()]).then(([cfg]) => {
  // A data router (one route, the app's own <Routes> inside) for useBlocker:
  // unsaved review edits ask before an in-app navigation.
  const router = createBrowserRouter([{ path: "*", element: <App config={cfg} /> }], { basename: "/app" });
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={contrast}>
        <QueryClientProvider client={queries}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
});
