/**
 * Published sites: every page type with its HTTP status and number, the JSON context, themes,
 * blocks, blog, events, galleries, albums, search, the lock screen and member areas, the header
 * cart count and the page cache (several app instances on one database).
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Browser, type TestApp, createTestApp } from "../../test/harness.js";
import { buildApp } from "../app.js";
import { PageType } from "../db/enums.js";
import * as t from "../db/schema.js";
import { hashToken, newId, newToken } from "../lib/ids.js";
import { LIKING_OFF } from "../modules/content/routes.js";
import { SITE_USER_COOKIE } from "./access.js";
import { FIXTURE_PAGE_PASSWORD, type FixtureIds, seedRenderFixtures } from "./fixtures.js";

let t0: TestApp;
let fx: FixtureIds;
const db = () => t0.database.db;

beforeAll(async () => {
  t0 = await createTestApp({ seed: true });
  fx = await seedRenderFixtures(db(), t0.config.dataDir);
}, 120_000);
afterAll(() => t0.close());

const demo = () => new Browser(t0.app, "localhost");
const classic = () => new Browser(t0.app, "classic.localhost");
const cover = () => new Browser(t0.app, "cover.localhost");
const basic = () => new Browser(t0.app, "basic.localhost");

async function json(b: Browser, url: string) {
  const res = await b.visit(`${url}${url.includes("?") ? "&" : "?"}format=json`);
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

const count = (html: string, needle: string) => html.split(needle).length - 1;

describe("page types and statuses", () => {
  it("answers every page type of the demo with its number and status", async () => {
    const b = demo();
    const cases: [string, number, number][] = [
      ["/", 200, PageType.PAGE],
      ["/shop", 200, PageType.MAIN_CONTENT],
      ["/shop/p/linen-work-apron", 200, PageType.CONTENT_ITEM],
      ["/blog", 200, PageType.MAIN_CONTENT],
      ["/blog/a-week-at-the-wheel", 200, PageType.CONTENT_ITEM],
      ["/events", 200, PageType.MAIN_CONTENT],
      ["/gallery", 200, PageType.MAIN_CONTENT],
      ["/contact", 200, PageType.PAGE],
      ["/search", 200, PageType.SEARCH],
      ["/cart", 200, PageType.SHOW_CART],
      ["/checkout", 200, PageType.CHECKOUT],
      ["/checkout/order-confirmed", 200, PageType.ORDER_CONFIRMED],
      ["/checkout/order-received", 200, PageType.ORDER_RECEIVED],
      ["/checkout/subscription-confirmed", 200, PageType.SUBSCRIPTION_CONFIRMED],
      ["/donate", 200, PageType.DONATE],
      ["/donate/confirmed", 200, PageType.CONTRIBUTION_CONFIRMED],
      ["/commerce/cart", 200, PageType.COMMERCE_CART_V2],
      ["/membership-confirmed", 200, PageType.MEMBERSHIP_CONFIRMED],
      ["/newsletter/unsubscribe", 200, PageType.NEWSLETTER_UNSUBSCRIBE],
      ["/popup-overlay", 200, PageType.POPUP_OVERLAY],
      ["/no-such-page", 404, PageType.NOT_FOUND],
      ["/shop/p/no-such-product", 404, PageType.NOT_FOUND],
      ["/blog/a/b", 404, PageType.NOT_FOUND],
    ];
    for (const [url, status, pageType] of cases) {
      const html = await b.visit(url);
      expect(html.statusCode, url).toBe(status);
      expect(html.headers["content-type"], url).toContain("text/html");
      expect(html.body, url).toContain(`data-page-type="${pageType}"`);
      const { status: s, body } = await json(b, url);
      expect(s, url).toBe(status);
      expect(body.pageType, url).toBe(pageType);
    }
  });

  it("renders the islands' drop zones: cart page, checkout, cart pill and product form", async () => {
    const b = demo();
    const cart = (await b.visit("/cart")).body;
    expect(cart).toContain('<div data-island="cart-page"></div>');
    expect(cart).not.toContain('data-island="cart-pill"');
    const checkout = (await b.visit("/checkout")).body;
    expect(checkout).toContain('<div data-island="checkout"></div>');
    expect(checkout).not.toContain('data-island="cart-pill"');
    const product = (await b.visit("/shop/p/everyday-linen-shirt")).body;
    expect(product).toContain(
      '<div data-island="cart-pill" class="cart-pill-host"><script type="application/json">{"totalQuantity":0,"position":"bottom-right"}</script></div>',
    );
    expect(product).toContain('<a class="header-icon header-cart" href="/cart">');
    for (const marker of [
      'class="product-price"',
      'class="product-variants"',
      'data-variant-option-name="Size"',
      'class="product-quantity-input"',
      'class="sqs-add-to-cart-button-wrapper"',
      'data-island="product-form"',
    ]) {
      expect(product, marker).toContain(marker);
    }
    expect(product).toMatch(/<script>[^<]*src:"\/assets\/storefront\/storefront-[\w-]+\.js"[^<]*<\/script>/);
    // Scarcity texts and restock forms per variant (the merchandising context).
    const apron = (await b.visit("/shop/p/linen-work-apron")).body;
    expect(apron).toContain("Only 2 left in stock");
    const throw_ = (await b.visit("/shop/p/merino-throw")).body;
    expect(throw_).toContain('class="product-restock-notification"');
    expect(throw_).toContain("Sold Out");
  });

  it("finds the website by custom domain, <site>.localhost, or the default site", async () => {
    const unknown = await new Browser(t0.app, "www.harbour.example").visit("/");
    expect(unknown.body).toContain("Atelier Demo");
    await db()
      .insert(t.domains)
      .values({ host: "www.harbour.example", websiteId: fx.classic, isPrimary: true });
    await vi.waitFor(async () => {
      const res = await new Browser(t0.app, "www.harbour.example:8080").visit("/journal");
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain("Harbour Notes");
    });
    expect((await new Browser(t0.app, "nosuchsite.localhost").visit("/")).statusCode).toBe(404);
  });

  it("gives a cover page site a splash home page (type 3) and hides unsafe buttons", async () => {
    const res = await cover().visit("/");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-page-type="3"');
    expect(res.body).toContain("theme-cover");
    expect(res.body).toContain('class="cover-headline">Nova Quartet');
    expect(res.body).toContain('href="mailto:hello@example.com"');
    expect(res.body).not.toContain("javascript:");
    expect(res.body).toContain('data-island="form"');
  });

  it("keeps the donation pages to sites whose plan has the donation feature", async () => {
    expect((await basic().visit("/donate")).statusCode).toBe(404);
    expect((await classic().visit("/donate")).statusCode).toBe(200);
  });

  it("lists a folder's pages (index) and redirects a redirecting folder to its first page", async () => {
    const index = await classic().visit("/about-us");
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain("Our story");
    expect(index.body).toContain("Team");
    await db()
      .update(t.collections)
      .set({ folderBehavior: "redirect" })
      .where(eq(t.collections.urlSlug, "about-us"));
    await vi.waitFor(async () => {
      const res = await classic().visit("/about-us");
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe("/story");
    });
    await db()
      .update(t.collections)
      .set({ folderBehavior: "index" })
      .where(eq(t.collections.urlSlug, "about-us"));
  });

  it("answers ?format=json and json-pretty without private fields", async () => {
    const b = classic();
    const plain = await b.visit("/?format=json");
    expect(plain.headers["content-type"]).toContain("application/json");
    const pretty = await b.visit("/?format=json-pretty");
    expect(pretty.body).toContain('\n  "website": {');
    expect(JSON.parse(pretty.body)).toEqual(plain.json());
    const ctx = plain.json();
    expect(ctx.website.siteTitle).toBe("Harbour Notes");
    expect(ctx.localizedStrings.productAddToCartText).toBe("Add To Cart");
    for (const url of [
      "/?format=json",
      "/friends?format=json",
      "/archive?format=json",
      "/story?format=json",
    ]) {
      const body = (await b.visit(url)).body;
      for (const secret of [
        "passwordHash",
        "password_hash",
        "private-notify@example.com",
        "private-captcha-secret",
        "memberAreaUsers",
        fx.memberUserId,
      ]) {
        expect(body, `${url} ${secret}`).not.toContain(secret);
      }
    }
    const blog = await json(b, "/journal");
    expect(blog.body.collection.title).toBe("Journal");
    expect(blog.body.items).toHaveLength(2);
    expect(blog.body.pagination).toMatchObject({
      currentPage: 1,
      pageCount: 2,
      nextPage: true,
      nextPageUrl: "/journal?page=2",
    });
    const post = await json(b, "/journal/tides");
    expect(post.body.item).toMatchObject({
      title: "On Tides",
      publicCommentCount: 1,
      commentState: 1,
      likeCount: 2,
    });
  });
});

describe("lock screen and member areas", () => {
  it("shows the lock screen (103, 401) until the password is given, never from the cache", async () => {
    const b = classic();
    const locked = await b.visit("/archive");
    expect(locked.statusCode).toBe(401);
    expect(locked.body).toContain('data-page-type="103"');
    expect(locked.body).not.toContain("Secret letters");
    const action = /action="([^"]+)"/.exec(locked.body.slice(locked.body.indexOf("lock-form")))![1]!;
    expect(action).toBe(`/api/site/unlock?crumb=${b.crumb}`);

    const wrong = await b.request({
      method: "POST",
      url: action.replace(/&amp;/g, "&"),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `collectionId=${fx.lockedPageId}&password=nope&redirect=%2Farchive`,
      withCrumb: false,
    });
    expect(wrong.statusCode).toBe(303);
    expect(wrong.headers.location).toBe("/archive?unlock=failed");
    const failed = await b.visit("/archive?unlock=failed");
    expect(failed.body).toContain("That password is incorrect.");

    const bad = await b.request({
      method: "POST",
      url: "/api/site/unlock",
      payload: { collectionId: fx.lockedPageId, password: "nope" },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error.message).toBe("That password is incorrect.");

    const ok = await b.request({
      method: "POST",
      url: "/api/site/unlock",
      payload: { collectionId: fx.lockedPageId, password: FIXTURE_PAGE_PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true, redirect: "/archive" });
    const open = await b.visit("/archive");
    expect(open.statusCode).toBe(200);
    expect(open.body).toContain("Secret letters");
    expect(open.headers["x-page-cache"]).toBe("miss");
    // Another visitor still meets the lock screen.
    const stranger = await classic().visit("/archive");
    expect(stranger.statusCode).toBe(401);
    expect(stranger.body).not.toContain("Secret letters");
  });

  it("refuses to unlock without the crumb", async () => {
    const b = classic();
    await b.visit("/archive");
    const res = await b.request({
      method: "POST",
      url: "/api/site/unlock",
      payload: { collectionId: fx.lockedPageId, password: FIXTURE_PAGE_PASSWORD },
      withCrumb: false,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ crumbFail: true });
  });

  async function signedIn(siteUserId: string): Promise<Browser> {
    const token = newToken();
    await db()
      .insert(t.siteUserSessions)
      .values({
        id: newId(),
        websiteId: fx.classic,
        siteUserId,
        tokenHash: hashToken(token),
        xsrfTokenHash: hashToken(newToken()),
        expiresAt: new Date(Date.now() + 3600_000),
      });
    const b = classic();
    b.cookies.set(SITE_USER_COOKIE, token);
    return b;
  }

  it("answers protected content (105, 401), access denied (106, 403) or the page by the site user", async () => {
    const anonymous = await classic().visit("/friends");
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).toContain('data-page-type="105"');
    expect(anonymous.body).toContain("/account/login?redirect=%2Ffriends");
    const other = await (await signedIn(fx.otherUserId)).visit("/friends");
    expect(other.statusCode).toBe(403);
    expect(other.body).toContain('data-page-type="106"');
    expect(other.body).not.toContain("Thank you for being a friend");
    const member = await (await signedIn(fx.memberUserId)).visit("/friends");
    expect(member.statusCode).toBe(200);
    expect(member.body).toContain("Thank you for being a friend");
    // And the member's page never reaches the cache.
    expect((await classic().visit("/friends")).statusCode).toBe(401);
  });
});

describe("header cart count", () => {
  it("shows the visitor's count, capped at 100 and shown as 100+, also on cached pages", async () => {
    const b = demo();
    await b.visit("/shop");
    const shop = await json(b, "/shop");
    const candle = shop.body.items.find((i: any) => i.urlId === "beeswax-candle");
    const sku = candle.structuredContent.variants[0].sku;
    const add = async (quantity: number) => {
      const res = await b.request({
        method: "POST",
        url: "/api/commerce/shopping-cart/entries",
        payload: { itemId: candle.id, sku, quantity },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    await add(3);
    const page = await b.visit("/blog");
    expect(page.body).toContain('data-cart-count="3">3</span>');
    expect(page.body).toContain('{"totalQuantity":3,"position":"bottom-right"}');
    expect((await json(b, "/blog")).body.cart).toEqual({ totalQuantity: 3, label: "3" });
    await add(97);
    expect((await b.visit("/blog")).body).toContain('data-cart-count="100">100</span>');
    await add(50);
    const capped = await b.visit("/blog");
    expect(capped.headers["x-page-cache"]).toBe("hit");
    expect(capped.body).toContain('data-cart-count="150">100+</span>');
    expect(capped.body).toContain('{"totalQuantity":150,"position":"bottom-right"}');
    // A visitor without a cart sees the same cached page with no count.
    const empty = await demo().visit("/blog");
    expect(empty.body).toContain('data-cart-count="0">0</span>');
  });
});

describe("page cache", () => {
  it("serves a page from the cache until its site's content changes, in every app instance", async () => {
    const other = await buildApp({ config: t0.config, database: t0.database, logger: false });
    await other.ready();
    try {
      const a = () => new Browser(t0.app, "classic.localhost");
      const b = () => new Browser(other, "classic.localhost");
      expect((await a().visit("/team")).headers["x-page-cache"]).toBe("miss");
      const hit = await a().visit("/team");
      expect(hit.headers["x-page-cache"]).toBe("hit");
      expect(hit.body).toContain("Three readers and a cat.");
      await b().visit("/team");
      expect((await b().visit("/team")).headers["x-page-cache"]).toBe("hit");
      // Another site's change leaves this site's pages cached.
      await db().update(t.websites).set({ tagline: "Changed." }).where(eq(t.websites.id, fx.basic));
      await vi.waitFor(async () => expect((await basic().visit("/")).body).toContain("Changed."));
      expect((await a().visit("/team")).headers["x-page-cache"]).toBe("hit");
      // A change to this site's content, made anywhere, reaches both instances.
      await db()
        .update(t.collections)
        .set({
          layout: {
            rows: [
              {
                columns: [
                  { span: 12, blocks: [{ id: "x", type: "text", html: "<p>Four readers now.</p>" }] },
                ],
              },
            ],
          },
        })
        .where(eq(t.collections.urlSlug, "team"));
      for (const browser of [a, b]) {
        await vi.waitFor(async () => {
          const res = await browser().visit("/team");
          expect(res.body).toContain("Four readers now.");
        });
        expect((await browser().visit("/team")).headers["x-page-cache"]).toBe("hit");
      }
      // Site title changes (the websites row) invalidate too.
      await db().update(t.websites).set({ title: "Harbour Notes & Co" }).where(eq(t.websites.id, fx.classic));
      await vi.waitFor(async () =>
        expect((await b().visit("/team")).body).toContain("Harbour Notes &amp; Co"),
      );
      await db().update(t.websites).set({ title: "Harbour Notes" }).where(eq(t.websites.id, fx.classic));
    } finally {
      await other.close();
    }
  });

  it("bumps content_version once per transaction however many rows change", async () => {
    const [before] = await db()
      .select({ v: t.websites.contentVersion })
      .from(t.websites)
      .where(eq(t.websites.id, fx.classic));
    await db().transaction(async (tx) => {
      await tx.update(t.contentItems).set({ likeCount: 7 }).where(eq(t.contentItems.websiteId, fx.classic));
      await tx.update(t.media).set({ title: "Renamed" }).where(eq(t.media.websiteId, fx.classic));
    });
    const [after] = await db()
      .select({ v: t.websites.contentVersion })
      .from(t.websites)
      .where(eq(t.websites.id, fx.classic));
    expect(after!.v).toBe(before!.v + 1);
  });
});

describe("search (page type 102)", () => {
  it("finds products and posts with highlighted snippets and records no page view", async () => {
    const res = await demo().visit("/search?q=linen");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-page-view-hit="false"');
    expect(res.body).toContain('href="/shop/p/linen-work-apron"');
    expect(res.body).toContain('href="/blog/caring-for-linen"');
    expect(res.body).toMatch(/<mark>linen<\/mark>/i);
    const api = await demo().request({ url: "/api/search?q=aprons" });
    expect(api.statusCode).toBe(200);
    const results = api.json().results as { fullUrl: string; kind: string; typeLabel: string }[];
    expect(results[0]).toMatchObject({
      fullUrl: "/shop/p/linen-work-apron",
      kind: "products",
      typeLabel: "Product",
    });
    const prefix = await demo().request({ url: "/api/search?q=wheel%20thro" });
    expect((prefix.json().results as { fullUrl: string }[]).map((r) => r.fullUrl)).toContain(
      "/shop/p/wheel-throwing-workshop",
    );
    const events = await demo().request({ url: "/api/search?q=market" });
    expect((events.json().results as { kind: string }[]).some((r) => r.kind === "events")).toBe(true);
    // A snippet cut out of the middle of a long text says so; one that starts the text does not.
    const mugs = (await demo().request({ url: "/api/search?q=mug" })).json().results as {
      fullUrl: string;
      snippet: string;
    }[];
    const home = mugs.find((r) => r.fullUrl === "/");
    expect(home?.snippet).toMatch(/^….*<mark>mug<\/mark>.*…$/);
    const mug = mugs.find((r) => r.fullUrl === "/shop/p/stoneware-mug");
    expect(mug?.snippet).toMatch(/^Wheel-thrown, 12 oz/);
    const pages = await demo().request({ url: "/api/search?q=hello" });
    expect((pages.json().results as { fullUrl: string }[]).map((r) => r.fullUrl)).toContain("/contact");
    const none = await demo().visit("/search?q=zzzzqqq");
    expect(none.body).toContain("No results for “zzzzqqq”");
    expect((await demo().request({ url: "/api/search?q=%20%20" })).json().results).toEqual([]);
  });

  it("leaves out locked pages, member areas and unpublished posts", async () => {
    const search = async (q: string) =>
      (
        (await classic().request({ url: `/api/search?q=${encodeURIComponent(q)}` })).json().results as {
          title: string;
        }[]
      ).map((r) => r.title);
    expect(await search("secret letters")).toEqual([]);
    expect(await search("friend")).not.toContain("Friends");
    expect(await search("published")).toEqual([]);
    expect(await search("tides")).toContain("On Tides");
  });
});

describe("blog", () => {
  it("pages, filters by category (25) and tag (50), and hides scheduled posts", async () => {
    const b = classic();
    const page2 = await json(b, "/journal?page=2");
    expect(page2.body.items.map((i: any) => i.urlId)).toEqual(["printing"]);
    expect(page2.body.pagination).toMatchObject({ prevPage: true, prevPageUrl: "/journal", nextPage: false });
    expect((await b.visit("/journal?page=3")).statusCode).toBe(404);
    expect((await b.visit("/journal/tomorrow")).statusCode).toBe(404);
    const all = await json(b, "/journal");
    expect(all.body.collection.itemCount).toBe(3);
    const essays = await json(b, "/journal?category=Essays");
    expect(essays.body.items.map((i: any) => i.urlId)).toEqual(["tides", "lighthouses"]);
    const long = await json(b, `/journal?category=${"C".repeat(40)}`);
    expect(long.body.filter.category).toHaveLength(25);
    const tagged = await json(b, "/journal?tag=print");
    expect(tagged.body.items.map((i: any) => i.urlId)).toEqual(["printing"]);
    const longTag = await json(b, `/journal?tag=${"t".repeat(80)}`);
    expect(longTag.body.filter.tag).toHaveLength(50);
    const byAuthor = await json(b, "/journal?author=Ada%20Quay");
    expect(byAuthor.body.collection.itemCount).toBe(3);
    const html = (await b.visit("/journal?category=Essays")).body;
    expect(html).toContain("Category: Essays");
  });

  it("shows comments by the SPEC's rule with its count texts", async () => {
    const b = classic();
    const open = (await b.visit("/journal/tides")).body;
    expect(open).toContain('id="comments-heading" class="section-heading">1 Comment</h2>');
    expect(open).toContain("Lovely &lt;b&gt;piece&lt;/b&gt;.");
    // Closed with no comments: hidden. Closed with comments: shown.
    expect((await b.visit("/journal/lighthouses")).body).not.toContain('id="comments"');
    expect((await b.visit("/journal/printing")).body).toContain(">1 Comment</h2>");
    const list = (await b.visit("/journal")).body;
    expect(list).toContain(">1 Comment</a>");
    await db()
      .update(t.websiteSettings)
      .set({ commentsEnabled: false })
      .where(eq(t.websiteSettings.websiteId, fx.classic));
    await vi.waitFor(async () =>
      expect((await classic().visit("/journal/tides")).body).not.toContain('id="comments"'),
    );
    await db()
      .update(t.websiteSettings)
      .set({ commentsEnabled: true })
      .where(eq(t.websiteSettings.websiteId, fx.classic));
  });

  it("likes a post once per visitor, takes the like back, and refuses when liking is off", async () => {
    const b = classic();
    await b.visit("/journal/lighthouses");
    const [item] = await db()
      .select()
      .from(t.contentItems)
      .where(and(eq(t.contentItems.websiteId, fx.classic), eq(t.contentItems.urlId, "lighthouses")));
    const url = `/api/content/items/${item!.id}/like`;
    const start = item!.likeCount;
    const first = await b.request({ method: "POST", url });
    expect(first.json()).toEqual({ itemId: item!.id, likeCount: start + 1, liked: true });
    expect((await b.request({ method: "POST", url })).json().likeCount).toBe(start + 1);
    expect((await b.request({ url })).json()).toMatchObject({ liked: true });
    expect((await b.request({ method: "DELETE", url })).json()).toEqual({
      itemId: item!.id,
      likeCount: start,
      liked: false,
    });
    expect((await b.request({ method: "POST", url, withCrumb: false })).statusCode).toBe(403);
    expect((await b.request({ method: "POST", url: `/api/content/items/${newId()}/like` })).statusCode).toBe(
      404,
    );
    await db()
      .update(t.websiteSettings)
      .set({ simpleLikingEnabled: false })
      .where(eq(t.websiteSettings.websiteId, fx.classic));
    const off = await b.request({ method: "POST", url });
    expect(off.statusCode).toBe(403);
    expect(off.json().error.message).toBe(LIKING_OFF);
    await db()
      .update(t.websiteSettings)
      .set({ simpleLikingEnabled: true })
      .where(eq(t.websiteSettings.websiteId, fx.classic));
  });
});

describe("events", () => {
  it("lists upcoming and past events, a calendar, and links to a map and a calendar", async () => {
    const b = classic();
    const upcoming = await json(b, "/readings");
    expect(upcoming.body.items.map((i: any) => i.urlId)).toEqual(["poetry-night", "print-fair"]);
    expect(upcoming.body.collection.showPastOrUpcomingEvents).toBe("upcoming");
    // The card's time line is two flex items (icon, text), so the end time never wraps into a
    // column of its own on a phone.
    const list = (await b.visit("/readings")).body;
    expect(list).toMatch(
      /<p class="event-when"><svg[\s\S]*?<\/svg>\s*<span><time datetime="[^"]+">[^<]+<\/time> – [^<]+<\/span><\/p>/,
    );
    const past = await json(b, "/readings?view=past");
    expect(past.body.items.map((i: any) => i.urlId)).toEqual(["winter-reading"]);
    const calendar = (await b.visit("/readings?view=calendar")).body;
    expect(calendar).toContain('class="calendar-grid"');
    expect(calendar).toContain("Poetry Night");
    expect((await b.visit("/readings?view=calendar&month=2026-02")).body).toContain("February 2026");
    const item = (await b.visit("/readings/poetry-night")).body;
    const link = /href="(http:\/\/www\.google\.com\/calendar\/event\?[^"]+)"/
      .exec(item)?.[1]
      ?.replace(/&amp;/g, "&");
    expect(link).toBeDefined();
    const u = new URL(link!);
    expect(u.searchParams.get("text")).toBe("Poetry Night");
    expect(u.searchParams.get("dates")).toMatch(/^\d{8}T\d{6}Z\/\d{8}T\d{6}Z$/);
    expect(u.searchParams.get("location")).toBe("1 Quay Street, Portsmouth");
    expect(item).toContain("https://www.openstreetmap.org/?mlat=50.79&amp;mlon=-1.1");
  });
});

describe("galleries and albums", () => {
  it("renders every gallery design with its options completed and clamped", async () => {
    const b = classic();
    for (const [url, design] of [
      ["/gallery", "grid"],
      ["/slideshow", "slideshow"],
      ["/slider", "slider"],
      ["/stacked", "stacked"],
    ]) {
      const html = (await b.visit(url!)).body;
      expect(html, url).toContain(`gallery-design-${design}`);
      expect(html, url).toContain('data-island="lightbox"');
      expect(count(html, 'class="gallery-link"'), url).toBe(6);
    }
    const grid = await json(b, "/gallery");
    expect(grid.body.collection.options).toMatchObject({
      design: "grid",
      "thumbnails-per-row": 10,
      padding: 0,
      "aspect-ratio": "4:3",
      "meta-position": "bottom",
      "active-alignment": "center",
      lightboxTheme: "dark",
      "autoplay-duration": 5,
      "thumbnail-strip-height": 80,
      "thumbnail-strip-margin": 20,
      "max-width": 300,
      lightbox: true,
    });
    const slideshow = await json(b, "/slideshow");
    expect(slideshow.body.collection.options).toMatchObject({
      "autoplay-duration": 10,
      autoplay: true,
      "meta-position": "bottom-left",
    });
    expect((await b.visit("/slideshow")).body).toContain('data-gallery-next aria-label="Next image"');
    const image = await b.visit("/gallery/view-2");
    expect(image.statusCode).toBe(200);
    expect(image.body).toContain('data-page-type="50"');
  });

  it("plays an album of at most 60 tracks with the audio player formatter's markup", async () => {
    const html = (await classic().visit("/sounds")).body;
    expect(count(html, '<li class="track">')).toBe(60);
    expect(count(html, 'class="squarespace-audio-player"')).toBe(60);
    expect(html).not.toContain("Y.use");
    expect(html).toContain('data-island="audio-player"');
    expect(html).toContain("Album · 60 tracks");
    const wav = await classic().request({ url: /src="(\/media\/[^"]+\.wav)"/.exec(html)![1]! });
    expect(wav.statusCode).toBe(200);
    expect(wav.headers["content-type"]).toBe("audio/wav");
  });
});

describe("blocks", () => {
  it("renders every block type, sanitising code, embeds and text", async () => {
    const html = (await classic().visit("/story")).body;
    for (const cls of [
      "block-text",
      "block-video",
      "block-audio",
      "block-code",
      "block-embed",
      "block-spacer",
      "block-line",
      "block-product",
      "block-gallery",
      "block-menu",
      "block-donation",
      "block-amazon",
      "block-opentable",
      "block-member-area",
    ]) {
      expect(html, cls).toContain(`class="block ${cls}`);
    }
    expect(html).not.toContain("steal()");
    expect(html).not.toContain("onerror");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('<p class="note">Plain <em>HTML</em></p>');
    expect(html).toContain('src="https://example.com/embed" sandbox=');
    expect(html).toContain("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(html).toContain("Lemon drizzle");
    expect(count(html, '<ul class="variant-swatches"')).toBe(1);
    const home = (await classic().visit("/")).body;
    expect(home).not.toContain("<script>alert");
    for (const cls of [
      "block-image",
      "block-button",
      "block-summary",
      "block-quote",
      "block-map",
      "block-form",
    ]) {
      expect(home, cls).toContain(`class="block ${cls}`);
    }
    expect(home).toContain('data-island="form"');
    expect(home).toContain('<label for="f-name">Your name');
  });

  it("shows premium blocks only where the plan enables them", async () => {
    const html = (await basic().visit("/")).body;
    expect(html).toContain("block-menu");
    for (const cls of ["block-amazon", "block-donation", "block-opentable", "block-member-area"])
      expect(html).not.toContain(cls);
  });

  it("renders at most 60 blocks of a layout", async () => {
    const blocks = Array.from({ length: 70 }, (_, i) => ({
      id: `b${i}`,
      type: "text",
      html: `<p>Block ${i}</p>`,
    }));
    await db()
      .update(t.collections)
      .set({ layout: { rows: [{ columns: [{ span: 12, blocks }] }] } })
      .where(and(eq(t.collections.websiteId, fx.basic), eq(t.collections.isHome, true)));
    await vi.waitFor(async () => {
      const html = (await basic().visit("/")).body;
      expect(count(html, 'class="block block-text')).toBe(60);
    });
  });
});

describe("themes", () => {
  it("renders each site with its theme and serves the theme's stylesheet", async () => {
    for (const [b, theme] of [
      [demo(), "commerce"],
      [classic(), "classic"],
      [cover(), "cover"],
    ] as const) {
      const html = (await b.visit("/")).body;
      expect(html).toContain(`theme-${theme}`);
      const href = new RegExp(`href="(/assets/themes/${theme}\\.[a-f0-9]{12}\\.css)"`).exec(html)?.[1];
      expect(href).toBeDefined();
      const css = await b.request({ url: href! });
      expect(css.headers["content-type"]).toContain("text/css");
      expect(css.headers["cache-control"]).toContain("immutable");
      expect(css.body).toContain("@media (max-width: 432px)");
    }
    expect((await demo().request({ url: "/assets/themes/nope.000000000000.css" })).statusCode).toBe(404);
  });
});

describe("the error page (101)", () => {
  it("answers 500 with the theme's error page when a page cannot be built", async () => {
    const t1 = await createTestApp({ seed: true });
    try {
      await t1.database.db.execute(sql`drop table comments cascade`);
      const res = await new Browser(t1.app).visit("/blog/a-week-at-the-wheel");
      expect(res.statusCode).toBe(500);
      expect(res.body).toContain('data-page-type="101"');
      expect(res.body).toContain("Something went wrong");
      expect(res.headers["cache-control"]).toBe("no-store");
    } finally {
      await t1.close();
    }
  });
});
