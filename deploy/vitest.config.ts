import { defineConfig } from "vitest/config";

// The cluster test: real nginx, PostgreSQL and s3rver (npm run test:cluster; CI runs it).
export default defineConfig({
  test: {
    include: ["deploy/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
