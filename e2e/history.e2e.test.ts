/**
 * Version history and the trash in a browser: the footer template broken by a save, its History
 * opened, the last good version previewed on the site and restored (the live footer is good
 * again); a product deleted, restored from Settings → Trash, and on sale again at the same URL
 * with its stock. Screenshots of the panel and the Trash screen at desktop and phone width.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import { PHONE, browser, screenshot, useBrowser } from "./browser.js";
import { type LayoutJson, newPage } from "./editor.js";
import { demoOwnerLogIn, ownerCall } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

const GOOD = `<footer class="site-footer">
  <div class="footer-inner">
    <p class="handmade">Good footer of {website.siteTitle|html}</p>
  </div>
</footer>`;
const BROKEN = `<footer class="site-footer"><p>Broken footer</p></footer>`;

/** A page of the published site, as a visitor with no session sees it. */
async function visitorSees(path: string): Promise<{ status: number; html: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const res = await page.goto(`${base}${path}`);
  const html = await page.content();
  await context.close();
  return { status: res?.status() ?? 0, html };
}

let cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanup) await c().catch(() => {});
  cleanup = [];
});

describe("History of a template", () => {
  it("breaks the footer, previews the last good version from its history and restores it", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const tpl = `/api/owner/sites/${siteId}/templates/footer`;
    cleanup.push(() => ownerCall(page, "DELETE", tpl));
    // The good footer, saved earlier.
    await ownerCall(page, "PUT", tpl, { source: GOOD });
    expect((await visitorSees("/")).html).toContain("Good footer of Atelier Demo");

    // Broken in the template editor and saved: the live footer is the broken one.
    await page.goto(`${base}/config/sites/${siteId}/design/templates?name=footer`);
    const editor = page.getByRole("textbox", { name: "Source of the footer template" });
    await expect.poll(() => editor.textContent()).toContain("Good footer of");
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText(BROKEN);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved. The template is live on your site.").waitFor();
    await expect.poll(async () => (await visitorSees("/")).html).toContain("Broken footer");

    // Its history: the broken save on top, the good one under it.
    await page.getByRole("button", { name: "History" }).click();
    const panel = page.getByRole("dialog");
    await panel.getByRole("heading", { name: "History of the footer template" }).waitFor();
    const versions = panel.getByRole("list", { name: "Versions, newest first" }).getByRole("listitem");
    await versions.first().waitFor();
    expect(await versions.count()).toBeGreaterThanOrEqual(2);
    expect(await versions.first().textContent()).toContain("current");
    await screenshot(page, "history-panel-desktop");

    // Compared: the text of the footer, removed and added, is marked.
    await versions.nth(0).getByRole("checkbox").check();
    await versions.nth(1).getByRole("checkbox").check();
    await panel.getByRole("button", { name: "Compare the two" }).click();
    const diff = panel.getByRole("list", { name: "Differences" });
    await diff.waitFor();
    expect(await diff.locator("ins").allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining("Broken")]),
    );
    expect((await diff.locator("del").allTextContents()).join(" ")).toContain("Good");
    await screenshot(page, "history-compare-desktop");
    await panel.getByRole("button", { name: "← All versions" }).click();

    // The last good version, previewed on the site (only in this owner's frame).
    await versions
      .nth(1)
      .getByRole("button", { name: /^Preview:/ })
      .click();
    await panel.getByText("Template source").waitFor();
    expect(await panel.locator("pre.history-source").textContent()).toContain("Good footer of");
    const frame = panel.frameLocator('iframe[title="The site with this version of footer"]');
    await frame.getByText("Good footer of Atelier Demo").waitFor();
    expect((await visitorSees("/")).html).toContain("Broken footer");
    await screenshot(page, "history-preview-desktop");

    // Restored: a new version, and the live footer is good again.
    await panel.getByRole("button", { name: "Restore this version" }).click();
    await panel.getByRole("button", { name: "Restore", exact: true }).click();
    await panel.getByText("Restored. The restore is a new version in the history.").waitFor();
    await expect.poll(async () => (await visitorSees("/")).html).toContain("Good footer of Atelier Demo");
    expect((await visitorSees("/")).html).not.toContain("Broken footer");
    await expect.poll(() => versions.first().textContent()).toContain("Restored the version of");
    await expect.poll(() => editor.textContent()).toContain("Good footer of");

    // The panel on a phone.
    const phone = await browser.newContext({ viewport: PHONE, storageState: await context.storageState() });
    const small = await phone.newPage();
    await small.goto(`${base}/config/sites/${siteId}/design/templates?name=footer`);
    await small.getByRole("textbox", { name: "Source of the footer template" }).waitFor();
    await small.getByRole("button", { name: "History" }).click();
    await small
      .getByRole("dialog")
      .getByRole("list", { name: "Versions, newest first" })
      .getByRole("listitem")
      .first()
      .waitFor();
    await screenshot(small, "history-panel-phone");
    await phone.close();
    expect(errors).toEqual([]);
    await context.close();
  });
});

const words = (text: string): LayoutJson => ({
  rows: [{ columns: [{ span: 12, blocks: [{ id: "story", type: "text", html: `<p>${text}</p>` }] }] }],
});

describe("History of a page", () => {
  it("shows an older version of a page on the site in the editor's History, read-only, and restores it", async () => {
    const WIDE = { width: 1440, height: 900 };
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base, WIDE);
    const made = await newPage(page, siteId, "History Story", words("Fired in the old wood kiln."));
    const pages = `/api/owner/sites/${siteId}/pages/${made.id}`;
    cleanup.push(() => ownerCall(page, "DELETE", pages));
    await ownerCall(page, "POST", `${pages}/publish`, { layout: words("Fired in the new gas kiln.") });
    await expect.poll(async () => (await visitorSees(made.fullUrl)).html).toContain("new gas kiln");

    await page.goto(`${base}/config/sites/${siteId}/pages/${made.id}/edit`);
    await page.getByRole("button", { name: "History" }).click();
    const panel = page.getByRole("dialog");
    const versions = panel.getByRole("list", { name: "Versions, newest first" }).getByRole("listitem");
    await versions.nth(1).waitFor();
    await versions
      .nth(1)
      .getByRole("button", { name: /^Preview:/ })
      .click();

    // The site's page as it was, in a frame under a bar naming the version; nothing in it acts.
    await panel.getByRole("status").filter({ hasText: "Viewing the version of" }).waitFor();
    expect(await panel.getByRole("status").textContent()).toContain("read-only");
    const frame = panel.frameLocator('iframe[title^="The page as it was on"]');
    await frame.getByText("Fired in the old wood kiln.").waitFor();
    expect(await frame.getByText("Fired in the new gas kiln.").count()).toBe(0);
    await frame.locator("header").first().waitFor();
    // A link of the site's header, clicked once the frame has loaded: the frame stays on the version.
    await panel.locator('.history-viewing-frame[aria-busy="false"]').waitFor();
    await frame.locator("header a[href]").first().dispatchEvent("click");
    await frame.getByText("Fired in the old wood kiln.").waitFor();
    await screenshot(page, "history-page-version-desktop");

    const phone = await browser.newContext({ viewport: PHONE, storageState: await context.storageState() });
    const small = await phone.newPage();
    await small.goto(`${base}/config/sites/${siteId}/pages/${made.id}/edit`);
    await small.getByRole("button", { name: "History" }).click();
    const smallVersions = small.getByRole("dialog").getByRole("listitem");
    await smallVersions
      .nth(1)
      .getByRole("button", { name: /^Preview:/ })
      .click();
    await small
      .getByRole("dialog")
      .frameLocator('iframe[title^="The page as it was on"]')
      .getByText("Fired in the old wood kiln.")
      .waitFor();
    await screenshot(small, "history-page-version-phone");
    await phone.close();

    // Restored from the bar and published: the live page has the old words again, the panel stays.
    await panel.getByRole("button", { name: "Restore", exact: true }).click();
    await panel.getByRole("button", { name: "Restore and publish" }).click();
    await panel.getByText("Restored and published.").waitFor();
    await expect.poll(async () => (await visitorSees(made.fullUrl)).html).toContain("old wood kiln");
    await expect.poll(() => versions.first().textContent()).toContain("current");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("History of the design", () => {
  it("stays open after a restore, showing the restore as the current version", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const design = `/api/owner/sites/${siteId}/design`;
    const before = await ownerCall<{ customCss: string }>(page, "GET", design);
    cleanup.push(() => ownerCall(page, "PATCH", design, { customCss: before.customCss }));
    await ownerCall(page, "PATCH", design, { customCss: "/* history one */ body { color: #222; }" });
    await ownerCall(page, "PATCH", design, { customCss: "/* history two */ body { color: #333; }" });

    await page.goto(`${base}/config/sites/${siteId}/design/css`);
    await page.getByRole("button", { name: "History" }).click();
    const panel = page.getByRole("dialog");
    const versions = panel.getByRole("list", { name: "Versions, newest first" }).getByRole("listitem");
    await versions.nth(1).waitFor();
    await versions
      .nth(1)
      .getByRole("button", { name: /^Restore:/ })
      .click();
    await panel.getByRole("button", { name: "Restore", exact: true }).click();
    await panel.getByText("Restored. The restore is a new version in the history.").waitFor();
    await expect.poll(() => versions.first().textContent()).toContain("current");
    await expect.poll(() => versions.first().textContent()).toContain("Restored");
    expect(await panel.isVisible()).toBe(true);
    const now = await ownerCall<{ customCss: string }>(page, "GET", design);
    expect(now.customCss).toContain("history one");
    expect(errors).toEqual([]);
    // Put the demo's CSS back while the page can still call the API (the cleanup's call needs it open).
    await ownerCall(page, "PATCH", design, { customCss: before.customCss });
    await context.close();
  });
});

describe("The trash", () => {
  it("deletes a product and restores it from Settings → Trash, on sale again at the same URL", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const shop = (await (await page.request.get(`${base}/shop?format=json`)).json()) as {
      collection: { id: string };
    };
    const { product } = await ownerCall<{ product: { id: string } }>(
      page,
      "POST",
      `/api/owner/sites/${siteId}/products`,
      {
        collectionId: shop.collection.id,
        title: "Trash Test Lamp",
        urlId: "trash-test-lamp",
        productType: 1,
        status: "published",
        variants: [{ priceCents: 5400, qtyInStock: 7, sku: "TT-LAMP-1" }],
      },
    );
    cleanup.push(() => ownerCall(page, "DELETE", `/api/owner/sites/${siteId}/products/${product.id}`));
    expect((await visitorSees("/shop/p/trash-test-lamp")).status).toBe(200);

    // Deleted in the product editor: the list says it went to the trash, with a Restore link.
    await page.goto(`${base}/config/sites/${siteId}/products/${product.id}`);
    await page.getByRole("heading", { name: "Trash Test Lamp", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Delete product" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete product" }).click();
    await page.getByRole("heading", { name: "Products", level: 1 }).waitFor();
    const notice = page.getByText("The product “Trash Test Lamp” was moved to the trash.");
    await notice.waitFor();
    expect(await page.getByRole("button", { name: "Restore", exact: true }).isVisible()).toBe(true);
    expect((await visitorSees("/shop/p/trash-test-lamp")).status).toBe(404);

    // Settings → Trash lists it with who deleted it and the days left; Restore brings it back.
    await page.getByRole("link", { name: "Trash", exact: true }).click();
    await page.getByRole("heading", { name: "Trash", level: 1 }).waitFor();
    const row = page.getByRole("row").filter({ hasText: "Trash Test Lamp" });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain("Product");
    expect(text).toContain("/shop/p/trash-test-lamp");
    expect(await row.getByRole("cell").nth(3).textContent()).toMatch(/^30( days left)?$/);
    await screenshot(page, "trash-desktop");

    const phone = await browser.newContext({ viewport: PHONE, storageState: await context.storageState() });
    const small = await phone.newPage();
    await small.goto(`${base}/config/sites/${siteId}/settings/trash`);
    await small.getByRole("row").filter({ hasText: "Trash Test Lamp" }).waitFor();
    await screenshot(small, "trash-phone");
    await phone.close();

    await row.getByRole("button", { name: "Restore Trash Test Lamp" }).click();
    await page.getByText("“Trash Test Lamp” is back at /shop/p/trash-test-lamp.").waitFor();
    await expect.poll(() => page.getByRole("row").filter({ hasText: "Trash Test Lamp" }).count()).toBe(0);

    // On sale again, at the same URL, with its stock.
    const live = await visitorSees("/shop/p/trash-test-lamp");
    expect(live.status).toBe(200);
    expect(live.html).toContain("Trash Test Lamp");
    const again = await ownerCall<{ product: { variants: { qtyInStock: number; sku: string }[] } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/products/${product.id}`,
    );
    expect(again.product.variants.map((v) => [v.sku, v.qtyInStock])).toEqual([["TT-LAMP-1", 7]]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
