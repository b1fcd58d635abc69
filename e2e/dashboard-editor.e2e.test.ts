/**
 * The visual editor in a browser: the block picker offers every block type (the premium ones only
 * where the site's plan enables them) and each added block shows in the editing frame; the
 * 60-block limit; the cart pill drop zone; the gallery settings panel with the SPEC §9 ranges and
 * defaults; safe mode and the other editing cookies; undo and redo.
 */
import { CART_PILL_POSITIONS, cartPillPlaceWords } from "@atelier/commerce";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { blockTypeByName } from "../apps/server/src/modules/pages/block-types.js";
import { DESKTOP, PHONE, screenshot, browser, useBrowser } from "./browser.js";
import { blocksOf, draftOf, newPage } from "./editor.js";
import { demoOwnerLogIn, ownerCall, ownerLogIn } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

const logIn = (viewport = DESKTOP) => ownerLogIn(browser, base, viewport);

const frameOf = (page: Page) => page.frameLocator('iframe[title="Page preview"]');

async function saved(page: Page) {
  await expect.poll(() => page.locator(".save-state").textContent(), { timeout: 15_000 }).toBe("Draft saved");
}

describe("the visual editor", () => {
  it("offers every block type in the picker and each added block shows in the editing frame", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const created = await newPage(page, siteId, "Every Block");
    await page.goto(`${base}/config/sites/${siteId}/pages/${created.id}/edit`);
    await page.getByText("Editing: Every Block").waitFor();
    await page.getByRole("button", { name: "Add block" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add a block" });
    await dialog.waitFor();
    // The types load with the editor; the picker says so until they are there.
    await dialog.locator(".picker-grid button").first().waitFor();
    // The demo's plan enables every premium block: all 21 are offered and enabled.
    const labels = await dialog.locator(".picker-grid button").evaluateAll((els) =>
      els.map((e) => ({
        label: e.getAttribute("aria-label"),
        disabled: (e as HTMLButtonElement).disabled,
      })),
    );
    expect(labels).toHaveLength(blockTypeByName.size);
    expect(labels.every((l) => !l.disabled)).toBe(true);
    await screenshot(page, "dashboard-editor-picker-desktop");
    await page.setViewportSize(PHONE);
    await screenshot(page, "dashboard-editor-picker-phone");
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole("button", { name: "Close" }).click();

    const types = await ownerCall<{ blockTypes: { type: string; label: string }[] }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/block-types`,
    );
    expect(types.blockTypes.map((t) => t.type).sort()).toEqual([...blockTypeByName.keys()].sort());
    for (const t of types.blockTypes) {
      // Nothing selected: the new block goes into a new last row.
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Add block" }).first().click();
      await page.getByRole("button", { name: `Add ${t.label} block`, exact: true }).click();
      if (t.type === "text") await page.getByRole("button", { name: "Done editing" }).click();
      // The autosave of this block may not have started yet while the last one still reads "Draft saved".
      const inDraft = async () =>
        blocksOf(await draftOf(page, siteId, created.id)).filter((b) => b.type === t.type);
      await expect
        .poll(async () => (await inDraft()).length, { timeout: 15_000, message: `${t.type} is in the draft` })
        .toBe(1);
      await saved(page);
      const added = await inDraft();
      await expect
        .poll(() => frameOf(page).locator(`[data-block-id="${added[0]!.id}"]`).count(), {
          timeout: 15_000,
          message: `${t.type} shows in the frame`,
        })
        .toBe(1);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("offers the premium blocks only where the site's plan enables them", async () => {
    const { context, page, errors } = await logIn();
    const { site } = await ownerCall<{ site: { id: string } }>(page, "POST", "/api/owner/sites", {
      title: "Trial Studio",
      theme: "classic",
    });
    const created = await newPage(page, site.id, "Plan Blocks");
    await page.goto(`${base}/config/sites/${site.id}/pages/${created.id}/edit`);
    await page.getByText("Editing: Plan Blocks").waitFor();
    await page.getByRole("button", { name: "Add block" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add a block" });
    for (const label of ["Amazon", "Donation", "OpenTable", "Member area"]) {
      const button = dialog.getByRole("button", { name: `Add ${label} block`, exact: true });
      await expect(button.isDisabled()).resolves.toBe(true);
      await expect(button.textContent()).resolves.toContain("Needs a plan with the");
    }
    // A trial has the features every plan shares: the menu block.
    await expect(dialog.getByRole("button", { name: "Add Menu block" }).isDisabled()).resolves.toBe(false);
    for (const label of ["Text", "Image", "Gallery", "Code", "Line"])
      await expect(
        dialog.getByRole("button", { name: `Add ${label} block`, exact: true }).isDisabled(),
      ).resolves.toBe(false);
    // The server refuses a premium block the plan does not have.
    const crumb = (await context.cookies()).find((c) => c.name === "crumb")?.value ?? "";
    const res = await page.request.put(`${base}/api/owner/sites/${site.id}/pages/${created.id}/draft`, {
      headers: { "x-csrf-token": crumb, "content-type": "application/json" },
      data: JSON.stringify({
        rows: [{ columns: [{ span: 12, blocks: [{ id: "a1", type: "amazon", asin: "B000TEST" }] }] }],
      }),
    });
    expect(res.status()).toBeGreaterThanOrEqual(400);
    expect(res.status()).toBeLessThan(500);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("refuses a 61st block with the SPEC's message, in the editor and on the server", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const sixty = {
      rows: Array.from({ length: 60 }, (_, i) => ({
        columns: [{ span: 12, blocks: [{ id: `s${i}`, type: "spacer", height: 8 }] }],
      })),
    };
    const created = await newPage(page, siteId, "Sixty Blocks", sixty);
    await page.goto(`${base}/config/sites/${siteId}/pages/${created.id}/edit`);
    await page.getByText("60 of 60 blocks.").waitFor();
    await page.getByRole("button", { name: "Add block" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add a block" });
    const message = "A layout can have at most 60 blocks. Remove a block before adding another.";
    await dialog.getByText(message).waitFor();
    await expect(dialog.getByRole("button", { name: "Add Text block" }).isDisabled()).resolves.toBe(true);
    await dialog.getByRole("button", { name: "Close" }).click();
    // Deleting one makes room again.
    await page
      .locator('[data-overlay-for="s0"]')
      .getByRole("button", { name: "Select Spacer block" })
      .click();
    await page
      .locator('[data-overlay-for="s0"]')
      .getByRole("button", { name: "Delete Spacer block" })
      .click();
    await page.getByText("59 of 60 blocks.").waitFor();
    await page.getByRole("button", { name: "Add block" }).first().click();
    await expect(dialog.getByText(message).count()).resolves.toBe(0);
    await expect(dialog.getByRole("button", { name: "Add Line block" }).isDisabled()).resolves.toBe(false);
    await dialog.getByRole("button", { name: "Close" }).click();
    // The server says the same about a 61st block.
    const crumb = (await context.cookies()).find((c) => c.name === "crumb")?.value ?? "";
    const over = {
      rows: [...sixty.rows, { columns: [{ span: 12, blocks: [{ id: "s60", type: "line" }] }] }],
    };
    const res = await page.request.put(`${base}/api/owner/sites/${siteId}/pages/${created.id}/draft`, {
      headers: { "x-csrf-token": crumb, "content-type": "application/json" },
      data: JSON.stringify(over),
    });
    expect(res.status()).toBe(400);
    expect((await res.json()).error.message).toBe(message);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("places the cart pill in each of the nine zones and the published site shows it there", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const { settings } = await ownerCall<{ settings: { cartPillPosition: string } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/settings`,
    );
    const original = settings.cartPillPosition;
    const created = await newPage(page, siteId, "Pill Zones", {
      rows: [{ columns: [{ span: 12, blocks: [{ id: "t", type: "text", html: "<p>Pill page</p>" }] }] }],
    });
    try {
      await page.goto(`${base}/config/sites/${siteId}/pages/${created.id}/edit`);
      await page.getByRole("heading", { name: "Cart pill" }).waitFor();
      for (const zone of CART_PILL_POSITIONS) {
        if (zone === original) continue;
        const words = cartPillPlaceWords(zone);
        await page.getByRole("button", { name: `Put the cart pill ${words}`, exact: true }).click();
        await page.locator(".pill-zones").getByText(`(now ${words})`).waitFor();
        await expect
          .poll(
            async () =>
              (
                await ownerCall<{ settings: { cartPillPosition: string } }>(
                  page,
                  "GET",
                  `/api/owner/sites/${siteId}/settings`,
                )
              ).settings.cartPillPosition,
          )
          .toBe(zone);
        // The editing frame shows the pill there at once.
        await expect
          .poll(() => frameOf(page).locator(`.cart-pill.cart-pill--${zone}`).count(), { timeout: 15_000 })
          .toBe(1);
      }
      // Dragging the pill chip onto a zone places it too.
      const chip = page.getByRole("button", { name: "Drag the cart pill" });
      const target = page.getByRole("button", { name: "Put the cart pill top left", exact: true });
      const from = (await chip.boundingBox())!;
      const to = (await target.boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2, { steps: 3 });
      await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
      await page.mouse.up();
      await page.locator(".pill-zones").getByText("(now top left)").waitFor();
      await screenshot(page, "dashboard-editor-pill-desktop");

      // A visitor with something in the cart sees the pill in the top left corner of the live page.
      const visitor = await browser.newPage({ viewport: DESKTOP });
      await visitor.goto(`${base}/shop/p/stoneware-mug`);
      await visitor.waitForSelector('.sqs-add-to-cart-button[data-ready="true"]');
      await visitor.getByRole("combobox", { name: "Select Glaze" }).selectOption("Moss");
      await visitor.getByRole("button", { name: "Add To Cart" }).click();
      await expect
        .poll(() => visitor.locator(".header-cart [data-cart-count]").first().innerText(), {
          timeout: 10_000,
        })
        .toBe("1");
      await visitor.goto(`${base}${created.fullUrl}`);
      const pill = visitor.locator(".cart-pill.cart-pill--top-left.is-visible");
      await pill.waitFor();
      // It sits in the top left corner of the window, below the header.
      await expect.poll(async () => (await pill.boundingBox())?.x, { timeout: 10_000 }).toBeLessThan(60);
      const box = (await pill.boundingBox())!;
      expect(box.y).toBeLessThan(160);
      await screenshot(visitor, "cart-pill-top-left-desktop");
      await visitor.close();
    } finally {
      await ownerCall(page, "PATCH", `/api/owner/sites/${siteId}/settings`, { cartPillPosition: original });
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("offers the gallery settings with the SPEC's ranges and defaults, and the frame follows a change", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const { media } = await ownerCall<{ media: { id: string }[] }>(
      page,
      "GET",
      `/api/owner/websites/${siteId}/media`,
    );
    const created = await newPage(page, siteId, "Gallery Options", {
      rows: [
        {
          columns: [
            {
              span: 12,
              blocks: [{ id: "g", type: "gallery", imageIds: media.slice(0, 3).map((m) => m.id) }],
            },
          ],
        },
      ],
    });
    await page.goto(`${base}/config/sites/${siteId}/pages/${created.id}/edit`);
    const box = page.locator('[data-overlay-for="g"]');
    await box.getByRole("button", { name: "Select Gallery block" }).click();
    const panel = page.locator("#block-panel fieldset", { hasText: "Gallery settings" });
    await panel.waitFor();
    const numbers: [string, number, number, number][] = [
      ["Autoplay delay (seconds)", 1, 10, 5],
      ["Thumbnail strip height (px)", 0, 200, 80],
      ["Thumbnail strip margin (px)", 0, 60, 20],
      ["Thumbnails per row", 1, 10, 4],
      ["Padding (px)", 0, 50, 20],
      ["Slide max width (%)", 100, 300, 300],
    ];
    for (const [label, min, max, value] of numbers) {
      const input = panel.getByLabel(label, { exact: true });
      await expect(input.getAttribute("min"), label).resolves.toBe(String(min));
      await expect(input.getAttribute("max"), label).resolves.toBe(String(max));
      await expect(input.inputValue(), label).resolves.toBe(String(value));
    }
    const selects: [string, string, string[]][] = [
      ["Design", "grid", ["grid", "slideshow", "slider", "stacked"]],
      ["Aspect ratio", "square", ["square"]],
      [
        "Meta position",
        "bottom",
        ["top", "top-left", "top-right", "center", "bottom", "bottom-left", "bottom-right"],
      ],
      ["Active slide alignment", "center", ["center", "left", "right"]],
      ["Lightbox theme", "dark", ["dark"]],
    ];
    for (const [label, value, options] of selects) {
      const select = panel.getByLabel(label, { exact: true });
      await expect(select.inputValue(), label).resolves.toBe(value);
      const offered = await select
        .locator("option")
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      if (label === "Design" || label === "Meta position" || label === "Active slide alignment")
        expect(offered, label).toEqual(options);
      else expect(offered, label).toEqual(expect.arrayContaining(options));
    }
    await expect(
      frameOf(page).locator('[data-block-id="g"] .gallery[data-design="grid"]').count(),
    ).resolves.toBe(1);
    await screenshot(page, "dashboard-editor-gallery-desktop");
    await page.setViewportSize(PHONE);
    await screenshot(page, "dashboard-editor-gallery-phone");
    await page.setViewportSize(DESKTOP);
    // A changed option shows in the frame once the draft is saved.
    await panel.getByLabel("Design", { exact: true }).selectOption("slideshow");
    await panel.getByLabel("Thumbnails per row", { exact: true }).fill("6");
    await saved(page);
    await expect
      .poll(() => frameOf(page).locator('[data-block-id="g"] .gallery[data-design="slideshow"]').count(), {
        timeout: 15_000,
      })
      .toBe(1);
    await expect(
      frameOf(page).locator('[data-block-id="g"] .gallery').getAttribute("style"),
    ).resolves.toContain("--per-row:6");
    const g = blocksOf(await draftOf(page, siteId, created.id)).find((b) => b.id === "g")!;
    expect(g.options).toMatchObject({ design: "slideshow", "thumbnails-per-row": 6 });
    // An out-of-range value is marked in the panel and refused by the server in the SPEC's range.
    await panel.getByLabel("Thumbnails per row", { exact: true }).fill("11");
    await expect(panel.getByText("From 1 to 10 · default 4").getAttribute("class")).resolves.toBe("error");
    await page.locator(".save-state", { hasText: "Not saved" }).waitFor({ timeout: 15_000 });
    await page.getByText("Thumbnails per row: must be from 1 to 10.").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("runs the editing frame without the owner's code in safe mode; override and expanded frame", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const created = await newPage(page, siteId, "Safe Mode", {
      rows: [
        {
          columns: [
            {
              span: 12,
              blocks: [
                { id: "words", type: "text", html: "<p>Plain words</p>" },
                { id: "own", type: "code", html: '<p class="own-code">Owner code here</p>' },
                { id: "pic", type: "image" },
              ],
            },
          ],
        },
      ],
    });
    // The image block has no image yet: only a draft may hold it; the frame shows a placeholder.
    await ownerCall(page, "PATCH", `/api/owner/sites/${siteId}/pages/${created.id}`, {
      password: "open-sesame-1",
    });
    await page.goto(`${base}/config/sites/${siteId}/pages/${created.id}/edit`);
    const frame = frameOf(page);
    // Override: the owner sees the password-protected page in the frame, no lock screen.
    await frame.getByText("Owner code here").waitFor();
    await expect(frame.getByText("Plain words").count()).resolves.toBe(1);
    // Expanded frame: a block with nothing to show is a placeholder the owner can select.
    await frame.getByText("Image block: choose an image in the side panel.").waitFor();
    await page.locator('[data-overlay-for="pic"]').waitFor();
    const visitorRes = await fetch(`${base}${created.fullUrl}`);
    expect(visitorRes.status).toBe(401);
    const visitorHtml = await visitorRes.text();
    expect(visitorHtml).not.toContain("Owner code here");
    expect(visitorHtml).not.toContain("block-placeholder");

    // Safe mode: the cookie is set and the frame runs without code blocks.
    await page.getByLabel("Safe mode").check();
    await expect
      .poll(
        async () => (await context.cookies()).find((c) => c.name === "atelier_disable_user_scripts")?.value,
      )
      .toBe("1");
    await expect.poll(() => frame.locator(".own-code").count(), { timeout: 15_000 }).toBe(0);
    await frame.getByText("Code block: not run in safe mode.").waitFor();
    await expect(frame.getByText("Plain words").count()).resolves.toBe(1);
    // The code block can still be selected and removed in safe mode.
    await page.locator('[data-overlay-for="own"]').waitFor();
    await screenshot(page, "dashboard-editor-safe-mode-desktop");
    await page.getByLabel("Safe mode").uncheck();
    await expect
      .poll(async () => (await context.cookies()).find((c) => c.name === "atelier_disable_user_scripts"))
      .toBeUndefined();
    await expect.poll(() => frame.locator(".own-code").count(), { timeout: 15_000 }).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("starts a new text block empty, with a placeholder that is never part of the text", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const created = await newPage(page, siteId, "Empty Text");
    await page.goto(`${base}/config/sites/${siteId}/pages/${created.id}/edit`);
    await page.getByText("Editing: Empty Text").waitFor();
    await page.getByRole("button", { name: "Add block" }).first().click();
    await page.getByRole("button", { name: "Add Text block", exact: true }).click();
    // The in-place editor opens empty and focused: no words to delete before typing.
    const inplace = page.locator(".inplace .ProseMirror");
    await inplace.waitFor();
    await expect.poll(() => inplace.evaluate((e) => e === document.activeElement)).toBe(true);
    expect((await inplace.textContent())?.trim()).toBe("");
    await expect
      .poll(
        async () => blocksOf(await draftOf(page, siteId, created.id)).filter((b) => b.type === "text").length,
        {
          timeout: 15_000,
        },
      )
      .toBe(1);
    const [block] = blocksOf(await draftOf(page, siteId, created.id));
    expect(block!.html ?? "").toBe("");
    // The frame shows the placeholder for the empty block; the published page shows nothing.
    await expect
      .poll(() => frameOf(page).locator(`[data-block-id="${block!.id}"]`).textContent(), { timeout: 15_000 })
      .toBe("Write something here.");
    await page.keyboard.type("Hello there");
    await page.getByRole("button", { name: "Done editing" }).click();
    await expect
      .poll(async () => blocksOf(await draftOf(page, siteId, created.id))[0]?.html, { timeout: 15_000 })
      .toBe("<p>Hello there</p>");
    // Emptied again in the side panel: the placeholder shows while the field has no focus.
    await page
      .locator(`[data-overlay-for="${block!.id}"]`)
      .getByRole("button", { name: "Select Text block" })
      .click();
    const field = page.locator("#block-panel .ProseMirror");
    await field.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Backspace");
    await page.locator(".editor-bar .title").click();
    await expect
      .poll(() => field.locator("p.is-editor-empty").getAttribute("data-placeholder"), { timeout: 15_000 })
      .toBe("Write something here.");
    const before = await field
      .locator("p.is-editor-empty")
      .evaluate((e) => getComputedStyle(e, "::before").content);
    expect(before).toBe('"Write something here."');
    await field.click();
    const focused = await field
      .locator("p.is-editor-empty")
      .evaluate((e) => getComputedStyle(e, "::before").content);
    expect(focused).toBe("none");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("undoes and redoes adding, editing and deleting blocks", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const created = await newPage(page, siteId, "Undo Redo", {
      rows: [{ columns: [{ span: 12, blocks: [{ id: "q", type: "quote", text: "First words" }] }] }],
    });
    await page.goto(`${base}/config/sites/${siteId}/pages/${created.id}/edit`);
    const undo = page.getByRole("button", { name: "Undo" });
    const redo = page.getByRole("button", { name: "Redo" });
    const frame = frameOf(page);
    await frame.getByText("First words").waitFor();
    await expect(undo.isDisabled()).resolves.toBe(true);
    await expect(redo.isDisabled()).resolves.toBe(true);
    const ids = async () => blocksOf(await draftOf(page, siteId, created.id)).map((b) => b.type);

    // Add a line, edit the quote, delete the quote.
    await page.getByRole("button", { name: "Add block" }).first().click();
    await page.getByRole("button", { name: "Add Line block" }).click();
    await saved(page);
    await expect.poll(ids, { timeout: 15_000 }).toEqual(["quote", "line"]);
    await page.locator('[data-overlay-for="q"]').getByRole("button", { name: "Select Quote block" }).click();
    await page.locator("#block-panel").getByLabel("Quote", { exact: true }).fill("Second words");
    await saved(page);
    await expect.poll(() => frame.getByText("Second words").count(), { timeout: 15_000 }).toBe(1);
    await page.locator("#block-panel").getByRole("button", { name: "Delete block" }).click();
    await saved(page);
    await expect.poll(ids, { timeout: 15_000 }).toEqual(["line"]);

    // Undo three times: back where the page started, in the draft and the frame.
    await undo.click();
    await saved(page);
    await expect.poll(ids, { timeout: 15_000 }).toEqual(["quote", "line"]);
    await expect.poll(() => frame.getByText("Second words").count(), { timeout: 15_000 }).toBe(1);
    await undo.click();
    await saved(page);
    await expect.poll(() => frame.getByText("First words").count(), { timeout: 15_000 }).toBe(1);
    await undo.click();
    await saved(page);
    await expect.poll(ids, { timeout: 15_000 }).toEqual(["quote"]);
    await expect(undo.isDisabled()).resolves.toBe(true);
    // Redo with the keyboard, then the button.
    await page.locator(".editor-bar .title").click();
    await page.keyboard.press("Control+Shift+z");
    await saved(page);
    await expect.poll(ids, { timeout: 15_000 }).toEqual(["quote", "line"]);
    await redo.click();
    await redo.click();
    await saved(page);
    await expect.poll(ids, { timeout: 15_000 }).toEqual(["line"]);
    await expect(redo.isDisabled()).resolves.toBe(true);
    // Ctrl+Z undoes too.
    await page.keyboard.press("Control+z");
    await saved(page);
    await expect.poll(ids, { timeout: 15_000 }).toEqual(["quote", "line"]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
