/**
 * Developer mode in a browser: Design → Templates, the footer edited with a deliberate syntax
 * error (the error shows with its line and column, Save stays off), fixed, previewed in the frame
 * (not yet public), saved and seen on the published site at once, then reverted.
 */
import { describe, expect, inject, it } from "vitest";
import { PHONE, screenshot, browser, useBrowser } from "./browser.js";
import { demoOwnerLogIn, ownerCall, openDemoScreen } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

const BROKEN = `<footer class="site-footer">
  <div class="footer-inner">
    <p class="handmade">Handmade footer for {website.siteTitle|html}</p>
    {.bogus}
  </div>
</footer>`;
const FIXED = BROKEN.replace("    {.bogus}\n", "");

/** The published home page, as a visitor with no session sees it. */
async function publicHome(): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/`);
  const html = await page.content();
  await context.close();
  return html;
}

describe("Design → Templates", () => {
  it("edits the footer with an error, fixes it, previews, saves it live, and reverts", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await openDemoScreen(page, "Templates");
    await page.getByRole("navigation", { name: "Templates" }).getByRole("button", { name: "footer" }).click();
    await page.getByRole("heading", { name: "footer", level: 2 }).waitFor();
    const editor = page.getByRole("textbox", { name: "Source of the footer template" });
    await editor.waitFor();
    await expect.poll(() => editor.textContent()).toContain('<footer class="site-footer">');
    const problems = page.getByRole("status", { name: "Template errors" });
    await problems.getByText("No errors").waitFor();

    // A deliberate mistake: the error shows with its line and column as it is typed.
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText(BROKEN);
    await problems.getByText("invalid instruction '.bogus'").waitFor();
    expect(await problems.textContent()).toContain("Line 4, column 5: invalid instruction '.bogus'");
    expect(await page.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
    await page.locator(".cm-lint-marker-error").first().waitFor();
    await screenshot(page, "dashboard-templates-error-desktop");

    // Fixed: no errors, previewed in the frame, not yet on the published site.
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText(FIXED);
    await problems.getByText("No errors").waitFor();
    await page.getByRole("button", { name: "Preview" }).click();
    const frame = page.frameLocator('iframe[title="Template preview"]');
    await frame.getByText("Handmade footer for Atelier Demo").waitFor();
    expect(await publicHome()).not.toContain("Handmade footer");
    await screenshot(page, "dashboard-templates-preview-desktop");

    // Saved: live on the published site at once, marked in the list.
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved. The template is live on your site.").waitFor();
    await expect.poll(publicHome, { timeout: 5000 }).toContain("Handmade footer for Atelier Demo");
    await page
      .getByRole("navigation", { name: "Templates" })
      .getByRole("button", { name: /footer.*Edited/ })
      .waitFor();
    const saved = await ownerCall<{ overridden: boolean }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/templates/footer`,
    );
    expect(saved.overridden).toBe(true);

    // The phone layout.
    const phone = await browser.newContext({ viewport: PHONE, storageState: await context.storageState() });
    const small = await phone.newPage();
    await small.goto(`${base}/config/sites/${siteId}/design/templates?name=footer`);
    await small.getByRole("textbox", { name: "Source of the footer template" }).waitFor();
    await screenshot(small, "dashboard-templates-phone");
    await phone.close();

    // Reverted (with a confirmation): the theme's footer again.
    await page.getByRole("button", { name: "Revert to theme" }).click();
    const dialog = page.getByRole("dialog", { name: "Revert footer?" });
    await dialog.getByRole("button", { name: "Revert", exact: true }).click();
    await page.getByText("Reverted to the theme's version.").waitFor();
    await expect.poll(publicHome, { timeout: 5000 }).not.toContain("Handmade footer");
    await expect.poll(() => editor.textContent()).toContain('<nav class="footer-nav"');
    expect(errors).toEqual([]);
    await context.close();
  });
});
