/**
 * Settings → Export → "Bring content from another platform" in Chromium (issue #31): a WordPress
 * export whose images a local server serves slowly (one is missing) is imported with "Copy images
 * from their current addresses" ticked; the import runs in the background, the screen shows its
 * progress, then the report naming the image not copied and why; Settings → URL mappings shows
 * the import's group and removes it; the rich-text editor then inserts one of the copied images
 * into a product's description, aligned right. Screenshots: e2e/screenshots/moving-in-*.png.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { websites } from "../apps/server/src/db/schema.js";
import { seedDemoIfEmpty } from "../apps/server/src/seed/demo.js";
import { DESKTOP, PHONE, browser, screenshot, scaled } from "./browser.js";
import { ownerLogIn } from "./owner.js";
import { useOwnServer } from "./own-server.js";

const server = useOwnServer(
  "moving-in",
  (database, config) => seedDemoIfEmpty(database.db, config, { now: () => new Date() }),
  { IMPORT_ALLOW_PRIVATE: "true" },
);
const base = () => `http://localhost:${server.port}`;

let images: http.Server;
let origin = "";
let dir = "";

beforeAll(async () => {
  // Each image takes a moment, so the import's progress is there to see.
  images = http.createServer(async (req, res) => {
    await new Promise((r) => setTimeout(r, 700));
    const m = /^\/uploads\/photo-(\d+)\.png$/.exec(req.url ?? "");
    if (!m) return void res.writeHead(404).end();
    const n = Number(m[1]) * 20;
    const png = await sharp({
      create: { width: 60, height: 40, channels: 3, background: { r: n, g: 90, b: 200 - n } },
    })
      .png()
      .toBuffer();
    res.writeHead(200, { "content-type": "image/png" }).end(png);
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(os.tmpdir(), "atelier-moving-in-e2e-"));
});
afterAll(async () => {
  await new Promise((r) => images?.close(r));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A WordPress export of our own: ten photos as attachments, a post showing two, and a missing one. */
function wxr(): string {
  const attachment = (i: number) => `
  <item><title>Photo ${i}</title><wp:post_id>${100 + i}</wp:post_id><wp:post_type>attachment</wp:post_type>
    <wp:attachment_url>${origin}/uploads/photo-${i}.png</wp:attachment_url></item>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Dockside Photos</title>
${Array.from({ length: 10 }, (_, i) => attachment(i + 1)).join("")}
  <item><title>Lost photo</title><wp:post_id>199</wp:post_id><wp:post_type>attachment</wp:post_type>
    <wp:attachment_url>${origin}/uploads/lost.png</wp:attachment_url></item>
  <item><title>Harbour at night</title><link>https://dockside.example/2023/harbour-at-night/</link>
    <content:encoded><![CDATA[<p>Lights on the water.</p><p><img src="${origin}/uploads/photo-1.png" class="alignleft" alt="Night"></p>]]></content:encoded>
    <wp:post_id>7</wp:post_id><wp:post_name>harbour-at-night</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>
</channel></rss>`;
}

describe("moving a WordPress site in from the dashboard", () => {
  it("shows the background import's progress, its report and the URL mappings group", {
    timeout: scaled(180_000),
  }, async () => {
    const file = path.join(dir, "dockside.xml");
    writeFileSync(file, wxr());
    const [site] = await server.database.db.select().from(websites).where(eq(websites.isDefault, true));
    const { page, errors, context } = await ownerLogIn(browser, base(), DESKTOP);
    await page.goto(`${base()}/config/sites/${site!.id}`);
    await page.getByRole("link", { name: "Export", exact: true }).click();
    await page.getByRole("heading", { name: "Bring content from another platform" }).waitFor();
    await page
      .getByLabel("WordPress or Squarespace export (.xml, or .zip with its uploads)")
      .setInputFiles(file);
    const copy = page.getByLabel("Copy images from their current addresses").first();
    expect(await copy.isChecked()).toBe(true);
    await page.getByRole("button", { name: "Import posts and pages" }).click();
    const progress = page.getByText(
      /Copying images from the old site: \d+ copied, \d+ not copied, \d+ left\./,
    );
    await progress.waitFor({ timeout: 30_000 });
    await screenshot(page, "moving-in-progress-desktop");
    const report = page.locator(".import-report");
    await report.waitFor({ timeout: 60_000 });
    expect(await report.textContent()).toContain("10 images copied, 1 not copied");
    expect(await report.textContent()).toContain(
      `${origin}/uploads/lost.png: The old site answered 404 instead of the file.`,
    );
    expect(await report.textContent()).toMatch(/old addresses now answer 301 to the new ones/);
    await screenshot(page, "moving-in-report-desktop");
    await page.setViewportSize(PHONE);
    await screenshot(page, "moving-in-report-phone");
    await page.setViewportSize(DESKTOP);

    await report.getByRole("link", { name: "URL mappings" }).click();
    const group = page.getByRole("heading", { name: /^WordPress import of dockside\.xml, / });
    await group.waitFor();
    await screenshot(page, "moving-in-url-mappings-desktop");
    await page.getByRole("button", { name: /^Remove all \d+ mappings of this import$/ }).click();
    await group.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("inserts an image from the media library into a rich text, aligned", {
    timeout: scaled(120_000),
  }, async () => {
    const [site] = await server.database.db.select().from(websites).where(eq(websites.isDefault, true));
    const { page, errors, context } = await ownerLogIn(browser, base(), DESKTOP);
    const api = `${base()}/api/owner/sites/${site!.id}`;
    const list = (await (await page.request.get(`${api}/products`)).json()) as { products: { id: string }[] };
    const productId = list.products[0]!.id;
    await page.goto(`${base()}/config/sites/${site!.id}/products/${productId}`);
    await page.getByRole("button", { name: "Image from the media library" }).click();
    const dialog = page.getByRole("dialog", { name: "Choose an image" });
    await dialog.getByRole("button", { name: "Photo 3", exact: true }).click();
    await dialog.getByRole("button", { name: "Use image" }).click();
    const inserted = page.locator('.rte img[alt="Photo 3"]');
    await inserted.waitFor();
    await inserted.click();
    await page.getByRole("button", { name: "Image on the right" }).click();
    await expect.poll(() => inserted.getAttribute("class")).toContain("image-right");
    await inserted.click();
    await page.getByRole("button", { name: "Image centred" }).waitFor();
    await screenshot(page, "moving-in-rich-text-image-desktop");
    await page.getByRole("button", { name: "Save product" }).click();
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get(`${api}/products/${productId}`)).json()) as {
              product: { body: string };
            }
          ).product.body,
      )
      .toMatch(/<img src="\/media\/[0-9a-f]{24}\/photo-3\.png" alt="Photo 3" class="image-right" \/>/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
