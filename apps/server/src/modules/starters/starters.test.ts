import { describe, expect, it } from "vitest";
import { t, useDemoApp } from "../../../test/demo-app.js";
import { Browser, signedUpOwner } from "../../../test/harness.js";
import { published } from "../owner-sites/published.test-helper.js";
import { MSG_SAMPLE_PRODUCT } from "../cart/service.js";
import { STARTERS } from "./catalog.js";

useDemoApp();

/** A new owner's site from a starter (or a bare theme): its id and host. */
async function newSite(owner: Browser, payload: Record<string, unknown>) {
  const started = performance.now();
  const res = await owner.request({ method: "POST", url: "/api/owner/sites", payload });
  const ms = Math.round(performance.now() - started);
  expect(res.statusCode, res.body).toBe(201);
  const site = res.json().site;
  return { id: site.id as string, host: new URL(site.url).host, site, ms };
}

const live = (path: string, host: string) => published(t.app, path, (r) => r.status === 200, host);

describe("starters", () => {
  it("lists at least six starters, each with a theme, a website type and a real screenshot", async () => {
    const owner = await signedUpOwner(t, "starter-list@example.com");
    const res = await owner.request({ url: "/api/owner/starters" });
    expect(res.statusCode).toBe(200);
    const starters = res.json().starters as { id: string; theme: string; screenshotUrl: string }[];
    expect(starters.length).toBeGreaterThanOrEqual(6);
    expect(new Set(starters.map((s) => s.theme)).size).toBe(6);
    for (const s of starters) {
      expect(s).toMatchObject({ name: expect.any(String), description: expect.any(String) });
      const shot = await t.app.inject({ url: s.screenshotUrl });
      expect(shot.statusCode).toBe(200);
      expect(shot.headers["content-type"]).toContain("image/svg+xml");
      expect(shot.body).toMatch(/^<svg [^>]*width="1280" height="800"/);
    }
    expect((await t.app.inject({ url: "/api/starters/nope/screenshot.svg" })).statusCode).toBe(404);
    const anon = new Browser(t.app);
    expect((await anon.request({ url: "/api/owner/starters" })).statusCode).toBe(401);
  });

  it("creates a finished-looking site from each starter, its content marked sample", async () => {
    const owner = await signedUpOwner(t, "starter-each@example.com");
    const figures: string[] = [];
    for (const starter of STARTERS) {
      const { id, host, site, ms } = await newSite(owner, { title: starter.name, starter: starter.id });
      figures.push(`${starter.id} ${ms} ms`);
      expect(site).toMatchObject({ theme: starter.theme, websiteType: starter.websiteType });
      const pages = (await owner.request({ url: `/api/owner/sites/${id}/pages` })).json().pages;
      expect(pages.length).toBe(starter.pages.length);
      for (const page of starter.pages) {
        const path = page.isHome ? "/" : `/${page.slug}`;
        const res = await live(path, host);
        expect(res.status, `${starter.id} ${path}`).toBe(200);
        const html = await t.app.inject({ url: path, headers: { host } });
        expect(html.statusCode).toBe(200);
        // Every block shows something: no empty band on a starter's pages.
        expect(html.body).not.toContain("block-placeholder");
      }
      const media = await owner.request({ url: `/api/owner/websites/${id}/media` });
      const images = media.json().media as { isSample: boolean }[];
      expect(images.length).toBeGreaterThan(0);
      expect(images.every((m) => m.isSample)).toBe(true);
    }
    console.log(`created from a starter: ${figures.join(", ")}`);
  });

  it("accepts every theme at creation, with or without a starter", async () => {
    const owner = await signedUpOwner(t, "starter-themes@example.com");
    for (const theme of ["commerce", "market", "classic", "harvest", "studio", "cover"]) {
      const { site } = await newSite(owner, { title: `Theme ${theme}`, theme, timeZone: "Europe/Paris" });
      expect(site.theme).toBe(theme);
    }
    const { site } = await newSite(owner, { title: "Cafe in studio", starter: "cafe", theme: "studio" });
    expect(site.theme).toBe("studio");
    const bad = await owner.request({
      method: "POST",
      url: "/api/owner/sites",
      payload: { title: "X", starter: "spaceship" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^Starter must be one of: Online-store, Portfolio, /);
  });

  it("shows sample products as Sample, refuses them in the cart, and removes all sample content", async () => {
    const owner = await signedUpOwner(t, "starter-sample@example.com");
    const { id, host } = await newSite(owner, { title: "Sample Store", starter: "online-store" });
    const shop = await live("/shop", host);
    const item = shop.json.items[0];
    expect(item.isSample).toBe(true);
    const shopHtml = await t.app.inject({ url: "/shop", headers: { host } });
    expect(shopHtml.body).toContain('<span class="badge badge-sample">Sample</span>');
    const productHtml = await t.app.inject({ url: item.fullUrl, headers: { host } });
    expect(productHtml.body).toContain("This is a sample product");
    expect(productHtml.body).not.toContain('data-island="product-form"');

    const visitor = new Browser(t.app, host);
    await visitor.visit("/");
    const add = await visitor.request({
      method: "POST",
      url: "/api/commerce/shopping-cart/entries",
      payload: { itemId: item.id, sku: item.structuredContent.variants[0].sku, quantity: 1 },
    });
    expect(add.statusCode).toBe(400);
    expect(add.json().error).toEqual({ code: "sample_product", message: MSG_SAMPLE_PRODUCT });

    const removed = await owner.request({ method: "DELETE", url: `/api/owner/sites/${id}/sample-content` });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().removed).toEqual({ items: 6, products: 6, images: 9 });
    const again = await owner.request({ method: "DELETE", url: `/api/owner/sites/${id}/sample-content` });
    expect(again.json().removed).toEqual({ items: 0, products: 0, images: 0 });

    // The home page's summary of the now empty shop is left out: no empty band, no heading.
    const home = await published(
      t.app,
      "/",
      (r) => !JSON.stringify(r.json ?? "").includes("isSummaryBlock"),
      host,
    );
    expect(JSON.stringify(home.json)).not.toContain("isSummaryBlock");
    const homeHtml = await t.app.inject({ url: "/", headers: { host } });
    expect(homeHtml.body).not.toContain("block-summary");
    expect(homeHtml.body).not.toContain("New in the shop");
    expect(homeHtml.body).not.toContain("block-placeholder");
    // In the editing frame the owner sees what to add instead.
    owner.cookies.set("atelier_expanded_frame", "1");
    const frame = await owner.request({ url: "/", headers: { host } });
    owner.cookies.delete("atelier_expanded_frame");
    expect(frame.body).toContain("Summary block: “Shop” has no products yet.");

    // Another owner can neither remove this site's samples nor read its guide.
    const other = await signedUpOwner(t, "starter-other@example.com");
    expect(
      (await other.request({ method: "DELETE", url: `/api/owner/sites/${id}/sample-content` })).statusCode,
    ).toBe(404);
    expect((await other.request({ url: `/api/owner/sites/${id}/setup` })).statusCode).toBe(404);
  });

  it("renders nothing for a summary of an empty collection on the live site", async () => {
    const owner = await signedUpOwner(t, "starter-empty@example.com");
    const { host } = await newSite(owner, { title: "Bare Shop", theme: "commerce" });
    const home = await live("/", host);
    expect(JSON.stringify(home.json)).not.toContain("isSummaryBlock");
    const html = await t.app.inject({ url: "/", headers: { host } });
    expect(html.statusCode).toBe(200);
    expect(html.body).not.toContain("block-summary");
    expect(html.body).not.toContain("New in the shop");
  });
});

describe("setup guide", () => {
  it("computes its steps from the site's data, ticks the first real product and can be dismissed", async () => {
    const owner = await signedUpOwner(t, "guide@example.com");
    const { id } = await newSite(owner, { title: "Guided Store", starter: "online-store" });
    const guide = async () => (await owner.request({ url: `/api/owner/sites/${id}/setup` })).json();
    const first = await guide();
    expect(first.dismissed).toBe(false);
    expect(first.steps.map((s: { id: string }) => s.id)).toEqual([
      "title-logo",
      "first-product",
      "shipping-tax",
      "payments",
      "domain",
      "own-page",
      "publish",
    ]);
    const done = (g: { steps: { id: string; done: boolean }[] }, step: string) =>
      g.steps.find((s) => s.id === step)?.done;
    // Sample products are not the owner's first product.
    expect(done(first, "first-product")).toBe(false);
    for (const s of first.steps) expect(s.href).toMatch(new RegExp(`^/sites/${id}/`));

    const pages = (await owner.request({ url: `/api/owner/sites/${id}/pages` })).json().pages;
    const shop = pages.find((p: { kind: string }) => p.kind === "products");
    const product = await owner.request({
      method: "POST",
      url: `/api/owner/sites/${id}/products`,
      payload: {
        collectionId: shop.id,
        title: "My First Real Product",
        productType: 1,
        variants: [{ sku: "REAL-1", priceCents: 2500, qtyInStock: 3 }],
      },
    });
    expect(product.statusCode, product.body).toBeLessThan(300);
    const domain = await owner.request({
      method: "POST",
      url: `/api/owner/sites/${id}/domains`,
      payload: { host: "guided-store.example.com" },
    });
    expect(domain.statusCode).toBe(201);
    const page = await owner.request({
      method: "POST",
      url: `/api/owner/sites/${id}/pages`,
      payload: { kind: "page", title: "Our Story" },
    });
    expect(page.statusCode).toBeLessThan(300);
    const after = await guide();
    expect(done(after, "first-product")).toBe(true);
    // Added but not verified: the domain step waits (domains.test.ts ticks it once verified).
    expect(done(after, "domain")).toBe(false);
    expect(done(after, "own-page")).toBe(true);
    expect(done(after, "publish")).toBe(false);

    const close = await owner.request({
      method: "PUT",
      url: `/api/owner/sites/${id}/setup`,
      payload: { dismissed: true },
    });
    expect(close.statusCode).toBe(200);
    expect(close.json().dismissed).toBe(true);
    expect((await guide()).dismissed).toBe(true);
    const bad = await owner.request({
      method: "PUT",
      url: `/api/owner/sites/${id}/setup`,
      payload: { dismissed: "yes" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe("Dismissed must be true or false.");
  });

  it("leaves the store steps out of a site that is not a store", async () => {
    const owner = await signedUpOwner(t, "guide-portfolio@example.com");
    const { id } = await newSite(owner, { title: "Guided Portfolio", starter: "portfolio" });
    const res = await owner.request({ url: `/api/owner/sites/${id}/setup` });
    expect(res.json().steps.map((s: { id: string }) => s.id)).toEqual([
      "title-logo",
      "domain",
      "own-page",
      "publish",
    ]);
  });
});
