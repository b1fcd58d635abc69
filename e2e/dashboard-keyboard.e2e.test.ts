/**
 * The page editor with the keyboard alone (page.keyboard only, no clicks): Tab to "Add block",
 * pick a text block in the dialog (focus moves in, Escape closes it and focus returns to the
 * opener), type its words, move it up, publish. Every stop on the way shows where focus is.
 * Then an "Accessibility statement" page started from its preset in Add page. Set-up and checks
 * go through the owner API.
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { expectNoAxeViolations } from "./axe.js";
import { browser, described, screenshot, useBrowser } from "./browser.js";
import { blocksOf, draftOf, newPage, publishedOf } from "./editor.js";
import { demoOwnerLogIn, ownerCall } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

/** What the focused element is called (its aria-label, else its text less what is aria-hidden) and whether focus shows on it. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "", tag: "BODY", ring: true };
    const style = getComputedStyle(el);
    const ring = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0;
    const copy = el.cloneNode(true) as HTMLElement;
    for (const hidden of copy.querySelectorAll("[aria-hidden=true]")) hidden.remove();
    const label = (el as HTMLInputElement).labels?.[0]?.textContent;
    const name = (el.getAttribute("aria-label") ?? label ?? copy.textContent ?? "")
      .replace(/\s+/g, " ")
      .trim();
    return { name, tag: el.tagName, ring: ring || style.boxShadow !== "none" };
  });
}

/** Presses Tab until the focused element's name is `name`; each control passed on the way shows its focus. */
async function tabTo(page: Page, name: string, { back = false, max = 150 } = {}) {
  const unringed: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const f = await focused(page);
    if (f.tag !== "IFRAME" && f.tag !== "BODY" && !f.ring) unringed.push(`${f.tag} ${f.name}`);
    if (f.name === name) {
      expect(unringed, "controls whose focus does not show").toEqual([]);
      return;
    }
  }
  throw new Error(`Tab never reached "${name}"`);
}

describe("the page editor from the keyboard", () => {
  it("adds a text block, types in it, moves it up and publishes without a mouse", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const created = await newPage(page, siteId, "Keyboard Only", {
      rows: [
        { columns: [{ span: 12, blocks: [{ id: "kb-first", type: "text", html: "<p>First block</p>" }] }] },
      ],
    });
    await page.goto(`${base}/config/sites/${siteId}/pages/${created.id}/edit`);
    await page.getByText("Editing: Keyboard Only").waitFor();
    await page.locator(".save-state").getByText("Draft saved").waitFor();

    // The picker: focus moves into the dialog; Escape closes it and focus goes back to the opener.
    await tabTo(page, "Add block");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Add a block" });
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await expectNoAxeViolations(page, "editor, add-block dialog");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => focused(page).then((f) => f.name)).toBe("Add block");

    // Add a text block: its words are typed in place, then "Done editing".
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await tabTo(page, "Add Text block");
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest(".inplace") !== null))
      .toBe(true);
    await page.keyboard.type("Typed with the keyboard");
    await tabTo(page, "Done editing");
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => blocksOf(await draftOf(page, siteId, created.id)).map((b) => b.html), {
        timeout: 15_000,
      })
      .toEqual(["<p>First block</p>", "<p>Typed with the keyboard</p>"]);

    // Move it up from the block's settings panel.
    await tabTo(page, "Move Text block up");
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => blocksOf(await draftOf(page, siteId, created.id)).map((b) => b.html), {
        timeout: 15_000,
      })
      .toEqual(["<p>Typed with the keyboard</p>", "<p>First block</p>"]);
    await screenshot(page, "dashboard-keyboard-editor-desktop");

    // Publish: back up the toolbar with Shift+Tab.
    await tabTo(page, "Publish", { back: true });
    await page.keyboard.press("Enter");
    await page.locator(".save-state").getByText("Published").waitFor();
    expect(blocksOf(await publishedOf(page, siteId, created.id)).map((b) => b.html)).toEqual([
      "<p>Typed with the keyboard</p>",
      "<p>First block</p>",
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("a product from the keyboard", () => {
  it("edits and saves with Ctrl+S, and a refused save puts focus on the field in error", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const { products } = await ownerCall<{ products: { id: string; title: string }[] }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/products?q=Beeswax`,
    );
    const candle = products.find((p) => p.title === "Beeswax Pillar Candle")!;
    const url = `/api/owner/sites/${siteId}/products/${candle.id}`;
    const before = await ownerCall<{ product: { excerpt: string } }>(page, "GET", url);
    await page.goto(`${base}/config/sites/${siteId}/products/${candle.id}`);
    await page.getByRole("heading", { name: "Beeswax Pillar Candle", level: 1 }).waitFor();
    try {
      await tabTo(page, "Short description");
      await page.keyboard.press("Control+A");
      await page.keyboard.type("Hand-poured, from the keyboard.");
      await page.keyboard.press("Control+S");
      await page.getByRole("status").getByText("Product saved. It is live in the shop.").waitFor();
      const saved = await ownerCall<{ product: { excerpt: string } }>(page, "GET", url);
      expect(saved.product.excerpt).toContain("Hand-poured, from the keyboard.");

      // An empty name is refused by the server; focus lands on it, which names its error.
      await tabTo(page, "Product name", { back: true });
      await page.keyboard.press("Control+A");
      await page.keyboard.press("Backspace");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Control+S");
      const nameField = page.getByLabel("Product name", { exact: true });
      await expect.poll(() => nameField.evaluate((el) => el === document.activeElement)).toBe(true);
      await expect(nameField.getAttribute("aria-invalid")).resolves.toBe("true");
      await expect(described(page, nameField)).resolves.toBeTruthy();
      await expectNoAxeViolations(page, "product editor, name refused");
    } finally {
      // The shared demo gets its words back.
      await page.goto(`${base}/config/sites/${siteId}/products/${candle.id}`);
      await page.getByLabel("Short description", { exact: true }).fill(before.product.excerpt);
      await page.keyboard.press("Control+S");
      await page.getByRole("status").getByText("Product saved. It is live in the shop.").waitFor();
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the accessibility statement page", () => {
  it("starts a page from the statement, with the site's name and contact email, as a draft", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const { settings } = await ownerCall<{ settings: { contactEmail: string } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/settings`,
    );
    await page.goto(`${base}/config/sites/${siteId}/pages`);
    await page.getByRole("button", { name: "Add page" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a page" });
    await dialog.getByLabel("Start from").selectOption({ label: "Accessibility statement" });
    await expectNoAxeViolations(page, "add page, statement chosen");
    await dialog.getByRole("button", { name: "Add page" }).click();
    await page.getByText("Editing: Accessibility statement").waitFor();
    const pageId = /\/pages\/([0-9a-f]{24})\/edit/.exec(page.url())![1]!;
    try {
      const [block] = blocksOf(await draftOf(page, siteId, pageId));
      expect(block!.type).toBe("text");
      expect(block!.html).toContain("<p>Atelier Demo wants everyone");
      expect(block!.html).toContain("WCAG) 2.2 at level AA");
      expect(block!.html).toContain(`<a href="mailto:${settings.contactEmail}">`);
      // A draft to read first: nothing is published yet.
      expect(blocksOf(await publishedOf(page, siteId, pageId))).toEqual([]);
      await page.frameLocator('iframe[title="Page preview"]').getByText("The standard we aim for").waitFor();
      await screenshot(page, "dashboard-accessibility-statement-desktop");
    } finally {
      // Out of the navigation the other browser tests share.
      await ownerCall(page, "DELETE", `/api/owner/sites/${siteId}/pages/${pageId}`);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
