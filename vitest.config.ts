import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "apps/*/src/**/*.test.{ts,tsx}",
      "apps/*/test/**/*.test.ts",
    ],
    // One migrated database for the run, copied by each test file (apps/server/test/harness.ts).
    globalSetup: ["apps/server/test/global-setup.ts"],
    // Test files share a worker's loaded modules instead of importing the app again each (most
    // of a file's CPU time); test helpers with module state reset it in their beforeAll.
    isolate: false,
    // Many files wait on child processes and databases: two workers on two cores.
    maxWorkers: Math.max(2, availableParallelism()),
    // What a test stubs on globalThis (fetch, document) is put back after it, for the next file.
    unstubGlobals: true,
    testTimeout: 30000,
    hookTimeout: 60000,
  },
});
