import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

// Built at install (scripts/build.mjs) into packages/web/dist; `board serve` serves it at `/`.
// No inline script or style: the app's pages carry a strict Content-Security-Policy.
export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    target: "es2022"
  },
  server: {
    // `pnpm --filter @board/web dev` against a local `board serve` on :8080
    proxy: { "/api": "http://127.0.0.1:8080" }
  }
})
