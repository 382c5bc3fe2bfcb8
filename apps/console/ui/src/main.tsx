import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { MantineProvider, createTheme, type CSSVariablesResolver } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { BrowserRouter } from "react-router";
import "@mantine/core/styles.css";
import { App } from "./App";
import { loadConfig } from "./auth";
import { Problem } from "./api/client";

// Shades dark enough for WCAG AA contrast (4.5:1) on white, text on the
// primary colour, and dimmed text.
const theme = createTheme({ primaryColor: "blue", primaryShade: 8 });
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-dimmed": "#495057", "--mantine-color-anchor": "#1864ab" },
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

loadConfig().then((cfg) => {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={contrast}>
        <QueryClientProvider client={queries}>
          <BrowserRouter basename="/app">
            <App config={cfg} />
          </BrowserRouter>
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
});
