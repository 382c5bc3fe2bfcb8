import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The console is served by `vetted serve` under /app/; its built files are
// committed in ../dist/ and embedded in the Go binary (apps/console/console.go).
export default defineConfig({
  base: "/app/",
  plugins: [react()],
  build: { outDir: "../dist", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1024 },
  server: { proxy: { "^/(?!app/|src/|@|node_modules/).*": "http://127.0.0.1:8080" } },
  test: { environment: "node", include: ["src/**/*.test.ts"] },
});
