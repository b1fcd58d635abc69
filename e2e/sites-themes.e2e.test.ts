/**
 * The classic and cover themes in Chromium, on sites made for the renderer's tests (every block
 * type, galleries in every design, an album, a password-protected page, a cover page): served by
 * an app started in this test on its own embedded database, at classic.localhost and
 * cover.localhost. Screenshots go to e2e/screenshots/themes-*.png.
 */
import { describe, expect, it } from "vitest";
import { FIXTURE_PAGE_PASSWORD, seedRenderFixtures } from "../apps/server/src/render/fixtures.js";
import { DESKTOP, DEVICES, PHONE, openPage, screenshot, settle } from "./browser.js";
import { useOwnServer } from "./own-server.js";

const server = useOwnServer("themes", (database, _config, dataDir) =>
  seedRenderFixtures(database.db, dataDir),
);
const classic = () => `http://classic.localhost:${server.port}`;
const cover = () => `http://cover.localhost:${server.port}`;

const CLASSIC_PAGES: [string, string, number][] = [
  ["home", "/", 2],
  ["blocks", "/story", 2],
  ["folder", "/about-us", 1],
  ["journal", "/journal", 1],
  ["post", "/journal/tides", 50],
  ["readings", "/readings", 1],
  ["grid", "/gallery", 1],
  ["slideshow", "/slideshow", 1],
  ["slider", "/slider", 1],
  ["stacked", "/stacked", 1],
  ["album", "/sounds", 1],
  ["lock-screen", "/archive", 103],
  ["protected", "/friends", 105],
];

describe("the classic and cover themes in a browser", () => {
  for (const [device, viewport] of DEVICES) {
    it(`renders the classic theme's pages on ${device}`, async () => {
      const { page, errors } = await openPage(viewport);
      for (const [name, url, pageType] of CLASSIC_PAGES) {
        await page.goto(classic() + url, { waitUntil: "networkidle" });
        await expect(page.locator("body").getAttribute("data-page-type"), url).resolves.toBe(
          String(pageType),
        );
        await expect(page.locator("body").getAttribute("class"), url).resolves.toContain("theme-classic");
        await settle(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${url} scrolls sideways on ${device}`).toBeLessThanOrEqual(0);
        await screenshot(page, `themes-classic-${name}-${device}`);
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it(`renders the cover page on ${device}`, async () => {
      const { page, errors } = await openPage(viewport);
      await page.goto(cover(), { waitUntil: "networkidle" });
      await expect(page.locator("body").getAttribute("data-page-type")).resolves.toBe("3");
      await expect(page.getByRole("heading", { name: "Nova Quartet", level: 1 }).isVisible()).resolves.toBe(
        true,
      );
      await expect(page.getByRole("link", { name: "Book us" }).isVisible()).resolves.toBe(true);
      const box = await page.locator(".cover").boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(viewport.height - 1);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `themes-cover-${device}`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it("unlocks a password-protected page from its lock screen", async () => {
    const { page, errors } = await openPage(PHONE);
    await page.goto(`${classic()}/archive`);
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Unlock" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toBe("That password is incorrect.");
    await page.getByLabel("Password").fill(FIXTURE_PAGE_PASSWORD);
    await page.getByRole("button", { name: "Unlock" }).click();
    await page.waitForURL(`${classic()}/archive`);
    await expect(page.getByText("Secret letters from 1911.").isVisible()).resolves.toBe(true);
    await expect(page.locator("body").getAttribute("data-page-type")).resolves.toBe("2");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("moves a slideshow with its controls and thumbnails", async () => {
    const { page, errors } = await openPage(DESKTOP);
    await page.goto(`${classic()}/slideshow`, { waitUntil: "networkidle" });
    const counter = page.locator("[data-gallery-counter]");
    await expect(counter.textContent()).resolves.toBe("1 / 6");
    await page.getByRole("button", { name: "Next image" }).click();
    await expect.poll(() => counter.textContent(), { timeout: 5000 }).toBe("2 / 6");
    await page.getByRole("link", { name: "Show image 5" }).click();
    await expect.poll(() => counter.textContent(), { timeout: 5000 }).toBe("5 / 6");
    await page.getByRole("button", { name: "Previous image" }).click();
    await expect.poll(() => counter.textContent(), { timeout: 5000 }).toBe("4 / 6");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("plays an album's tracks with the audio player", async () => {
    const { page, errors } = await openPage(DESKTOP);
    await page.goto(`${classic()}/sounds`, { waitUntil: "networkidle" });
    const tracks = page.getByRole("list", { name: "Tracks of Harbour Sounds" }).getByRole("button");
    // The island replaces the server-rendered list once its chunk has loaded, which may be after network idle.
    await expect.poll(() => tracks.count(), { timeout: 10000 }).toBe(60);
    await tracks.nth(1).click();
    await expect
      .poll(() => page.locator(".audio-player audio").evaluate((a: HTMLAudioElement) => a.paused))
      .toBe(false);
    await expect.poll(() => page.getByRole("button", { name: /^Pause Track 2/ }).isVisible()).toBe(true);
    await page.getByRole("button", { name: /^Pause Track 2/ }).click();
    await expect
      .poll(() => page.locator(".audio-player audio").evaluate((a: HTMLAudioElement) => a.paused))
      .toBe(true);
    await page.getByRole("button", { name: "Next track" }).click();
    await expect.poll(() => page.locator(".audio-meta strong").textContent()).toMatch(/^Track 3/);
    await screenshot(page, "themes-classic-album-playing-desktop");
    expect(errors).toEqual([]);
    await page.close();
  });
});
