import sharp from "sharp";
import { describe, expect, it } from "vitest";
import yazl from "yazl";
import { owner, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { multipartFile } from "./archive.test-helper.js";
import { csvRecords } from "../../lib/csv.js";

useDemoApp();

const upload = (url: string, body: string | Buffer, filename: string) =>
  owner.request({ method: "POST", url, ...multipartFile(Buffer.from(body), filename) });

const productsCsvUrl = (id: string) => `/api/owner/sites/${id}/imports/products-csv`;

/** Imports a products CSV into site `id`, checks it was read as `source`'s format, answers the report. */
async function importedProducts(id: string, csv: string, filename: string, source: string) {
  const res = await upload(productsCsvUrl(id), csv, filename);
  expect(res.statusCode, res.body).toBe(200);
  const { report } = res.json();
  expect(report.source).toBe(source);
  return report;
}

async function newSite(title: string): Promise<{ id: string; identifier: string }> {
  const res = await owner.request({
    method: "POST",
    url: "/api/owner/sites",
    payload: { title, theme: "commerce" },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().site;
}

const WXR = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
  <title>Old Studio Journal</title>
  <wp:author><wp:author_login>maya</wp:author_login><wp:author_display_name><![CDATA[Maya Chen]]></wp:author_display_name></wp:author>
  <item>
    <title>Firing the kiln</title>
    <dc:creator>maya</dc:creator>
    <content:encoded><![CDATA[<p>We fired the <strong>kiln</strong>.</p><p><img src="https://old.example.com/kiln.jpg" alt="Kiln"></p>]]></content:encoded>
    <excerpt:encoded><![CDATA[A long night.]]></excerpt:encoded>
    <wp:post_date_gmt>2023-05-04 18:30:00</wp:post_date_gmt>
    <wp:post_name>firing-the-kiln</wp:post_name>
    <wp:status>publish</wp:status>
    <wp:post_type>post</wp:post_type>
    <category domain="category" nicename="studio"><![CDATA[Studio]]></category>
    <category domain="post_tag" nicename="kiln"><![CDATA[kiln]]></category>
    <category domain="post_tag" nicename="glaze"><![CDATA[glaze]]></category>
    <wp:comment><wp:comment_author>Sam</wp:comment_author><wp:comment_date_gmt>2023-05-05 08:00:00</wp:comment_date_gmt><wp:comment_content><![CDATA[Beautiful!]]></wp:comment_content><wp:comment_approved>1</wp:comment_approved></wp:comment>
    <wp:comment><wp:comment_author>Bot</wp:comment_author><wp:comment_date_gmt>2023-05-05 09:00:00</wp:comment_date_gmt><wp:comment_content>Buy pills</wp:comment_content><wp:comment_approved>spam</wp:comment_approved></wp:comment>
  </item>
  <item>
    <title>Next season</title>
    <dc:creator>maya</dc:creator>
    <content:encoded><![CDATA[<p>Plans.</p>]]></content:encoded>
    <wp:post_date_gmt>2023-06-01 10:00:00</wp:post_date_gmt>
    <wp:post_name>next-season</wp:post_name>
    <wp:status>draft</wp:status>
    <wp:post_type>post</wp:post_type>
  </item>
  <item>
    <title>Visit us</title>
    <content:encoded><![CDATA[<p>Open Saturdays.</p><script>alert(1)</script>]]></content:encoded>
    <wp:post_name>visit-us</wp:post_name>
    <wp:status>publish</wp:status>
    <wp:post_type>page</wp:post_type>
  </item>
  <item>
    <title>kiln.jpg</title>
    <wp:post_type>attachment</wp:post_type>
    <wp:attachment_url>https://old.example.com/kiln.jpg</wp:attachment_url>
  </item>
  <item>
    <title>Old junk</title>
    <wp:status>trash</wp:status>
    <wp:post_type>post</wp:post_type>
  </item>
</channel>
</rss>`;

describe("imports from other platforms", () => {
  it("brings in a WordPress export: posts with categories, tags, author, date and comments; pages; a report", async () => {
    const site = await newSite("From WordPress");
    const res = await upload(`/api/owner/sites/${site.id}/imports/wordpress`, WXR, "export.xml");
    expect(res.statusCode, res.body).toBe(200);
    const { report } = res.json();
    expect(report).toMatchObject({ source: "wxr", imported: 3, skipped: 2 });
    expect(report.lines.map((l: { status: string; message: string }) => `${l.status}: ${l.message}`)).toEqual(
      [
        "imported: Post Firing the kiln: 1 comment(s), 1 spam or trashed left out.",
        "imported: Post Next season: 0 comment(s).",
        "imported: Page Visit us.",
        "skipped: kiln.jpg: attachment kept as a link (https://old.example.com/kiln.jpg).",
        "skipped: Old junk: trash items are not imported.",
      ],
    );
    const host = `${site.identifier}.localhost`;
    const post = await t.app.inject({
      url: "/old-studio-journal/firing-the-kiln?format=json",
      headers: { host },
    });
    expect(post.statusCode, post.body).toBe(200);
    const item = post.json().item;
    expect(item.title).toBe("Firing the kiln");
    expect(item.author?.displayName ?? item.authorName).toBe("Maya Chen");
    expect(item.categories).toEqual(["Studio"]);
    expect(item.tags).toEqual(["kiln", "glaze"]);
    expect(item.publishOn).toBe(Date.parse("2023-05-04T18:30:00Z"));
    expect(item.body).toContain('<a href="https://old.example.com/kiln.jpg">Kiln</a>');
    const page = await t.app.inject({ url: "/visit-us", headers: { host } });
    expect(page.body).toContain("Open Saturdays.");
    expect(page.body).not.toContain("alert(1)");
    const html = await t.app.inject({ url: "/old-studio-journal/firing-the-kiln", headers: { host } });
    expect(html.body).toContain("Beautiful!");
    expect(html.body).not.toContain("Buy pills");
  });

  it("refuses a file that is not WXR", async () => {
    const res = await upload(`/api/owner/sites/${siteId}/imports/wordpress`, "<html></html>", "x.xml");
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/not a WordPress export/);
  });

  it("brings in a Shopify products CSV with variants, prices, stock and image links, line by line", async () => {
    const site = await newSite("From Shopify");
    const csv = [
      "Handle,Title,Body (HTML),Type,Tags,Published,Option1 Name,Option1 Value,Variant SKU,Variant Grams,Variant Inventory Tracker,Variant Inventory Qty,Variant Price,Variant Compare At Price,Variant Requires Shipping,Image Src,Status",
      'linen-apron,Linen Apron,"<p>Soft, strong linen.</p>",Aprons,"linen, kitchen",true,Size,S,APRON-S,300,shopify,4,38.00,45.00,true,https://cdn.example.com/apron.jpg,active',
      "linen-apron,,,,,,,M,APRON-M,320,shopify,0,38.00,45.00,true,,",
      "linen-apron,,,,,,,,,,,,,,,https://cdn.example.com/apron-2.jpg,",
      "broken-mug,Broken Mug,,,,true,Title,Default Title,MUG-1,0,shopify,3,cheap,,true,,active",
    ].join("\n");
    const report = await importedProducts(site.id, csv, "products_export.csv", "shopify");
    expect(report.lines).toEqual([
      { line: 2, status: "imported", message: "Linen Apron: 2 variant(s); 2 image(s) kept as links." },
      { line: 5, status: "skipped", message: 'Product broken-mug: "cheap" is not a price.' },
      { line: 5, status: "skipped", message: "Broken Mug: no variant with a price." },
    ]);
    const products = (await owner.request({ url: `/api/owner/sites/${site.id}/products` })).json();
    const apron = products.products.find((p: { title: string }) => p.title === "Linen Apron");
    const { product } = (
      await owner.request({ url: `/api/owner/sites/${site.id}/products/${apron.id}` })
    ).json();
    const variants = product.variants as Record<string, unknown>[];
    expect(product.body).toContain('<a href="https://cdn.example.com/apron-2.jpg">Image 2</a>');
    expect(variants.map((v) => [v.sku, v.priceCents, v.salePriceCents, v.onSale, v.qtyInStock])).toEqual([
      ["APRON-S", 4500, 3800, true, 4],
      ["APRON-M", 4500, 3800, true, 0],
    ]);
  });

  it("brings in a WooCommerce products CSV: simple and variable products, orphans reported", async () => {
    const site = await newSite("From WooCommerce");
    const csv = [
      "ID,Type,SKU,Name,Published,Short description,Description,In stock?,Stock,Weight (kg),Sale price,Regular price,Categories,Tags,Images,Parent,Attribute 1 name,Attribute 1 value(s)",
      '11,simple,CANDLE,Beeswax Candle,1,Hand poured,"<p>Burns, slowly.</p>",1,12,0.4,,18.50,Home > Candles,wax,https://cdn.example.com/candle.jpg,,,',
      '12,variable,THROW,Wool Throw,1,,<p>Warm.</p>,1,,,,,Home,,,,Colour,"Grey, Oat"',
      "13,variation,THROW-GREY,Wool Throw - Grey,1,,,1,2,1.2,,120.00,,,,THROW,Colour,Grey",
      "14,variation,THROW-OAT,Wool Throw - Oat,1,,,1,5,1.2,99.00,120.00,,,,id:12,Colour,Oat",
      "15,variation,LOST-1,Lost,1,,,1,5,,,10.00,,,,NOPE,Colour,Red",
      "16,grouped,GROUP,Gift Set,1,,,1,,,,,,,,,,",
    ].join("\n");
    const report = await importedProducts(site.id, csv, "wc-product-export.csv", "woocommerce");
    expect(report.lines).toEqual([
      { line: 2, status: "imported", message: "Beeswax Candle: 1 variant(s); 1 image(s) kept as links." },
      { line: 3, status: "imported", message: "Wool Throw: 2 variant(s)." },
      { line: 6, status: "skipped", message: "Variation Lost: its parent NOPE is not in the file." },
      { line: 7, status: "skipped", message: "Gift Set: grouped products are not supported." },
    ]);
  });

  it("exports products as a Shopify CSV that imports into another site", async () => {
    const res = await owner.request({ url: `/api/owner/sites/${siteId}/export/shopify-products.csv` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    const records = csvRecords(res.body);
    const handles = new Set(records.map((r) => r.get("Handle")));
    expect(handles.size).toBeGreaterThan(10);
    const shirt = records.find((r) => r.get("Title") === "Everyday Linen Shirt")!;
    expect(shirt.get("Variant Price")).toMatch(/^\d+\.\d\d$/);
    const site = await newSite("Shopify round trip");
    const again = await upload(productsCsvUrl(site.id), res.body, "p.csv");
    expect(again.statusCode, again.body).toBe(200);
    const imported = again.json().report.lines.filter((l: { status: string }) => l.status === "imported");
    expect(imported.length).toBeGreaterThan(0);
    for (const l of again.json().report.lines) if (l.status === "skipped") expect(l.message).toBeTruthy();
  });

  it("refuses a CSV from an unknown shop", async () => {
    const res = await upload(productsCsvUrl(siteId), "a,b\n1,2\n", "x.csv");
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/neither a Shopify/);
  });
});

const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

async function zipOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of Object.entries(files)) zip.addBuffer(Buffer.from(bytes), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const UP = "https://old.example.com/wp-content/uploads/2023/05";
const attachment = (id: number, title: string, file: string) => `
  <item>
    <title>${title}</title>
    <wp:post_id>${id}</wp:post_id>
    <wp:post_type>attachment</wp:post_type>
    <wp:status>inherit</wp:status>
    <wp:attachment_url>${UP}/${file}</wp:attachment_url>
  </item>`;
const BUNDLED_WXR = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
  <title>Glaze Notes</title>
  <item>
    <title>Blue glaze</title>
    <wp:post_id>10</wp:post_id>
    <content:encoded><![CDATA[<p>Test tiles.</p><p><img src="${UP}/tiles-300x200.png" alt="Tiles"></p><p><img src="${UP}/lost.jpg" alt="Lost"></p>]]></content:encoded>
    <wp:post_name>blue-glaze</wp:post_name>
    <wp:status>publish</wp:status>
    <wp:post_type>post</wp:post_type>
    <wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>21</wp:meta_value></wp:postmeta>
  </item>
  ${attachment(21, "Kiln", "kiln.png")}
  ${attachment(22, "Tiles", "tiles.png")}
  ${attachment(23, "Lost", "lost.jpg")}
  ${attachment(24, "Price list", "prices.pdf")}
  ${attachment(25, "Poster", "poster.png")}
</channel>
</rss>`;

describe("WordPress export bundled with its uploads", () => {
  const mediaOf = async (id: string) =>
    (await owner.request({ url: `/api/owner/websites/${id}/media` })).json().media as {
      id: string;
      title: string;
    }[];

  it("imports bundled images as media: the featured image is the post's main image, the body points at the copy", async () => {
    const site = await newSite("Bundled WordPress");
    const kiln = await png(200, 60, 20);
    const bundle = await zipOf({
      "export/glaze-notes.WordPress.2023-06-01.xml": BUNDLED_WXR,
      "export/wp-content/uploads/2023/05/kiln.png": kiln,
      "export/wp-content/uploads/2023/05/prices.pdf": "%PDF-1.4 not an image",
      "tiles.png": await png(20, 60, 200),
      "export/wp-content/uploads/2023/05/poster.png": Buffer.alloc(21 * 1024 * 1024),
    });
    const res = await upload(`/api/owner/sites/${site.id}/imports/wordpress`, bundle, "glaze.zip");
    expect(res.statusCode, res.body).toBe(200);
    const { report } = res.json();
    expect(report.lines.map((l: { status: string; message: string }) => `${l.status}: ${l.message}`)).toEqual(
      [
        "imported: Post Blue glaze: 0 comment(s).",
        "imported: Kiln: image imported from export/wp-content/uploads/2023/05/kiln.png.",
        "imported: Tiles: image imported from tiles.png.",
        `skipped: Lost: no file in the bundle, attachment kept as a link (${UP}/lost.jpg).`,
        "skipped: Price list: export/wp-content/uploads/2023/05/prices.pdf skipped: The file is not an image we can read (JPEG, PNG, WebP, GIF, AVIF or SVG); " +
          `attachment kept as a link (${UP}/prices.pdf).`,
        "skipped: Poster: export/wp-content/uploads/2023/05/poster.png skipped: The file is too large: images may be at most 20 MB; " +
          `attachment kept as a link (${UP}/poster.png).`,
      ],
    );
    expect(report).toMatchObject({ imported: 3, skipped: 3 });

    const media = await mediaOf(site.id);
    expect(media.map((m) => m.title).sort()).toEqual(["Kiln", "Tiles"]);
    const host = `${site.identifier}.localhost`;
    const post = await t.app.inject({ url: "/glaze-notes/blue-glaze?format=json", headers: { host } });
    expect(post.statusCode, post.body).toBe(200);
    const item = post.json().item;
    const kilnMedia = media.find((m) => m.title === "Kiln")!;
    const tilesMedia = media.find((m) => m.title === "Tiles")!;
    expect(item.mainImageId ?? item.mainImage?.id).toBe(kilnMedia.id);
    expect(item.body).toContain(`<img src="/media/${tilesMedia.id}/tiles.png" alt="Tiles" />`);
    expect(item.body).toContain(`<a href="${UP}/lost.jpg">Lost</a>`);
    expect(item.body).not.toContain("old.example.com/wp-content/uploads/2023/05/tiles");
    const served = await t.app.inject({ url: `/media/${kilnMedia.id}/kiln.png`, headers: { host } });
    expect(served.statusCode).toBe(200);
    expect(Buffer.compare(served.rawPayload, kiln)).toBe(0);
    const body = await t.app.inject({ url: `/media/${tilesMedia.id}/tiles.png`, headers: { host } });
    expect(body.statusCode).toBe(200);
  });

  it("refuses a damaged zip and creates nothing", async () => {
    const site = await newSite("Damaged bundle");
    const whole = await zipOf({
      "export.xml": BUNDLED_WXR,
      "wp-content/uploads/2023/05/kiln.png": await png(1, 2, 3),
    });
    const res = await upload(
      `/api/owner/sites/${site.id}/imports/wordpress`,
      whole.subarray(0, whole.length - 30),
      "export.zip",
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.message).toMatch(/not a complete zip/);
    expect(await mediaOf(site.id)).toEqual([]);
    const pages = (await owner.request({ url: `/api/owner/sites/${site.id}/pages` })).json();
    expect(JSON.stringify(pages)).not.toContain("Glaze Notes");
  });

  it("removes the media it wrote when a bundled file is damaged part way", async () => {
    const site = await newSite("Half-damaged bundle");
    const kiln = await png(9, 9, 9);
    const whole = await zipOf({
      "wp-content/uploads/2023/05/kiln.png": kiln,
      "wp-content/uploads/2023/05/tiles.png": await png(8, 8, 8),
      "export.xml": BUNDLED_WXR,
    });
    // Corrupt the compressed bytes of tiles.png (the second entry): its CRC check fails on reading.
    const at = whole.indexOf("wp-content/uploads/2023/05/tiles.png") + 60;
    const damaged = Buffer.from(whole);
    for (let i = at; i < at + 40; i++) damaged[i] = damaged[i]! ^ 0xff;
    const res = await upload(`/api/owner/sites/${site.id}/imports/wordpress`, damaged, "export.zip");
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({
      code: "invalid_archive",
      message: expect.stringMatching(/tiles\.png/),
    });
    expect(await mediaOf(site.id)).toEqual([]);
    expect(await t.app.deps.media.list(`media/${site.id}/`)).toEqual([]);
    const pages = (await owner.request({ url: `/api/owner/sites/${site.id}/pages` })).json();
    expect(JSON.stringify(pages)).not.toContain("Glaze Notes");
  });
});
