/**
 * Moving a site in (issue #31): a WordPress export and Shopify / WooCommerce product CSVs of our
 * own (fixtures/moving-in) whose images a local HTTP server in the test serves. Images copied
 * once each into the media library, inline images shown from it, the page tree and the menu, the
 * Greek page at /ellinika, 301s from the old addresses through real HTTP, a private address
 * refused without IMPORT_ALLOW_PRIVATE, and a background import whose image server dies halfway.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PlatformImportReport, PlatformImportStatus } from "@atelier/owner-api";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { owner, t, useDemoApp } from "../../../test/demo-app.js";
import { demoApp, eventually } from "../../../test/harness.js";
import { multipartUpload } from "../../../test/multipart.js";

useDemoApp({ env: { IMPORT_ALLOW_PRIVATE: "true" } });

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "moving-in");
const fixture = (name: string, images: string) =>
  readFileSync(path.join(FIXTURES, name), "utf8").replaceAll("{{IMAGES}}", images);

/** A small PNG of one colour (each file its own, so copies can be told apart). */
const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

interface ImageServer {
  origin: string;
  /** Requests per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Serves PNGs at any path ending in .png (`/moved/x.png` redirects to `/x.png`, `/fake.png` is
 * text); after `dieAfter` files it closes, dropping every later request.
 */
async function imageServer(dieAfter = Number.POSITIVE_INFINITY): Promise<ImageServer> {
  const hits = new Map<string, number>();
  let served = 0;
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer(async (req, res) => {
    const p = req.url ?? "/";
    hits.set(p, (hits.get(p) ?? 0) + 1);
    if (served >= dieAfter) {
      req.socket.destroy();
      server.close();
      for (const s of sockets) s.destroy();
      return;
    }
    if (p.startsWith("/moved/")) {
      res.writeHead(302, { location: p.slice("/moved".length) }).end();
      return;
    }
    if (p === "/fake.png") {
      res.writeHead(200, { "content-type": "image/png" }).end("not an image at all");
      return;
    }
    if (!p.endsWith(".png")) {
      res.writeHead(404).end();
      return;
    }
    served++;
    const n = [...p].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 255, 7);
    res.writeHead(200, { "content-type": "image/png" }).end(await png(n, 255 - n, (n * 7) % 255));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
        if (!server.listening) resolve();
      }),
  };
}

/** A GET through real HTTP to the listening app, as a visitor of `host` (redirects not followed). */
function httpGet(port: number, host: string, url: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: url, headers: { host } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on("error", reject);
    req.end();
  });
}

const upload = (
  b: typeof owner,
  siteId: string,
  kind: "wordpress" | "products-csv",
  body: string,
  filename: string,
  copyRemoteFiles = true,
) =>
  b.request({
    method: "POST",
    url: `/api/owner/sites/${siteId}/imports/${kind}`,
    ...multipartUpload(
      { bytes: Buffer.from(body), filename, contentType: "application/octet-stream" },
      { copyRemoteFiles: String(copyRemoteFiles) },
    ),
  });

async function newSite(title: string): Promise<{ id: string; identifier: string }> {
  const res = await owner.request({
    method: "POST",
    url: "/api/owner/sites",
    payload: { title, theme: "commerce" },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().site;
}

async function mediaOf(
  siteId: string,
): Promise<{ id: string; title: string; filename: string; url: string }[]> {
  const res = await owner.request({ url: `/api/owner/websites/${siteId}/media` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().media;
}

let images: ImageServer;
let port: number;

beforeAll(async () => {
  images = await imageServer();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => images?.close());

describe("moving a WordPress site in", () => {
  let site: { id: string; identifier: string };
  let host: string;
  let report: PlatformImportReport;

  beforeAll(async () => {
    site = await newSite("Harbour");
    host = `${site.identifier}.localhost`;
    const res = await upload(
      owner,
      site.id,
      "wordpress",
      fixture("harbour-pottery.wxr.xml", images.origin),
      "harbour.xml",
    );
    expect(res.statusCode, res.body).toBe(200);
    report = res.json().report;
  }, 120_000);

  it("copies each image once into the media library and reports every item", async () => {
    expect(report.files).toEqual({ copied: 3, notCopied: [] });
    for (const p of [
      "/wp-content/uploads/2024/05/kiln.png",
      "/wp-content/uploads/2024/05/glaze.png",
      "/gallery/plate.png",
    ])
      expect(images.hits.get(p), p).toBe(1);
    // Another size of an attachment is served by the attachment's copy, never fetched.
    expect(images.hits.has("/wp-content/uploads/2024/05/kiln-300x200.png")).toBe(false);
    const media = await mediaOf(site.id);
    expect(media.map((m) => m.title).sort()).toEqual(["Blue glaze", "The kiln", "plate"]);
    const lines = report.lines.map((l) => `${l.status}: ${l.message}`);
    expect(lines).toContain(
      `imported: The kiln: image copied from ${images.origin}/wp-content/uploads/2024/05/kiln.png.`,
    );
    expect(lines).toContain("imported: Page Ελληνικά at /ellinika.");
    expect(lines).toContain("imported: Page Our team, in the folder About us.");
    expect(lines).toContain(
      "imported: Page Privacy policy, hidden from the navigation (not in the old menu).",
    );
    expect(lines).toContain(
      "skipped: Menu item Instagram: a link to https://instagram.example/harbour, not a page; Atelier's navigation lists pages.",
    );
    expect(report).toMatchObject({ source: "wxr", imported: 10, skipped: 1 });
  });

  it("shows the posts' inline images from the media library, aligned, and the featured image", async () => {
    const media = await mediaOf(site.id);
    const kiln = media.find((m) => m.title === "The kiln")!;
    const glaze = media.find((m) => m.title === "Blue glaze")!;
    const plate = media.find((m) => m.title === "plate")!;
    const json = await t.app.inject({ url: "/harbour-pottery/firing-day?format=json", headers: { host } });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().item.mainImageId ?? json.json().item.mainImage?.id).toBe(glaze.id);
    // The body as the post's template gets it (the page adds fetchpriority to its first image).
    const body = json.json().item.body as string;
    expect(body).toContain(
      `<img src="/media/${kiln.id}/${kiln.filename}" alt="The kiln at dawn" width="300" height="200" class="image-left" />`,
    );
    expect(body).toContain(
      `<img src="/media/${plate.id}/${plate.filename}" alt="A finished plate" class="image-center" />`,
    );
    expect(body).toContain("<p>The kiln ran for eleven hours.</p>");
    const page = await t.app.inject({ url: "/harbour-pottery/firing-day", headers: { host } });
    expect(page.body).toMatch(
      new RegExp(`<img [^>]*src="/media/${kiln.id}/kiln\\.png" alt="The kiln at dawn"`),
    );
    expect(page.body).not.toContain(images.origin);
    expect(page.body).not.toContain("[caption");
    expect(page.body).not.toContain("alert(1)");
    const other = await t.app.inject({ url: "/harbour-pottery/glaze-notes?format=json", headers: { host } });
    expect(other.json().item.body).toContain(
      `<img src="/media/${kiln.id}/${kiln.filename}" alt="Kiln again" class="image-right" />`,
    );
    const file = await httpGet(port, host, `/media/${kiln.id}/${kiln.filename}`);
    expect(file.status).toBe(200);
  });

  it("keeps the page tree as a folder and the old menu's order; pages not in it are hidden", async () => {
    const res = await owner.request({ url: `/api/owner/sites/${site.id}/pages` });
    const pages = res.json().pages as {
      id: string;
      kind: string;
      title: string;
      urlSlug: string;
      folderId: string | null;
      folderBehavior: string | null;
      hiddenFromNav: boolean;
    }[];
    const imported = pages.filter((p) =>
      ["About us", "Our team", "Workshop history", "Ελληνικά", "Privacy policy", "Contact"].includes(p.title),
    );
    const folder = imported.find((p) => p.kind === "folder")!;
    expect(folder).toMatchObject({ title: "About us", folderBehavior: "redirect", hiddenFromNav: false });
    expect(
      imported
        .filter((p) => p.kind === "page")
        .map((p) => [p.title, p.urlSlug, p.folderId === folder.id, p.hiddenFromNav]),
    ).toEqual([
      ["About us", "about-us", true, false],
      ["Our team", "our-team", true, false],
      ["Workshop history", "workshop-history", true, true],
      ["Contact", "contact", false, false],
      ["Ελληνικά", "ellinika", false, false],
      ["Privacy policy", "privacy-policy", false, true],
    ]);
    const home = await t.app.inject({ url: "/?format=json", headers: { host } });
    const nav = JSON.stringify(home.json());
    expect(nav.indexOf('"/about-us"')).toBeGreaterThan(-1);
    expect(nav).not.toContain('"/privacy-policy"');
    const greek = await httpGet(port, host, "/ellinika");
    expect(greek.status).toBe(200);
    const text = await t.app.inject({ url: "/ellinika", headers: { host } });
    expect(text.body).toContain("Κεραμική δίπλα στη θάλασσα.");
    const folderPage = await httpGet(port, host, `/${folder.urlSlug}`);
    expect(folderPage).toMatchObject({ status: 302, location: "/about-us" });
  });

  it("answers 301 from every old address to the new one, over real HTTP", async () => {
    const media = await mediaOf(site.id);
    const kiln = media.find((m) => m.title === "The kiln")!;
    const moves: [string, string][] = [
      ["/2024/05/firing-day/", "/harbour-pottery/firing-day"],
      ["/?p=30", "/harbour-pottery/firing-day"],
      ["/?p=31", "/harbour-pottery/glaze-notes"],
      ["/about-us/our-team/workshop-history/", "/workshop-history"],
      ["/?page_id=12", "/workshop-history"],
      ["/%ce%b5%ce%bb%ce%bb%ce%b7%ce%bd%ce%b9%ce%ba%ce%ac/", "/ellinika"],
      ["/?page_id=13", "/ellinika"],
      ["/wp-content/uploads/2024/05/kiln.png", `/media/${kiln.id}/${kiln.filename}`],
      ["/2024/05/firing-day/the-kiln/", `/media/${kiln.id}/${kiln.filename}`],
      ["/?attachment_id=20", `/media/${kiln.id}/${kiln.filename}`],
      ["/category/studio/", "/harbour-pottery?category=Studio"],
      ["/tag/kiln", "/harbour-pottery?tag=kiln"],
    ];
    for (const [from, to] of moves)
      expect(await httpGet(port, host, from), from).toEqual({ status: 301, location: to });
    // A query the old site did not use still shows the page.
    expect((await httpGet(port, host, "/?p=999")).status).toBe(200);
  });

  it("lists the import's URL mappings as one group, removable together", async () => {
    const list = await owner.request({ url: `/api/owner/sites/${site.id}/redirects` });
    const group = list.json().redirects.filter((r: { group: string | null }) => r.group === report.name);
    expect(group.length).toBe(report.redirects.added);
    expect(report.name).toMatch(/^WordPress import of harbour\.xml, \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    const gone = await owner.request({
      method: "DELETE",
      url: `/api/owner/sites/${site.id}/redirects?group=${encodeURIComponent(report.name)}`,
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().removed).toBe(group.length);
    // On PostgreSQL other caches hear of the removal by NOTIFY, a moment later.
    await eventually(async () => (await httpGet(port, host, "/?p=30")).status).toBe(200);
    await eventually(async () => (await httpGet(port, host, "/2024/05/firing-day")).status).toBe(404);
    const again = await owner.request({
      method: "DELETE",
      url: `/api/owner/sites/${site.id}/redirects?group=${encodeURIComponent(report.name)}`,
    });
    expect(again.statusCode).toBe(404);
    const unnamed = await owner.request({ method: "DELETE", url: `/api/owner/sites/${site.id}/redirects` });
    expect(unnamed.statusCode).toBe(400);
  });
});

describe("moving a Shopify store in", () => {
  it("copies each product image once, keeps every variant, and redirects /products and /collections addresses", async () => {
    const site = await newSite("Tide");
    const host = `${site.identifier}.localhost`;
    const res = await upload(
      owner,
      site.id,
      "products-csv",
      fixture("tide-supply.shopify.csv", images.origin),
      "products_export.csv",
    );
    expect(res.statusCode, res.body).toBe(200);
    const report: PlatformImportReport = res.json().report;
    expect(report).toMatchObject({ source: "shopify", imported: 2, files: { copied: 4, notCopied: [] } });
    for (const p of [
      "/cdn/tide-mug-front.png",
      "/cdn/tide-mug-side.png",
      "/cdn/tide-mug-top.png",
      "/cdn/tide-detail.png",
    ])
      expect(images.hits.get(p), p).toBe(1);
    const list = (await owner.request({ url: `/api/owner/sites/${site.id}/products` })).json().products as {
      id: string;
    }[];
    const products: {
      title: string;
      urlId: string;
      fullUrl: string;
      imageIds: string[];
      mainImageId: string;
      body: string;
    }[] = [];
    for (const { id } of list)
      products.push(
        (await owner.request({ url: `/api/owner/sites/${site.id}/products/${id}` })).json().product,
      );
    const mug = products.find((p) => p.title === "Tide mug")!;
    expect(mug.imageIds).toHaveLength(3);
    expect(mug.mainImageId).toBe(mug.imageIds[0]);
    expect(mug.body).toMatch(/<img src="\/media\/[0-9a-f]{24}\/tide-detail\.png" alt="Glaze detail" \/>/);
    const greek = products.find((p) => p.title === "Κούπα θάλασσα")!;
    expect(greek.urlId).toBe("koypa-thalassa");
    expect(greek.mainImageId).toBe(mug.mainImageId);
    const shown = await t.app.inject({ url: `${mug.fullUrl}?format=json`, headers: { host } });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(JSON.stringify(shown.json())).toContain('"Large"');
    for (const from of [
      "/products/tide-mug",
      "/collections/all/products/tide-mug",
      "/collections/summer/products/tide-mug/",
    ])
      expect(await httpGet(port, host, from), from).toEqual({ status: 301, location: mug.fullUrl });
    const greekOld = `/products/${encodeURIComponent("κούπα-θάλασσα")}`;
    expect(await httpGet(port, host, greekOld)).toEqual({ status: 301, location: greek.fullUrl });
  });
});

describe("an import with many files runs in the background", () => {
  it("reports progress, and finishes with what was not copied when the image server dies halfway", async () => {
    const dying = await imageServer(5);
    const site = await newSite("Quay");
    const host = `${site.identifier}.localhost`;
    const header = "ID,Type,SKU,Name,Published,Categories,Regular price,Sale price,In stock?,Stock,Images";
    const rows = Array.from(
      { length: 12 },
      (_, i) =>
        `${100 + i},simple,Q-${i},Quay bowl ${i + 1},1,Bowls > Small bowls,${20 + i}.00,,1,3,${dying.origin}/bowl-${i + 1}.png`,
    );
    const res = await upload(owner, site.id, "products-csv", [header, ...rows].join("\n"), "quay.csv");
    expect(res.statusCode, res.body).toBe(202);
    const { importId } = res.json();
    expect(importId).toMatch(/^[0-9a-f]{24}$/);
    let status: PlatformImportStatus | undefined;
    for (let i = 0; i < 600; i++) {
      const poll = await owner.request({ url: `/api/owner/sites/${site.id}/imports/${importId}` });
      expect(poll.statusCode, poll.body).toBe(200);
      status = poll.json();
      if (status!.status !== "running") break;
      expect(status!.report).toBeNull();
      await new Promise((r) => setTimeout(r, 100));
    }
    await dying.close();
    // The server dies while files are in flight: how many made it depends on timing, not the total.
    expect(status, JSON.stringify(status)).toMatchObject({ status: "done", progress: { left: 0 } });
    const { done, failed } = status!.progress;
    expect(done + failed).toBe(12);
    expect(done).toBeGreaterThanOrEqual(2);
    expect(failed).toBeGreaterThanOrEqual(7);
    const report = status!.report!;
    expect(report).toMatchObject({ source: "woocommerce", imported: 12, files: { copied: done } });
    expect(report.files.notCopied).toHaveLength(failed);
    for (const f of report.files.notCopied) {
      expect(f.url).toMatch(new RegExp(`^${dying.origin}/bowl-\\d+\\.png$`));
      expect(f.reason).toMatch(/refused the connection|closed the connection/);
    }
    expect(report.lines.filter((l) => l.message.includes("1 image(s) kept as links"))).toHaveLength(failed);
    expect(await mediaOf(site.id)).toHaveLength(done);
    expect(await httpGet(port, host, "/product/quay-bowl-3")).toMatchObject({ status: 301 });
    expect(await httpGet(port, host, "/?p=102")).toMatchObject({ status: 301 });
    expect(await httpGet(port, host, "/product-category/bowls/small-bowls")).toMatchObject({
      status: 301,
      location: expect.stringMatching(/\?category=Small%20bowls$/),
    });
  }, 120_000);

  it("answers 404 for an import that is not the site's", async () => {
    const res = await owner.request({
      url: `/api/owner/sites/${(await newSite("Other")).id}/imports/${"a".repeat(24)}`,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe("without IMPORT_ALLOW_PRIVATE", () => {
  let plain: Awaited<ReturnType<typeof demoApp>>;
  beforeAll(async () => {
    plain = await demoApp();
  }, 60_000);
  afterAll(() => plain?.t.close());

  it("refuses to copy from a private address, reports it, and imports the rest with its links", async () => {
    const { owner: someone, siteId } = plain;
    const before = images.hits.get("/wp-content/uploads/2024/05/kiln.png");
    const res = await upload(
      someone,
      siteId,
      "wordpress",
      fixture("harbour-pottery.wxr.xml", images.origin),
      "harbour.xml",
    );
    expect(res.statusCode, res.body).toBe(200);
    const report: PlatformImportReport = res.json().report;
    expect(report.files.copied).toBe(0);
    expect(report.files.notCopied.map((f) => f.reason)).toEqual([
      "The address points to a private or local network, which Atelier does not call.",
      "The address points to a private or local network, which Atelier does not call.",
      "The address points to a private or local network, which Atelier does not call.",
    ]);
    expect(images.hits.get("/wp-content/uploads/2024/05/kiln.png")).toBe(before);
    expect(report.lines.map((l) => l.message)).toContain(
      `The kiln: attachment kept as a link (${images.origin}/wp-content/uploads/2024/05/kiln.png).`,
    );
    expect(report.imported).toBe(8);
  });
});
