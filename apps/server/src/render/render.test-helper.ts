/**
 * The published-site tests' shared setup: the seeded demo plus the render fixtures (more sites,
 * themes and content), browsers on each fixture site, and the JSON form of a page.
 */
import { afterAll, beforeAll } from "vitest";
import { Browser, type TestApp, completeTestMedia, createTestApp } from "../../test/harness.js";
import { type FixtureIds, seedRenderFixtures } from "./fixtures.js";

export let t0: TestApp;
export let fx: FixtureIds;
export const db = () => t0.database.db;

/** Starts the file's app with the fixtures before its tests and closes it after them. */
export function useRenderApp(): void {
  beforeAll(async () => {
    t0 = await createTestApp({ seed: true });
    fx = await seedRenderFixtures(db(), t0.config.dataDir);
    // The fixtures' images get their colour data now: otherwise an app built later on this
    // database (the page-cache test's second instance) completes them in the background, and
    // that late commit changes a fixture site's version in the middle of a test.
    await completeTestMedia(db(), t0.app.deps.media);
  }, 120_000);
  afterAll(() => t0.close());
}

export const demo = () => new Browser(t0.app, "localhost");
export const classic = () => new Browser(t0.app, "classic.localhost");
export const cover = () => new Browser(t0.app, "cover.localhost");
export const basic = () => new Browser(t0.app, "basic.localhost");

export async function json(b: Browser, url: string) {
  const res = await b.visit(`${url}${url.includes("?") ? "&" : "?"}format=json`);
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

export const count = (html: string, needle: string) => html.split(needle).length - 1;
