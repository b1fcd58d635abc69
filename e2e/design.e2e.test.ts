/**
 * A site's design in Chromium, under the published pages' Content-Security-Policy: the chosen
 * self-hosted fonts load, the :root tokens reach the buttons (pill, outline), the custom CSS
 * applies, the logo and the site icon show, with no policy violation; every theme at 1280 and
 * 432 px carries its data-theme. Served by an app started here on its own embedded database with
 * the demo, so the shared server's demo is untouched. Screenshots: e2e/screenshots/design-*.png.
 */
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { websites } from "../apps/server/src/db/schema.js";
import { updateDesign } from "../apps/server/src/modules/design/service.js";
import { uploadImage } from "../apps/server/src/modules/media/service.js";
import { THEME_NAMES } from "../apps/server/src/render/themes.js";
import { seedDemoIfEmpty } from "../apps/server/src/seed/demo.js";
import { DESKTOP, PHONE, browser, screenshot } from "./browser.js";
import { useOwnServer } from "./own-server.js";

const server = useOwnServer("design", (database, config) =>
  seedDemoIfEmpty(database.db, config, { now: () => new Date() }),
);
const base = () => `http://localhost:${server.port}`;

const site = async () =>
  (await server.database.db.select().from(websites).where(eq(websites.isDefault, true)))[0]!;

async function open(viewport: { width: number; height: number }) {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Failed to load resource/i.test(m.text())) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return { page, problems };
}

const style = (page: Page, selector: string, prop: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);

describe("a site's design in the browser", () => {
  it("loads the chosen fonts, tokens, custom CSS, logo and icon with no policy violation", async () => {
    const s = await site();
    const png = (color: string) =>
      sharp({ create: { width: 480, height: 160, channels: 3, background: color } })
        .png()
        .toBuffer();
    const logo = await uploadImage(server.database.db, server.app.deps.media, s.id, {
      filename: "logo.png",
      bytes: await png("#1b3a5c"),
    });
    const icon = await uploadImage(server.database.db, server.app.deps.media, s.id, {
      filename: "icon.png",
      bytes: await png("#c0392b"),
    });
    await updateDesign(server.database.db, s, {
      styles: {
        colors: { accent: "#0b6e4f" },
        fonts: { heading: "playfair-display", body: "lora" },
        buttonShape: "pill",
        buttonStyle: "outline",
      },
      customCss: ".site-footer{border-top:4px solid rgb(11, 110, 79)}",
      logoMediaId: logo.id,
      logoAlt: "Atelier",
      logoMaxHeight: 40,
      siteIconMediaId: icon.id,
    });
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, problems } = await open(viewport);
      await page.goto(`${base()}/`);
      await page.waitForLoadState("networkidle");
      await page.evaluate(() => document.fonts.ready);
      const fonts = await page.evaluate(() =>
        [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family.replace(/"/g, "")),
      );
      expect(new Set(fonts)).toEqual(new Set(["Playfair Display", "Lora"]));
      expect(await style(page, "h1", "font-family")).toContain("Playfair Display");
      expect(await style(page, "body", "font-family")).toContain("Lora");
      const button = ".block-button .button, .row-intro .button, main .button";
      expect(await style(page, button, "border-top-left-radius")).toBe("999px");
      expect(await style(page, button, "background-color")).toBe("rgba(0, 0, 0, 0)");
      expect(await style(page, button, "color")).toBe("rgb(11, 110, 79)");
      expect(await style(page, ".site-footer", "border-top-width")).toBe("4px");
      const img = page.locator("img.site-logo");
      expect(await img.getAttribute("alt")).toBe("Atelier");
      const box = await img.boundingBox();
      expect(box!.height).toBeLessThanOrEqual(40.5);
      expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      const iconHref = await page.locator('link[rel="icon"][sizes="32x32"]').getAttribute("href");
      expect((await page.request.get(`${base()}${iconHref}`)).status()).toBe(200);
      expect(problems).toEqual([]);
      await screenshot(page, `design-custom-${viewport.width}`);
      await page.close();
    }
    await updateDesign(server.database.db, await site(), {
      styles: null,
      customCss: "",
      logoMediaId: null,
      siteIconMediaId: null,
    });
  });

  it("renders every theme at 1280 and 432 px with its data-theme and its own stylesheet", async () => {
    for (const theme of THEME_NAMES) {
      await updateDesign(server.database.db, await site(), { theme });
      for (const viewport of [DESKTOP, PHONE]) {
        const { page, problems } = await open(viewport);
        await page.goto(`${base()}/shop`);
        await page.waitForLoadState("networkidle");
        expect(await page.locator("body").getAttribute("data-theme")).toBe(theme);
        const sheet = await page.locator('link[rel="stylesheet"]').first().getAttribute("href");
        expect(sheet).toMatch(new RegExp(`^/assets/themes/${theme}\\.[a-f0-9]{12}\\.css$`));
        // Nothing is wider than the window.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${theme} at ${viewport.width}`).toBeLessThanOrEqual(0);
        expect(problems).toEqual([]);
        await screenshot(page, `design-${theme}-shop-${viewport.width}`);
        await page.close();
      }
    }
  });
});
