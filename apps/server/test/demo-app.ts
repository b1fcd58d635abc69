/**
 * The owner-API tests' shared setup: a fresh seeded app with the demo's owner signed in, started
 * before the file's tests and closed after them. A test file calls `useDemoApp()` at its top and
 * imports what it uses; the bindings are filled in once the file's tests run (each test file has
 * its own copy of this module).
 */
import { afterAll, beforeAll } from "vitest";
import { type Browser, type TestApp, type createTestApp, demoApp } from "./harness.js";

/** The app. */
export let t: TestApp;
/** The demo's owner, signed in. */
export let owner: Browser;
/** The demo site's id. */
export let siteId: string;
/** The owner API of the demo site: `/api/owner/sites/{siteId}`. */
export let siteApi: string;

/** The demo's owner sends `payload` to the demo site's owner API at `path` (below `siteApi`). */
export function ownerSends(method: "PATCH" | "POST" | "PUT", path: string, payload: object) {
  return owner.request({ method, url: `${siteApi}${path}`, payload });
}

/** Starts the app (options as createTestApp's) before the file's tests and closes it after them. */
export function useDemoApp(opts: Parameters<typeof createTestApp>[0] = {}): void {
  beforeAll(async () => {
    ({ t, owner, siteId } = await demoApp(opts));
    siteApi = `/api/owner/sites/${siteId}`;
  }, 60_000);
  afterAll(() => t?.close());
}
