/**
 * Design, from the dashboard: an owner changes the accent colour and heading font in Design →
 * Styles and sees them in the preview frame before saving and on the live site after; undoes and
 * redoes; a bad colour shows the server's message; switches theme (data-theme changes, content and
 * styles kept); sets a logo; adds custom CSS, and CSS that would break out of its stylesheet is refused.
 */
import type { FrameLocator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, PHONE, screenshot, browser, useBrowser } from "./browser.js";
import { demoOwnerLogIn, ownerCall } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

/** A computed value in the preview frame's document. */
function inFrame(frame: FrameLocator, fn: string) {
  return () => frame.locator("html").evaluate((el, body) => new Function("el", body)(el), fn);
}

/** What a visitor's browser computes on the live home page. */
async function onLiveSite<T>(fn: () => T): Promise<T> {
  const visitor = await browser.newPage();
  await visitor.goto(`${base}/`);
  const value = await visitor.evaluate(fn);
  await visitor.close();
  return value;
}

async function shots(page: Page, name: string) {
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  // The navigation drawer slides out of view when the window narrows.
  await page.waitForTimeout(500);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

describe("Design screens", () => {
  it("changes accent and heading font with a live preview, undo/redo, save, and the live site follows", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await page.goto(`${base}/config/sites/${siteId}/design/styles`);
    await page.getByRole("link", { name: "Styles" }).waitFor();
    const frame = page.frameLocator('iframe[title="Site preview"]');
    await frame.locator("h1").first().waitFor();
    const accent = inFrame(frame, "return getComputedStyle(el).getPropertyValue('--color-accent').trim()");
    const headingFont = inFrame(
      frame,
      "return getComputedStyle(el.ownerDocument.querySelector('h1')).fontFamily",
    );

    await page.getByLabel("Accent", { exact: true }).fill("#c2185b");
    await expect.poll(accent).toBe("#c2185b");
    await page.getByLabel("Heading font").selectOption({ label: "Playfair Display (display)" });
    await expect.poll(headingFont).toContain("Playfair Display");
    // The font face is there, not only the name: the frame's browser has loaded it.
    await expect
      .poll(inFrame(frame, "return el.ownerDocument.fonts.check('700 20px \"Playfair Display\"')"))
      .toBe(true);
    await expect.poll(() => page.getByText("Unsaved changes", { exact: true }).count()).toBe(1);

    // Undo puts the font back, redo brings it again (buttons and keys).
    await page.getByRole("button", { name: "Undo" }).click();
    await expect.poll(headingFont).not.toContain("Playfair Display");
    await page.locator("h1").click();
    await page.keyboard.press("Control+Shift+Z");
    await expect.poll(headingFont).toContain("Playfair Display");
    await page.keyboard.press("Control+Z");
    await expect.poll(headingFont).not.toContain("Playfair Display");
    await page.getByRole("button", { name: "Redo" }).click();
    await expect.poll(headingFont).toContain("Playfair Display");

    // Low contrast is flagged with its ratio.
    await page.getByLabel("Text", { exact: true }).fill("#cccccc");
    await page.getByText(/Text on background: 1\.\d:1 is below WCAG AA/).waitFor();
    await page.getByLabel("Text", { exact: true }).fill("#1d1b18");
    await page.getByText(/Text on background: \d+\.\d:1 passes WCAG AA/).waitFor();
    await shots(page, "dashboard-design-styles");

    await page.getByRole("button", { name: "Save styles" }).click();
    await page.getByText("Styles saved.").waitFor();
    await expect
      .poll(() =>
        onLiveSite(() =>
          getComputedStyle(document.documentElement).getPropertyValue("--color-accent").trim(),
        ),
      )
      .toBe("#c2185b");
    expect(await onLiveSite(() => getComputedStyle(document.querySelector("h1")!).fontFamily)).toContain(
      "Playfair Display",
    );

    // A short hex is a colour too, as the server takes it: no error, the swatch shows it in full.
    await page.getByLabel("Accent", { exact: true }).fill("#C1B");
    const accentSwatch = page
      .locator(".color-field")
      .filter({ has: page.getByLabel("Accent", { exact: true }) })
      .locator('input[type="color"]');
    await expect.poll(() => accentSwatch.inputValue()).toBe("#cc11bb");
    expect(await page.locator(".field.invalid").count()).toBe(0);

    // A bad colour: the server's message at the field, nothing saved.
    await page.getByLabel("Accent", { exact: true }).fill("#12345g");
    await page.getByRole("button", { name: "Save styles" }).click();
    await page.getByText("Nothing was saved: correct the fields marked in red.").waitFor();
    const accentField = page
      .locator(".field.invalid")
      .filter({ has: page.getByLabel("Accent", { exact: true }) });
    await accentField.getByText("Enter a colour as #rgb or #rrggbb, such as #1f3b5b.").waitFor();
    await screenshot(page, "dashboard-design-styles-error");
    const design = await ownerCall<{ styles: { colors: { accent: string } } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/design`,
    );
    expect(design.styles.colors.accent).toBe("#c2185b");

    // Reset, confirmed, puts the theme's defaults back, saved and shown.
    const { defaults } = await ownerCall<{ defaults: { colors: { accent: string } } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/design`,
    );
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Reset to theme defaults" }).click();
    await expect
      .poll(() => page.getByLabel("Accent", { exact: true }).inputValue())
      .toBe(defaults.colors.accent);
    await expect.poll(accent).toBe(defaults.colors.accent);
    const reset = await ownerCall<{ styles: { colors: { accent: string }; fonts: { heading: string } } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/design`,
    );
    expect(reset.styles.colors.accent).toBe(defaults.colors.accent);
    expect(reset.styles.fonts.heading).not.toBe("playfair-display");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("switches theme from the gallery, keeping content and the styles", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await ownerCall(page, "PATCH", `/api/owner/sites/${siteId}/design`, {
      styles: { colors: { accent: "#c2185b" } },
    });
    const before = await (await fetch(`${base}/`)).text();
    const themeOf = (html: string) => /data-theme="([a-z]+)"/.exec(html)?.[1];
    const current = themeOf(before)!;
    await page.goto(`${base}/config/sites/${siteId}/design/themes`);
    const cards = page.getByRole("listitem");
    await cards.first().waitFor();
    const currentCard = page.locator(".theme-card.current");
    await expect.poll(() => currentCard.getByText("Current").count()).toBe(1);
    const next = page.locator(".theme-card:not(.current)").filter({ hasText: "Market" });
    await shots(page, "dashboard-design-themes");
    await next.getByRole("button", { name: "Use this theme" }).click();
    await page.getByRole("dialog", { name: "Use Market?" }).waitFor();
    await page.getByRole("button", { name: "Switch to Market" }).click();
    await page.getByText("Your site now uses Market.").waitFor();
    await expect.poll(() => page.locator(".theme-card.current h2").textContent()).toContain("Market");

    const after = await (await fetch(`${base}/`)).text();
    expect(current).not.toBe("market");
    expect(themeOf(after)).toBe("market");
    // The content stays: the home page's headline is still there.
    const headline = /<h1[^>]*>([\s\S]*?)<\/h1>/
      .exec(before)?.[1]
      ?.replace(/<[^>]+>/g, "")
      .trim();
    expect(headline).toBeTruthy();
    expect(after).toContain(headline!);
    // The accent chosen before is kept by the new theme.
    expect(
      await onLiveSite(() =>
        getComputedStyle(document.documentElement).getPropertyValue("--color-accent").trim(),
      ),
    ).toBe("#c2185b");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("sets a logo, site icon and sharing image; the logo is in the live header, the icon served", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await page.goto(`${base}/config/sites/${siteId}/design/identity`);
    await page.getByRole("heading", { name: "Site identity" }).waitFor();
    await page
      .getByRole("group", { name: "Logo", exact: true })
      .getByRole("button", { name: "Choose image" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Choose an image" });
    await dialog.locator(".media-tile").first().click();
    await dialog.getByRole("button", { name: "Use image" }).click();
    for (const field of ["Site icon", "Social sharing image"]) {
      await page
        .getByRole("group", { name: field, exact: true })
        .getByRole("button", { name: "Choose image" })
        .click();
      await dialog.locator(".media-tile").nth(1).click();
      await dialog.getByRole("button", { name: "Use image" }).click();
    }
    await page.locator(".icon-mock img").first().waitFor();
    await page.locator(".share-mock img").waitFor();
    await page.getByLabel("Logo alt text").fill("Atelier Demo workshop");
    await page.getByLabel("Logo maximum height (px)").fill("40");
    await page.locator(".header-mock img").waitFor();
    await shots(page, "dashboard-design-identity");
    await page.getByRole("button", { name: "Save identity" }).click();
    await page.getByText("Site identity saved.").waitFor();
    const header = await onLiveSite(() => {
      const img = document.querySelector<HTMLImageElement>(".site-header img.site-logo");
      return img
        ? { alt: img.alt, maxHeight: getComputedStyle(img).maxHeight, loaded: img.naturalWidth > 0 }
        : null;
    });
    expect(header).toEqual({ alt: "Atelier Demo workshop", maxHeight: "40px", loaded: true });
    const head = await (await fetch(`${base}/`)).text();
    const touch = /<link rel="apple-touch-icon"[^>]* href="([^"]+)"/.exec(head)?.[1];
    expect(touch).toBeTruthy();
    const icon = await fetch(new URL(touch!, base));
    expect(icon.headers.get("content-type")).toBe("image/png");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("adds custom CSS with a preview, saves it live, and refuses CSS that breaks out", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await page.goto(`${base}/config/sites/${siteId}/design/css`);
    const editor = page.locator(".cm-content");
    await editor.waitFor();
    await expect.poll(() => page.locator(".cm-lineNumbers").count()).toBe(1);
    await editor.click();
    await page.keyboard.insertText(".site-header { outline: 5px solid rgb(1, 2, 3); }");
    await page.getByText(/0\.\d KB of 100 KB/).waitFor();
    const frame = page.frameLocator('iframe[title="Site preview"]');
    await expect
      .poll(
        inFrame(
          frame,
          "return getComputedStyle(el.ownerDocument.querySelector('.site-header')).outlineColor",
        ),
      )
      .toBe("rgb(1, 2, 3)");
    await shots(page, "dashboard-design-css");
    await page.getByRole("button", { name: "Save CSS" }).click();
    await page.getByText("Custom CSS saved.").waitFor();
    expect(
      await onLiveSite(() => getComputedStyle(document.querySelector(".site-header")!).outlineColor),
    ).toBe("rgb(1, 2, 3)");

    // Emptying the editor takes the saved rule out of the preview too.
    await editor.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Delete");
    await expect
      .poll(
        inFrame(
          frame,
          "return getComputedStyle(el.ownerDocument.querySelector('.site-header')).outlineColor",
        ),
      )
      .not.toBe("rgb(1, 2, 3)");
    await page.keyboard.insertText("</style><script>alert(1)</script>");
    await page.getByRole("button", { name: "Save CSS" }).click();
    await page.getByText("Custom CSS cannot contain </style>.").waitFor();
    await screenshot(page, "dashboard-design-css-error");
    const design = await ownerCall<{ customCss: string }>(page, "GET", `/api/owner/sites/${siteId}/design`);
    expect(design.customCss).toBe(".site-header { outline: 5px solid rgb(1, 2, 3); }");
    expect(errors).toEqual([]);
    await context.close();
  });
});
