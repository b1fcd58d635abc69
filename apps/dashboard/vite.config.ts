import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The owner dashboard: a single-page app served by the server at /config. */
export default defineConfig({
  plugins: [react()],
  base: "/config/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 900,
    // Its time tells `npm start` the build is current (scripts/build-frontends.mjs).
    manifest: true,
  },
});
