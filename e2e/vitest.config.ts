import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = path.dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here).filter((f) => f.endsWith(".e2e.test.ts"));
/** Files that start a server of their own (own-server.ts) and need not the shared demo server. */
const ownServer = files.filter((f) =>
  readFileSync(path.join(here, f), "utf8").includes('from "./own-server.js"'),
);

/**
 * E2E_GROUP picks the files: `own-server` (each file its own server), `shared-server` (the rest,
 * one at a time on the demo server of global-setup.ts), or, unset, all of them. The package's
 * test script runs the two groups at once, one Chromium each.
 */
const group = process.env.E2E_GROUP;
const slowdown = process.env.CI ? 3 : 1;
if (group && group !== "own-server" && group !== "shared-server") {
  throw new Error(`E2E_GROUP is own-server or shared-server, not ${group}`);
}

export default defineConfig({
  // Each group keeps its own results cache: the two Vitests, ending at once, would write one file.
  cacheDir: group ? path.join(here, "../node_modules/.vite/e2e", group) : undefined,
  test: {
    include:
      group === "own-server"
        ? ownServer
        : group === "shared-server"
          ? files.filter((f) => !ownServer.includes(f))
          : ["**/*.e2e.test.ts"],
    globalSetup: group === "own-server" ? [] : ["./global-setup.ts"],
    // Three times as long in CI, as browser.ts's SLOWDOWN gives Playwright's waits.
    testTimeout: slowdown * 60_000,
    hookTimeout: slowdown * 120_000,
    expect: { poll: { timeout: slowdown * 5_000 } },
    // In CI a loaded machine (two groups, Chromium and the PostgreSQL suite on two cores) can make a
    // browser step miss its timeout: a failed test runs once more there, and fails if it fails again.
    retry: process.env.CI ? 1 : 0,
    // One server and one browser at a time within a group: the machine has two cores.
    fileParallelism: false,
  },
});
