/**
 * Visitor analytics in a browser: anonymous page views are counted with the visitor cookies, the
 * search page and the not-found page are not, and the cookie banner with the restrictive cookie
 * policy keeps the census cookies off until the visitor accepts them.
 */
import type { APIRequestContext, Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DESKTOP, DEVICES, launch, screenshot } from "./browser.js";
import { demoSiteId, ownerApiSession } from "./owner.js";

const base = inject("baseUrl");
let browser: Browser;
let owner: BrowserContext;
let api: APIRequestContext;
let siteId: string;
let headers: Record<string, string>;

beforeAll(async () => {
  browser = await launch();
  const session = await ownerApiSession(browser, base);
  ({ context: owner, headers } = session);
  api = owner.request;
  expect(session.login.status()).toBe(200);
  siteId = await demoSiteId(session.page);
});
afterAll(async () => {
  await owner?.close();
  await browser?.close();
});

async function traffic(): Promise<{ pageViews: number; topPages: { path: string; pageViews: number }[] }> {
  const body = await (await api.get(`${base}/api/owner/sites/${siteId}/analytics/traffic`)).json();
  return { pageViews: body.totals.pageViews, topPages: body.pages };
}
const viewsOf = async (path: string) =>
  (await traffic()).topPages.find((p) => p.path === path)?.pageViews ?? 0;

async function settings(patch: Record<string, boolean>) {
  const res = await api.patch(`${base}/api/owner/sites/${siteId}/settings`, {
    data: patch,
    headers,
  });
  expect(res.status()).toBe(200);
}

const censusCookies = async (context: BrowserContext) =>
  (await context.cookies()).filter((c) => c.name.startsWith("ss_c") && c.name !== "ss_cookieAllowed");

describe("visitor analytics", () => {
  it("counts an anonymous visitor's page views, never search or not-found pages", async () => {
    const before = {
      about: await viewsOf("/contact"),
      search: await viewsOf("/search"),
      missing: await viewsOf("/no-such-page"),
    };
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const hit = () => page.waitForResponse((r) => r.url().endsWith("/api/census/RecordHit"));
    const first = hit();
    await page.goto(`${base}/contact`);
    expect((await first).status()).toBe(202);
    const cvr = (await context.cookies()).find((c) => c.name === "ss_cvr")!;
    expect(decodeURIComponent(cvr.value).split("|")).toHaveLength(5);
    const second = hit();
    await page.reload();
    await second;
    await page.goto(`${base}/search?q=mug`);
    await page
      .getByRole("heading", { name: /search/i })
      .first()
      .waitFor();
    await page.goto(`${base}/no-such-page`);
    await page.waitForLoadState("networkidle");
    await expect.poll(() => viewsOf("/contact")).toBe(before.about + 2);
    expect(await viewsOf("/search")).toBe(before.search);
    expect(await viewsOf("/no-such-page")).toBe(before.missing);
    await context.close();

    // The owner reads the traffic on the dashboard's overview.
    for (const [name, viewport] of DEVICES) {
      const dashboard = await owner.newPage();
      await dashboard.setViewportSize(viewport);
      await dashboard.goto(`${base}/config/sites/${siteId}`);
      const card = dashboard.getByRole("region", { name: "Traffic" });
      await card.getByRole("img", { name: "Page views per day over the last 30 days" }).waitFor();
      // The card lists the most viewed pages; after other tests /contact need not be among them.
      const top = (await traffic()).topPages[0]!.path;
      await expect(card.getByRole("cell", { name: top, exact: true }).count()).resolves.toBe(1);
      const views = Number((await card.locator(".traffic-figure").first().textContent())!.replace(/,/g, ""));
      expect(views).toBe((await traffic()).pageViews);
      await dashboard.getByRole("region", { name: "Recent orders" }).waitFor();
      await screenshot(dashboard, `dashboard-overview-traffic-${name}`);
      await dashboard.close();
    }
  });

  for (const [name, viewport] of DEVICES) {
    it(`asks with the cookie banner and sets no census cookies until accepted (${name})`, async () => {
      await settings({ cookieBannerEnabled: true, restrictiveCookiePolicy: true });
      try {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await page.goto(`${base}/`);
        const banner = page.getByRole("region", { name: "Cookie consent" });
        await banner.waitFor();
        await page.waitForLoadState("networkidle");
        expect(await censusCookies(context)).toEqual([]);
        await screenshot(page, `cookie-banner-${name}`);
        await banner.getByRole("button", { name: "Accept" }).click();
        await expect(banner.count()).resolves.toBe(0);
        await page.goto(`${base}/shop`);
        await page.waitForLoadState("networkidle");
        expect((await censusCookies(context)).map((c) => c.name).sort()).toEqual([
          "ss_cid",
          "ss_cpvisit",
          "ss_cvisit",
          "ss_cvr",
          "ss_cvt",
        ]);
        await expect(page.getByRole("region", { name: "Cookie consent" }).count()).resolves.toBe(0);
        await context.close();

        const declining = await browser.newContext({ viewport });
        const other = await declining.newPage();
        await other.goto(`${base}/`);
        await other
          .getByRole("region", { name: "Cookie consent" })
          .getByRole("button", { name: "Decline" })
          .click();
        await other.goto(`${base}/shop`);
        await other.waitForLoadState("networkidle");
        expect(await censusCookies(declining)).toEqual([]);
        await declining.close();
      } finally {
        await settings({ cookieBannerEnabled: false, restrictiveCookiePolicy: false });
      }
    });
  }

  it("loads the owner's Meta pixel, and only once the visitor allows cookies under the restrictive policy", async () => {
    const set = async (patch: Record<string, unknown>) => {
      const res = await api.patch(`${base}/api/owner/sites/${siteId}/settings`, {
        data: patch,
        headers,
      });
      expect(res.status()).toBe(200);
    };
    /** A new context whose pixel script loads are answered by the test (no network here), and counted. */
    const countingPixelLoads = async () => {
      const context = await browser.newContext({ viewport: DESKTOP });
      const loads: string[] = [];
      await context.route("https://connect.facebook.net/**", (route) => {
        loads.push(route.request().url());
        return route.fulfill({ contentType: "text/javascript", body: "" });
      });
      return { context, loads };
    };
    await set({ adPixelId: "1234567890" });
    try {
      const { context, loads: pixelLoads } = await countingPixelLoads();
      const page = await context.newPage();
      await page.goto(`${base}/contact`);
      await expect.poll(() => pixelLoads.length, { timeout: 10_000 }).toBe(1);
      expect(pixelLoads[0]).toBe("https://connect.facebook.net/en_US/fbevents.js");
      expect(
        await page.evaluate(() => (window as unknown as { fbq?: { queue: unknown[][] } }).fbq?.queue),
      ).toEqual([
        ["init", "1234567890"],
        ["track", "PageView"],
      ]);
      await context.close();

      await set({ cookieBannerEnabled: true, restrictiveCookiePolicy: true });
      const { context: asked, loads: askedLoads } = await countingPixelLoads();
      const other = await asked.newPage();
      await other.goto(`${base}/contact`);
      const banner = other.getByRole("region", { name: "Cookie consent" });
      await banner.waitFor();
      await other.waitForLoadState("networkidle");
      expect(askedLoads).toEqual([]);
      await banner.getByRole("button", { name: "Accept" }).click();
      await expect.poll(() => askedLoads.length, { timeout: 10_000 }).toBe(1);
      await asked.close();
    } finally {
      await set({ adPixelId: "", cookieBannerEnabled: false, restrictiveCookiePolicy: false });
    }
  });
});
