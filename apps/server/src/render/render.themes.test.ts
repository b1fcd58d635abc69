/**
 * Published sites' blocks and themes, the page cache (several app instances on one database) and
 * the error page.
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { Browser, createTestApp } from "../../test/harness.js";
import { buildApp } from "../app.js";
import * as t from "../db/schema.js";
import { basic, classic, count, cover, db, demo, fx, t0, useRenderApp } from "./render.test-helper.js";

useRenderApp();

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
    // It starts a second seeded app of its own, which takes a while on a busy machine.
  }, 90_000);
});
