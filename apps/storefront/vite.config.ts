import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * The storefront bundle: one small entry that finds `[data-island]` elements in server-rendered
 * pages and hydrates the React island each names; islands are split into their own chunks.
 */
export default defineConfig({
  plugins: [react()],
  base: "/assets/storefront/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    target: "es2022",
    rollupOptions: {
      input: "src/main.ts",
      output: {
        // Content-hashed like every chunk, so all of them are cached as immutable.
        entryFileNames: "storefront-[hash].js",
        chunkFileNames: "chunks/[name]-[hash].js",
        assetFileNames: "[name]-[hash][extname]",
      },
    },
  },
});
