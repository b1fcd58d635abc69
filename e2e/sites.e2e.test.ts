/**
 * The demo site's published pages in Chromium, on a desktop and a phone-sized window: every page
 * type renders from the commerce theme with its status, without script errors or sideways
 * scrolling, images load, and the pieces that need a browser work: the phone menu, the gallery
 * lightbox (Escape, close button, click outside, focus trap, scroll lock), search, the like
 * button and the header's cart count. Screenshots go to e2e/screenshots/sites-*.png.
 */
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, DEVICES, PHONE, screenshot, useBrowser, openPage, settle } from "./browser.js";

const base = inject("baseUrl");
useBrowser();

const PAGES: [name: string, path: string, status: number, pageType: number][] = [
  ["home", "/", 200, 2],
  ["shop", "/shop", 200, 1],
  ["shop-category", "/shop?category=Ceramics", 200, 1],
  ["product", "/shop/p/everyday-linen-shirt", 200, 50],
  ["product-sold-out", "/shop/p/merino-throw", 200, 50],
  ["blog", "/blog", 200, 1],
  ["post", "/blog/a-week-at-the-wheel", 200, 50],
  ["events", "/events", 200, 1],
  ["events-calendar", "/events?view=calendar", 200, 1],
  ["event", "/events/spring-open-studio", 200, 50],
  ["gallery", "/gallery", 200, 1],
  ["contact", "/contact", 200, 2],
  ["search", "/search?q=linen", 200, 102],
  ["cart", "/cart", 200, 200],
  ["checkout", "/checkout", 200, 201],
  ["order-confirmed", "/checkout/order-confirmed", 200, 202],
  ["not-found", "/no-such-page", 404, 100],
];

describe("the demo site's pages in a browser", () => {
  for (const [device, viewport] of DEVICES) {
    it(`renders every page type on ${device}`, async () => {
      const { page, errors } = await openPage(viewport);
      for (const [name, path, status, pageType] of PAGES) {
        errors.length = 0;
        const res = await page.goto(`${base}${path}`, { waitUntil: "networkidle" });
        expect(res?.status(), path).toBe(status);
        await expect(page.locator("body").getAttribute("data-page-type"), path).resolves.toBe(
          String(pageType),
        );
        await expect(page.title(), path).resolves.toContain("Atelier Demo");
        await settle(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} scrolls sideways on ${device}`).toBeLessThanOrEqual(0);
        const broken = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>("main img")]
            .filter((img) => img.complete && img.naturalWidth === 0)
            .map((img) => img.currentSrc || img.src),
        );
        expect(broken, `${path}: images that did not load`).toEqual([]);
        await screenshot(page, `sites-${name}-${device}`);
        expect(errors, `${path}: script errors`).toEqual([]);
      }
      await page.close();
    });
  }

  it("opens the phone menu with its button and navigates from it", async () => {
    const { page, errors } = await openPage(PHONE);
    await page.goto(`${base}/`);
    const nav = page.locator("#site-nav");
    await expect(nav.isVisible()).resolves.toBe(false);
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(nav.isVisible()).resolves.toBe(true);
    await screenshot(page, "sites-menu-phone");
    await page.getByRole("button", { name: "Close menu" }).click();
    await expect(nav.isVisible()).resolves.toBe(false);
    await page.getByRole("button", { name: "Menu" }).click();
    await nav.getByRole("link", { name: "Journal" }).click();
    await page.waitForURL(`${base}/blog`);
    await expect(page.getByRole("heading", { name: "Journal", level: 1 }).isVisible()).resolves.toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("opens gallery images in a lightbox that closes on Escape, its button and a click outside", async () => {
    const { page, errors } = await openPage(DESKTOP);
    await page.goto(`${base}/gallery`, { waitUntil: "networkidle" });
    const links = page.locator(".gallery-link");
    await expect(links.count()).resolves.toBe(8);
    const dialog = page.getByRole("dialog");

    await links.first().click();
    await expect(dialog.isVisible()).resolves.toBe(true);
    await expect(page.evaluate(() => document.documentElement.style.overflow)).resolves.toBe("hidden");
    await expect(dialog.locator(".lightbox-count").textContent()).resolves.toBe("1 / 8");
    // Focus stays inside the dialog.
    for (let i = 0; i < 5; i++) await page.keyboard.press("Tab");
    await expect(page.evaluate(() => Boolean(document.activeElement?.closest(".lightbox")))).resolves.toBe(
      true,
    );
    await page.getByRole("button", { name: "Next image" }).click();
    await expect(dialog.locator(".lightbox-count").textContent()).resolves.toBe("2 / 8");
    await page.keyboard.press("ArrowLeft");
    await expect(dialog.locator(".lightbox-count").textContent()).resolves.toBe("1 / 8");
    await screenshot(page, "sites-lightbox-desktop");
    await page.keyboard.press("Escape");
    await expect(dialog.count()).resolves.toBe(0);
    await expect(page.evaluate(() => document.documentElement.style.overflow)).resolves.toBe("");

    await links.nth(2).click();
    await page.getByRole("button", { name: "Close", exact: true }).click();
    await expect(dialog.count()).resolves.toBe(0);

    await links.nth(3).click();
    await page.mouse.click(40, 200);
    await expect(dialog.count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("searches from the search page", async () => {
    const { page, errors } = await openPage(PHONE);
    await page.goto(`${base}/search`);
    await page.getByRole("searchbox", { name: /Search/ }).fill("walnut");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/q=walnut/);
    await expect(page.getByRole("link", { name: "Walnut Serving Board" }).isVisible()).resolves.toBe(true);
    await expect(page.locator(".search-snippet mark").first().textContent()).resolves.toMatch(/walnut/i);
    await screenshot(page, "sites-search-results-phone");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("likes a post with the like button", async () => {
    const { page, errors } = await openPage(DESKTOP);
    await page.goto(`${base}/blog/caring-for-linen`, { waitUntil: "networkidle" });
    // Islands below the fold start as they come near the viewport, as a visitor scrolls.
    await page.locator(".like-island").scrollIntoViewIfNeeded();
    const like = page.getByRole("button", { name: "Like", exact: true });
    await like.waitFor();
    const before = Number((await page.locator(".like-count").textContent())!.split(" ")[0]);
    await like.click();
    await expect(
      page.getByRole("button", { name: "Liked", exact: true }).getAttribute("aria-pressed"),
    ).resolves.toBe("true");
    await expect(page.locator(".like-count").textContent()).resolves.toBe(
      `${before + 1} ${before + 1 === 1 ? "like" : "likes"}`,
    );
    await page.reload({ waitUntil: "networkidle" });
    await page.locator(".like-island").scrollIntoViewIfNeeded();
    await page.getByRole("button", { name: "Liked", exact: true }).waitFor();
    await page.getByRole("button", { name: "Liked", exact: true }).click();
    await page.getByRole("button", { name: "Like", exact: true }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the visitor's cart count in the header", async () => {
    const { page, errors } = await openPage(DESKTOP);
    await page.goto(`${base}/shop`, { waitUntil: "networkidle" });
    const added = await page.evaluate(async () => {
      const shop = await (await fetch("/shop?format=json")).json();
      const candle = shop.items.find((i: { urlId: string }) => i.urlId === "beeswax-candle");
      const crumb = document.cookie.match(/(?:^|; )crumb=([^;]+)/)?.[1] ?? "";
      const res = await fetch("/api/commerce/shopping-cart/entries", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": crumb },
        body: JSON.stringify({
          itemId: candle.id,
          sku: candle.structuredContent.variants[0].sku,
          quantity: 2,
        }),
      });
      return res.status;
    });
    expect(added).toBeLessThan(300);
    await page.goto(`${base}/blog`, { waitUntil: "networkidle" });
    await expect(page.locator(".header-cart [data-cart-count]").textContent()).resolves.toBe("2");
    await expect(page.locator(".header-cart").getAttribute("href")).resolves.toBe("/cart");
    await expect(page.locator(".header-cart").innerText()).resolves.toContain("2");
    expect(errors).toEqual([]);
    await page.close();
  });
});
