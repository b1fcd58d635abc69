/**
 * What search engines and readers get from a published site: robots.txt, the sitemap (checked
 * rule by rule against the sitemaps.org protocol), JSON-LD that passes Google's rich-result
 * rules, the blog's RSS and the events' iCalendar feeds, and noindex where pages are private.
 */
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { siteApi as base, owner, ownerSends, t, useDemoApp } from "../../../test/demo-app.js";
import { type SitemapEntry, sitemapDocuments } from "./sitemap.js";
import { eventually } from "../../../test/harness.js";

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (n) => ["url", "item", "image:image", "sitemap", "category"].includes(n),
});

useDemoApp();

const get = (url: string) => t.app.inject({ url });
/** A change shows a moment after its commit on PostgreSQL (the page cache hears of it by NOTIFY). */
const noindex = (url: string) => async () =>
  (await get(url)).body.includes('<meta name="robots" content="noindex">');
const collectionId = async (slug: string) =>
  ((await owner.request({ url: `${base}/pages` })).json().pages as { id: string; urlSlug: string }[]).find(
    (p) => p.urlSlug === slug,
  )!.id;

/** Each rule of the sitemaps.org protocol 0.9 (and Google's image extension) a document must keep. */
function expectValidUrlset(body: string, origin: string): string[] {
  const doc = parser.parse(body);
  expect(body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  const set = doc.urlset;
  expect(set["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
  expect(set["@xmlns:image"]).toBe("http://www.google.com/schemas/sitemap-image/1.1");
  const urls = set.url as { loc: string; lastmod: string; "image:image"?: { "image:loc": string }[] }[];
  expect(urls.length).toBeGreaterThan(0);
  expect(urls.length).toBeLessThanOrEqual(50_000);
  expect(Buffer.byteLength(body)).toBeLessThanOrEqual(50 * 1024 * 1024);
  const locs = urls.map((u) => u.loc);
  expect(new Set(locs).size).toBe(locs.length);
  for (const u of urls) {
    expect(Object.keys(u).every((k) => ["loc", "lastmod", "image:image"].includes(k))).toBe(true);
    expect(u.loc.startsWith(`${origin}/`), u.loc).toBe(true);
    expect(u.loc.length).toBeLessThan(2048);
    expect(() => new URL(u.loc)).not.toThrow();
    expect(u.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    for (const img of u["image:image"] ?? [])
      expect(img["image:loc"].startsWith(`${origin}/media/`)).toBe(true);
  }
  // Entity-escaped: the raw document has no unescaped ampersand.
  expect(body).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
  return locs;
}

describe("robots.txt", () => {
  it("opens the public site, closes the private parts and names the sitemap", async () => {
    const res = await get("/robots.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/plain");
    for (const path of ["/config", "/api/", "/cart", "/checkout", "/commerce/", "/account", "/search"])
      expect(res.body).toContain(`Disallow: ${path}\n`);
    expect(res.body.trimEnd().endsWith("Sitemap: http://localhost/sitemap.xml")).toBe(true);
  });
});

describe("sitemap.xml", () => {
  it("lists every public page and item, with images, and nothing private", async () => {
    // A password-protected page and a draft post must stay out.
    const secret = (await ownerSends("POST", "/pages", { kind: "page", title: "Staff Notes" })).json().page;
    await ownerSends("PATCH", `/pages/${secret.id}`, { password: "letmein" });
    const blog = await collectionId("blog");
    const draft = await ownerSends("POST", `/collections/${blog}/items`, {
      title: "Unfinished Thoughts",
      body: "<p>Soon.</p>",
      status: "draft",
    });
    expect(draft.statusCode).toBe(201);

    const res = await get("/sitemap.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/xml");
    const locs = expectValidUrlset(res.body, "http://localhost");
    for (const path of [
      "/",
      "/shop",
      "/blog",
      "/events",
      "/shop/p/linen-work-apron",
      "/blog/a-week-at-the-wheel",
    ])
      expect(locs).toContain(`http://localhost${path}`);
    expect(locs.some((l) => /\/events\/./.test(l))).toBe(true);
    for (const path of ["/staff-notes", "/cart", "/checkout", "/search"])
      expect(locs).not.toContain(`http://localhost${path}`);
    expect(locs.some((l) => l.includes("unfinished-thoughts"))).toBe(false);
    const apron = parser
      .parse(res.body)
      .urlset.url.find((u: { loc: string }) => u.loc.endsWith("/linen-work-apron"));
    expect(apron["image:image"].length).toBeGreaterThan(0);
  });

  it("is rebuilt when content changes", async () => {
    const before = (await get("/sitemap.xml")).body;
    const blog = await collectionId("blog");
    await ownerSends("POST", `/collections/${blog}/items`, {
      title: "Fresh From The Kiln",
      body: "<p>New.</p>",
    });
    const after = (await get("/sitemap.xml")).body;
    expect(before).not.toContain("fresh-from-the-kiln");
    expect(after).toContain("/blog/fresh-from-the-kiln");
  });

  it("becomes an index of parts over the limit", () => {
    const entries: SitemapEntry[] = Array.from({ length: 5 }, (_, i) => ({
      loc: `https://x.example/p${i}`,
      lastmod: new Date(Date.UTC(2026, 0, i + 1)),
      images: [],
    }));
    const docs = sitemapDocuments(entries, "https://x.example", 2);
    expect(docs.parts).toHaveLength(3);
    const index = parser.parse(docs.main).sitemapindex;
    expect(index["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    expect(index.sitemap.map((s: { loc: string }) => s.loc)).toEqual([
      "https://x.example/sitemap-1.xml",
      "https://x.example/sitemap-2.xml",
      "https://x.example/sitemap-3.xml",
    ]);
    expect(index.sitemap[0].lastmod).toBe("2026-01-05T00:00:00.000Z");
    expect(parser.parse(docs.parts[2]!).urlset.url.map((u: { loc: string }) => u.loc)).toEqual([
      "https://x.example/p4",
    ]);
    expect(sitemapDocuments(entries, "https://x.example", 5).parts).toEqual([]);
  });
});

/** The JSON-LD graph of a page (also checks that the script element holds exactly one JSON text). */
async function graphOf(path: string): Promise<Record<string, unknown>[]> {
  const html = (await get(path)).body;
  const scripts = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
  expect(scripts, path).toHaveLength(1);
  const data = JSON.parse(scripts[0]![1]!);
  expect(data["@context"]).toBe("https://schema.org");
  return data["@graph"];
}

const ofType = (graph: Record<string, unknown>[], type: string) =>
  graph.find((n) => n["@type"] === type) as Record<string, any>;

describe("structured data (Google's rich-result rules)", () => {
  it("describes the site and its search on the home page", async () => {
    const graph = await graphOf("/");
    const site = ofType(graph, "WebSite");
    expect(site).toMatchObject({ name: "Atelier Demo", url: "http://localhost/" });
    expect(site.potentialAction["@type"]).toBe("SearchAction");
    expect(site.potentialAction.target.urlTemplate).toBe("http://localhost/search?q={search_term_string}");
    expect(site.potentialAction["query-input"]).toBe("required name=search_term_string");
    expect(ofType(graph, "Organization")).toMatchObject({ name: "Atelier Demo", url: "http://localhost/" });
  });

  it("gives products name, image, description, brand and offers with price, currency and availability", async () => {
    const graph = await graphOf("/shop/p/everyday-linen-shirt");
    const p = ofType(graph, "Product");
    expect(p.name).toBe("Everyday Linen Shirt");
    expect(p.image[0]).toMatch(/^http:\/\/localhost\/media\//);
    expect(p.description.length).toBeGreaterThan(0);
    expect(p.brand).toEqual({ "@type": "Brand", name: "Atelier Demo" });
    const offers = p.offers;
    expect(offers["@type"]).toBe("AggregateOffer");
    expect(Number(offers.lowPrice)).toBeLessThanOrEqual(Number(offers.highPrice));
    expect(offers.offerCount).toBe(offers.offers.length);
    for (const o of offers.offers) {
      expect(o.price).toMatch(/^\d+(\.\d+)?$/);
      expect(o.priceCurrency).toBe("USD");
      expect(["https://schema.org/InStock", "https://schema.org/OutOfStock"]).toContain(o.availability);
      expect(o.url).toBe("http://localhost/shop/p/everyday-linen-shirt");
      expect(o.sku).toBeTruthy();
    }
    // A sold-out variant says so.
    expect(offers.offers.some((o: { availability: string }) => o.availability.endsWith("OutOfStock"))).toBe(
      true,
    );
    const crumbs = ofType(graph, "BreadcrumbList").itemListElement;
    expect(crumbs.map((c: { position: number }) => c.position)).toEqual([1, 2, 3]);
    expect(crumbs[2]).toMatchObject({
      name: "Everyday Linen Shirt",
      item: "http://localhost/shop/p/everyday-linen-shirt",
    });
  });

  it("gives posts headline, dates, author and image, and events name, dates and place", async () => {
    const post = ofType(await graphOf("/blog/a-week-at-the-wheel"), "BlogPosting");
    expect(post.headline.length).toBeGreaterThan(0);
    expect(post.headline.length).toBeLessThanOrEqual(110);
    expect(Date.parse(post.datePublished)).toBeGreaterThan(0);
    expect(Date.parse(post.dateModified)).toBeGreaterThanOrEqual(Date.parse(post.datePublished));
    expect(post.author).toEqual({ "@type": "Person", name: "Maya Chen" });
    expect(post.image[0]).toMatch(/^http:\/\/localhost\/media\//);

    const events = (await get("/events?format=json")).json();
    const first = events.items[0];
    const ev = ofType(await graphOf(first.fullUrl), "Event");
    expect(ev.name).toBe(first.title);
    expect(Date.parse(ev.startDate)).toBeGreaterThan(0);
    expect(Date.parse(ev.endDate)).toBeGreaterThanOrEqual(Date.parse(ev.startDate));
    expect(ev.location["@type"]).toBe("Place");
    expect(ev.location.address["@type"]).toBe("PostalAddress");
    expect(ev.location.address.streetAddress).toBeTruthy();
  });

  it("keeps a product name with </script> inside its JSON", async () => {
    const name = 'Vase </script><script>alert(1)</script> & "Bowl"';
    const res = await ownerSends("POST", "/products", {
      collectionId: await collectionId("shop"),
      title: name,
      urlId: "tricky-vase",
      productType: 1,
      variants: [{ priceCents: 1200, qtyInStock: 3 }],
    });
    expect(res.statusCode, res.body).toBe(201);
    // On PostgreSQL the page cache hears of the new product by NOTIFY, a moment later.
    await eventually(async () => (await get("/shop/p/tricky-vase")).statusCode).toBe(200);
    const html = (await get("/shop/p/tricky-vase")).body;
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(ofType(await graphOf("/shop/p/tricky-vase"), "Product").name).toBe(name);
  });
});

describe("SEO fields of items and products", () => {
  it("puts the SEO title and description in the page's title, description and share tags; too long is refused", async () => {
    const blog = await collectionId("blog");
    const created = await ownerSends("POST", `/collections/${blog}/items`, {
      title: "Glaze Notes",
      body: "<p>On celadon.</p>",
      seoTitle: "  How we mix   celadon glaze ",
      seoDescription: "Our recipe, step by step.",
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().item).toMatchObject({
      seoTitle: "How we mix celadon glaze",
      seoDescription: "Our recipe, step by step.",
    });
    const html = (await get(created.json().item.fullUrl)).body;
    expect(html).toContain("<title>How we mix celadon glaze — Atelier Demo</title>");
    expect(html).toContain('<meta name="description" content="Our recipe, step by step.">');
    expect(html).toContain('<meta property="og:title" content="How we mix celadon glaze">');
    expect(html).toContain('<meta name="twitter:title" content="How we mix celadon glaze">');
    expect(html).toContain('<meta name="twitter:description" content="Our recipe, step by step.">');
    expect(html).toMatch(/<meta name="twitter:card" content="summary(_large_image)?">/);

    const tooLong = await ownerSends("POST", `/collections/${blog}/items`, {
      title: "Long",
      seoTitle: "x".repeat(201),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.fields.seoTitle).toBe("An SEO title has at most 200 characters.");

    const product = await ownerSends("POST", "/products", {
      collectionId: await collectionId("shop"),
      title: "Tea Bowl",
      productType: 1,
      seoTitle: "Hand-thrown tea bowl",
      variants: [{ priceCents: 3400, qtyInStock: 2 }],
    });
    expect(product.statusCode).toBe(201);
    expect((await get(product.json().product.fullUrl)).body).toContain(
      "<title>Hand-thrown tea bowl — Atelier Demo</title>",
    );
  });
});

describe("hiding one page or item from search engines", () => {
  it("says noindex on it and leaves it out of the sitemap", async () => {
    const events = await collectionId("events");
    const page = await ownerSends("PATCH", `/pages/${events}`, { seoHidden: true });
    expect(page.statusCode).toBe(200);
    expect(page.json().page.seoHidden).toBe(true);
    await eventually(noindex("/events")).toBe(true);
    const sitemap = (await get("/sitemap.xml")).body;
    expect(sitemap).not.toContain("http://localhost/events<");
    expect(sitemap).not.toMatch(/http:\/\/localhost\/events\/./);
    await ownerSends("PATCH", `/pages/${events}`, { seoHidden: false });
    await eventually(noindex("/events")).toBe(false);

    const blog = await collectionId("blog");
    const post = await ownerSends("POST", `/collections/${blog}/items`, {
      title: "Members Preview",
      body: "<p>Shh.</p>",
      seoHidden: true,
    });
    expect(post.json().item.seoHidden).toBe(true);
    expect((await get(post.json().item.fullUrl)).body).toContain('<meta name="robots" content="noindex">');
    expect((await get("/sitemap.xml")).body).not.toContain("members-preview");
    expect((await get("/blog")).body).not.toContain('<meta name="robots" content="noindex">');
  });
});

describe("feeds", () => {
  it("answers RSS 2.0 for the blog, linked from its pages", async () => {
    const res = await get("/blog?format=rss");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/rss+xml");
    const rss = parser.parse(res.body).rss;
    expect(rss["@version"]).toBe("2.0");
    const items = rss.channel.item as Record<string, any>[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(20);
    for (const i of items) {
      expect(i.title).toBeTruthy();
      expect(i.link).toMatch(/^http:\/\/localhost\/blog\//);
      expect(i.guid["#text"]).toBeTruthy();
      expect(Number.isNaN(Date.parse(i.pubDate))).toBe(false);
      expect(typeof i.description).toBe("string");
    }
    expect(items.some((i) => i.enclosure?.["@url"]?.startsWith("http://localhost/media/"))).toBe(true);
    expect(items.some((i) => i.title === "Unfinished Thoughts")).toBe(false);
    for (const page of ["/blog", "/blog/a-week-at-the-wheel"])
      expect((await get(page)).body).toContain('<link rel="alternate" type="application/rss+xml"');
    expect((await get("/shop?format=rss")).statusCode).toBe(400);
  });

  it("answers iCalendar for events", async () => {
    const res = await get("/events?format=ical");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/calendar");
    expect(res.body.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(res.body.trimEnd().endsWith("END:VCALENDAR")).toBe(true);
    expect(res.body.match(/BEGIN:VEVENT/g)!.length).toBeGreaterThan(0);
    expect(res.body).toMatch(/DTSTART:\d{8}T\d{6}Z/);
    for (const line of res.body.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });
});

describe("noindex and hiding the site", () => {
  it("marks system pages noindex and hides the whole site when the owner asks", async () => {
    const robots = (html: string) => /<meta name="robots" content="noindex">/.test(html);
    expect(robots((await get("/")).body)).toBe(false);
    expect(robots((await get("/shop")).body)).toBe(false);
    for (const path of ["/search?q=vase", "/cart", "/no-such-page", "/staff-notes"])
      expect(robots((await get(path)).body), path).toBe(true);

    // The settings screen sends back everything it read, with the change.
    const current = (await owner.request({ url: `${base}/settings` })).json().settings;
    const hide = await ownerSends("PATCH", "/settings", { ...current, hideFromSearchEngines: true });
    expect(hide.statusCode).toBe(200);
    expect(hide.json().settings.hideFromSearchEngines).toBe(true);
    await eventually(async () => (await get("/robots.txt")).body).toBe("User-agent: *\nDisallow: /\n");
    await eventually(async () => robots((await get("/")).body)).toBe(true);
    await ownerSends("PATCH", "/settings", { hideFromSearchEngines: false });
    await eventually(async () => robots((await get("/")).body)).toBe(false);
  });
});
