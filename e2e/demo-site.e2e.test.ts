import { describe, expect, inject, it } from "vitest";
import { DEVICES, screenshot, browser, useBrowser } from "./browser.js";

const base = inject("baseUrl");
useBrowser();

describe("the demo site in a browser", () => {
  for (const [name, viewport] of DEVICES) {
    it(`shows the home page, the shop and a product on ${name}`, async () => {
      const page = await browser.newPage({ viewport });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${base}/`);
      await expect(page.title()).resolves.toContain("Atelier Demo");
      await screenshot(page, `home-${name}`);
      await page.getByRole("link", { name: "Shop", exact: true }).first().click();
      await page.waitForURL(`${base}/shop`);
      await expect(page.getByText("Linen Work Apron").first().isVisible()).resolves.toBe(true);
      await screenshot(page, `shop-${name}`);
      await page.getByText("Linen Work Apron").first().click();
      await page.waitForURL(`${base}/shop/p/linen-work-apron`);
      await expect(page.getByRole("heading", { name: "Linen Work Apron" }).isVisible()).resolves.toBe(true);
      await screenshot(page, `product-${name}`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
