/**
 * Product feeds: the owner copies the Instagram and dynamic ads feed addresses from the store
 * settings, and each address answers the catalog of the live store.
 */
import { describe, expect, inject, it } from "vitest";
import { DEVICES, screenshot, browser, useBrowser } from "./browser.js";
import { demoOwnerLogIn } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

describe("product feeds", () => {
  for (const [name, viewport] of DEVICES) {
    it(`copies the feed addresses from the store settings, and they answer the catalog (${name})`, async () => {
      const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base, viewport);
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
      await page.goto(`${base}/config/sites/${siteId}/store`);
      const card = page.getByRole("region", { name: "Product feeds" });
      const instagram = card.getByRole("textbox", { name: "Instagram shopping feed" });
      await instagram.waitFor();
      const url = await instagram.inputValue();
      expect(url).toMatch(/\/api\/commerce\/feeds\/instagram\.xml$/);
      await card.getByRole("button", { name: "Copy the Instagram shopping feed address" }).click();
      await card.getByText("Copied").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      await card.getByText("Copied").scrollIntoViewIfNeeded();
      await screenshot(page, `dashboard-store-feeds-${name}`);

      const ads = await card.getByRole("textbox", { name: "Dynamic ads feed" }).inputValue();
      for (const feed of [url, ads]) {
        const res = await fetch(feed.replace(/^https?:\/\/[^/]+/, base));
        expect(res.status).toBe(200);
        const xml = await res.text();
        expect(xml).toContain('<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">');
        expect(xml).toContain("<g:brand>Atelier Demo</g:brand>");
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
