/**
 * Being found, from the dashboard: an owner gives a product an SEO title and sees it in the
 * search preview and on the page, changes its address and the old one answers 301, adds a URL
 * mapping (a loop is refused with the server's message), and hides the site from search engines.
 */
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, PHONE, screenshot, browser, useBrowser } from "./browser.js";
import { demoOwnerLogIn, ownerCall } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

describe("search engines, from the dashboard", () => {
  it("edits a product's SEO title with a live preview, and a changed address redirects with 301", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const found = await ownerCall<{ products: { id: string; title: string }[] }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/products?q=walnut`,
    );
    const board = found.products[0]!;
    await page.goto(`${base}/config/sites/${siteId}/products/${board.id}`);
    const seoTitle = page.getByLabel("SEO title");
    await seoTitle.waitFor();
    await seoTitle.fill("Walnut board for bread and cheese");
    await expect
      .poll(() => page.getByTestId("seo-preview-title").textContent())
      .toBe("Walnut board for bread and cheese — Atelier Demo");
    await page.getByLabel("SEO description").fill("Oiled walnut, cut and finished by hand in New York.");
    await page.getByLabel("URL slug").fill("walnut-board");
    await screenshot(page, "dashboard-seo-product-desktop");
    await page.getByRole("button", { name: "Save product" }).click();
    await page.getByText("Product saved.", { exact: false }).first().waitFor();

    const live = await fetch(`${base}/shop/p/walnut-board`);
    const html = await live.text();
    expect(html).toContain("<title>Walnut board for bread and cheese — Atelier Demo</title>");
    expect(html).toContain('content="Oiled walnut, cut and finished by hand in New York."');
    const old = await fetch(`${base}/shop/p/walnut-serving-board`, { redirect: "manual" });
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe("/shop/p/walnut-board");
    // A visitor with the old link lands on the product.
    const visitor = await browser.newPage();
    await visitor.goto(`${base}/shop/p/walnut-serving-board`);
    expect(new URL(visitor.url()).pathname).toBe("/shop/p/walnut-board");
    await visitor.close();
    await page.setViewportSize(PHONE);
    await screenshot(page, "dashboard-seo-product-phone");
    await page.setViewportSize(DESKTOP);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("hides one page from search engines in its settings, with the search preview", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const { pages } = await ownerCall<{ pages: { id: string; urlSlug: string }[] }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/pages`,
    );
    const events = pages.find((p) => p.urlSlug === "events")!;
    await page.goto(`${base}/config/sites/${siteId}/pages/${events.id}`);
    await page.getByLabel("SEO title").fill("Open studios and workshops");
    await expect
      .poll(() => page.getByTestId("seo-preview-title").textContent())
      .toBe("Open studios and workshops — Atelier Demo");
    await page.getByLabel("Hide from search engines").check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Page settings saved.").waitFor();
    await screenshot(page, "dashboard-seo-page-settings");
    const html = await (await fetch(`${base}/events`)).text();
    expect(html).toContain("<title>Open studios and workshops — Atelier Demo</title>");
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(await (await fetch(`${base}/sitemap.xml`)).text()).not.toContain("/events<");
    await page.getByLabel("Hide from search engines").uncheck();
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect
      .poll(async () => (await (await fetch(`${base}/events`)).text()).includes('content="noindex"'))
      .toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("adds URL mappings, refuses a loop with the server's message, and hides the site from search engines", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await page.goto(`${base}/config/sites/${siteId}/settings/url-mappings`);
    await page.getByRole("heading", { name: "URL mappings" }).waitFor();
    await page.getByLabel("Old address").fill("/old-contact");
    await page.getByLabel("New address").fill("/contact");
    await page.getByRole("button", { name: "Add mapping" }).click();
    const table = page.locator("table.data");
    await expect.poll(() => table.getByText("/old-contact", { exact: true }).count()).toBe(1);
    await page.getByLabel("Old address").fill("/contact-us");
    await page.getByLabel("New address").fill("/old-contact");
    await page.getByRole("button", { name: "Add mapping" }).click();
    // The form empties once the server has the mapping: fill it again only then.
    await expect.poll(() => table.getByText("/contact-us", { exact: true }).count()).toBe(1);
    await page.getByLabel("Old address").fill("/old-contact-2");
    await page.getByLabel("New address").fill("/contact-us");
    await page.getByRole("button", { name: "Add mapping" }).click();
    await expect.poll(() => table.getByText("/old-contact-2", { exact: true }).count()).toBe(1);
    // /contact-us → /old-contact → /contact is fine; /old-contact → /old-contact-2 would loop.
    const removeOld = page.getByRole("button", { name: "Remove the mapping from /old-contact", exact: true });
    await removeOld.click();
    await expect.poll(() => removeOld.count()).toBe(0);
    await page.getByLabel("Old address").fill("/old-contact");
    await page.getByLabel("New address").fill("/old-contact-2");
    await page.getByRole("button", { name: "Add mapping" }).click();
    await expect
      .poll(() => page.getByRole("alert").first().textContent())
      .toBe(
        "This redirect would send visitors round in a loop: /old-contact → /old-contact-2 → /contact-us → /old-contact.",
      );
    await screenshot(page, "dashboard-url-mappings-desktop");
    await page.setViewportSize(PHONE);
    await screenshot(page, "dashboard-url-mappings-phone");
    await page.setViewportSize(DESKTOP);

    await page.goto(`${base}/config/sites/${siteId}/settings`);
    await page.getByLabel("Hide this site from search engines").check();
    await page.getByRole("button", { name: "Save site settings" }).click();
    await page.getByText("Site settings saved.").waitFor();
    expect(await (await fetch(`${base}/robots.txt`)).text()).toBe("User-agent: *\nDisallow: /\n");
    await page.getByLabel("Hide this site from search engines").uncheck();
    await page.getByRole("button", { name: "Save site settings" }).click();
    await expect.poll(async () => (await fetch(`${base}/robots.txt`)).text()).toContain("Sitemap:");
    expect(errors).toEqual([]);
    await context.close();
  });
});
