/**
 * Settings → Export and Sites → Import a site in Chromium: the owner downloads the demo's archive,
 * imports it as a new site and sees the report; a file that is not an archive is refused with the
 * server's message. Screenshots: e2e/screenshots/archive-*.png.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DESKTOP, DEVICES, launch, screenshot, scaled } from "./browser.js";
import { demoOwnerLogIn, ownerCall, ownerLogIn } from "./owner.js";

const base = inject("baseUrl");
let browser: Browser;
let dir: string;
beforeAll(async () => {
  browser = await launch();
  dir = mkdtempSync(path.join(os.tmpdir(), "atelier-archive-e2e-"));
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("site archives in the dashboard", () => {
  let archive = "";

  it("exports the demo from Settings → Export", async () => {
    const { page, errors, context, siteId } = await demoOwnerLogIn(browser, base, DESKTOP);
    await page.goto(`${base}/config/sites/${siteId}`);
    await page.getByRole("link", { name: "Export", exact: true }).click();
    await page.getByRole("heading", { name: "Export", exact: true }).waitFor();
    await screenshot(page, "archive-export-desktop");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download archive" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^demo-\d{4}-\d\d-\d\d\.atelier\.zip$/);
    archive = path.join(dir, download.suggestedFilename());
    await download.saveAs(archive);
    expect(statSync(archive).size).toBeGreaterThan(10_000);
    // The same archive prepared in the background, with its progress and a download link.
    await page.getByRole("button", { name: "Prepare archive in the background" }).click();
    const ready = page.getByRole("link", { name: "Download the prepared archive" });
    await ready.waitFor({ timeout: 30_000 });
    expect(await page.locator(".background-export").textContent()).toMatch(
      /Ready: \d+ records, \d+ media files/,
    );
    await screenshot(page, "archive-export-background-desktop");
    const [prepared] = await Promise.all([page.waitForEvent("download"), ready.click()]);
    expect(prepared.suggestedFilename()).toMatch(/\.atelier\.zip$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const [device, viewport] of DEVICES) {
    it(`imports it from Sites → Import a site (${device})`, { timeout: scaled(150_000) }, async () => {
      const { page, errors, context } = await ownerLogIn(browser, base, viewport);
      await page.getByRole("button", { name: "Import a site" }).click();
      const dialog = page.getByRole("dialog", { name: "Import a site" });
      await dialog.getByLabel("Site archive (.zip)").setInputFiles(archive);
      await screenshot(page, `archive-import-${device}`);
      const before = await ownerCall<{ sites: { id: string }[] }>(page, "GET", "/api/owner/sites");
      await dialog.getByRole("button", { name: "Import site" }).click();
      // Either outcome ends the wait, so a refused import fails with the server's words.
      await dialog.locator(".import-report").or(dialog.getByRole("alert")).waitFor({ timeout: 100_000 });
      expect(await dialog.textContent()).toMatch(/Imported as Atelier Demo/);
      expect(await dialog.textContent()).toMatch(/\d+ posts, items and products/);
      await screenshot(page, `archive-imported-${device}`);
      const open = dialog.getByRole("link", { name: /^Open Atelier Demo/ });
      const newId = /\/config\/sites\/([a-f0-9]{24})$/.exec((await open.getAttribute("href")) ?? "")?.[1];
      expect(newId).toBeTruthy();
      // Renamed at once, so other browser tests keep finding the demo by its title.
      await ownerCall(page, "PATCH", `/api/owner/sites/${newId}`, { title: `Imported demo (${device})` });
      expect(before.sites.map((s) => s.id)).not.toContain(newId);
      await open.click();
      await page.waitForURL((url) => url.pathname.endsWith(`/config/sites/${newId}`));
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("brings in a WordPress export from Settings → Export, with its report", async () => {
    const { page, errors, context } = await ownerLogIn(browser, base, DESKTOP);
    const site = await ownerCall<{ site: { id: string } }>(page, "POST", "/api/owner/sites", {
      title: "Journal from WordPress",
      theme: "classic",
    });
    const wxr = path.join(dir, "wordpress.xml");
    writeFileSync(
      wxr,
      `<?xml version="1.0"?><rss xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>Old journal</title>
      <item><title>Hello again</title><content:encoded><![CDATA[<p>First post.</p>]]></content:encoded><wp:post_type>post</wp:post_type><wp:status>publish</wp:status></item>
      <item><title>logo.png</title><wp:post_type>attachment</wp:post_type><wp:attachment_url>https://old.example.com/logo.png</wp:attachment_url></item>
      </channel></rss>`,
    );
    await page.goto(`${base}/config/sites/${site.site.id}/settings/export`);
    await page
      .getByLabel("WordPress or Squarespace export (.xml, or .zip with its uploads)")
      .setInputFiles(wxr);
    await page.getByRole("button", { name: "Import posts and pages" }).click();
    await expect.poll(() => page.locator(".import-report").textContent()).toMatch(/1 imported, 1 skipped/);
    expect(await page.locator(".import-report").textContent()).toMatch(/Line 1: Post Hello again/);
    await screenshot(page, "archive-platform-import-desktop");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("refuses a file that is not an archive, saying so", async () => {
    const { page, context } = await ownerLogIn(browser, base, DESKTOP);
    const bad = path.join(dir, "notes.zip");
    writeFileSync(bad, "these are my notes, not a zip");
    await page.getByRole("button", { name: "Import a site" }).click();
    const dialog = page.getByRole("dialog", { name: "Import a site" });
    await dialog.getByLabel("Site archive (.zip)").setInputFiles(bad);
    await dialog.getByRole("button", { name: "Import site" }).click();
    await expect.poll(() => dialog.textContent()).toMatch(/not a site archive/);
    await screenshot(page, "archive-import-refused-desktop");
    await context.close();
  });
});
