/** Published sites' content: search, the blog, events, galleries and albums. */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as t from "../db/schema.js";
import { classic, count, db, demo, fx, json, useRenderApp } from "./render.test-helper.js";

useRenderApp();

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
