/**
 * The dashboard form kit on a real screen: the save bar tracks unsaved changes, Discard puts the
 * saved values back, Ctrl+S saves, and a field the API refuses shows the API's message under it.
 */
import { describe, expect, inject, it } from "vitest";
import { PHONE, screenshot, browser, useBrowser } from "./browser.js";
import { demoOwnerLogIn, ownerCall } from "./owner.js";
import { addCandle, fillCheckout } from "./shopper.js";

const base = inject("baseUrl");
useBrowser();

describe("dashboard form kit", () => {
  it("tracks unsaved changes, discards them, saves with Ctrl+S and shows the API's field errors", async () => {
    const { page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await page.goto(`${base}/config/sites/${siteId}/store`);
    const soldOut = page.getByLabel("Sold-out text");
    await soldOut.waitFor();
    const before = await soldOut.inputValue();
    const state = page.locator(".save-bar-state");
    expect(await state.textContent()).toBe("");

    await soldOut.fill("Gone for now");
    await expect.poll(() => state.textContent()).toBe("Unsaved changes");
    await page.getByRole("button", { name: "Discard" }).click();
    expect(await soldOut.inputValue()).toBe(before);
    await expect.poll(() => state.textContent()).toBe("");
    expect(await page.getByRole("button", { name: "Discard" }).isDisabled()).toBe(true);

    await soldOut.fill("Gone for now");
    await page.getByLabel("Hide sold-out variants in the variant dropdown").click();
    await soldOut.press("Control+s");
    await expect.poll(() => state.textContent()).toBe("Store settings saved.");
    const saved = await ownerCall<{ settings: { customSoldOutText: string } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/store`,
    );
    expect(saved.settings.customSoldOutText).toBe("Gone for now");

    const success = page.getByLabel("Sign-up success message");
    await success.fill("x".repeat(501));
    await page.getByRole("button", { name: "Save store settings" }).click();
    const field = page.locator(".field.invalid", { has: success });
    await field.getByText("At most 500 characters.").waitFor();
    expect(await success.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => state.textContent()).toBe("Unsaved changes");
    await screenshot(page, "dashboard-formkit-error-desktop");

    // Put the demo back as it was.
    await page.getByRole("button", { name: "Discard" }).click();
    await soldOut.fill(before);
    await page.getByLabel("Hide sold-out variants in the variant dropdown").click();
    await page.getByRole("button", { name: "Save store settings" }).click();
    await expect.poll(() => state.textContent()).toBe("Store settings saved.");
    expect(errors).toEqual([]);
  });

  it("edits shipping rules and coupons with money fields in minor units", async () => {
    const { page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await page.goto(`${base}/config/sites/${siteId}/store/shipping`);
    await page.getByRole("button", { name: "Add shipping rule" }).click();
    let dialog = page.getByRole("dialog", { name: "Add shipping rule" });
    await dialog.getByLabel("Name shown at checkout").fill("Kit courier");
    const price = dialog.getByLabel("Price (USD)");
    await price.fill("5.505");
    await dialog.getByText("Enter an amount such as 12.50.").waitFor();
    expect(await dialog.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
    await price.fill("5.50");
    await dialog.getByRole("button", { name: "Save" }).click();
    const row = page.getByRole("row", { name: /Kit courier/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("$5.50 per order");
    const rules = await ownerCall<{ rules: { name: string; priceCents: number }[] }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/store/shipping-rules`,
    );
    expect(rules.rules.find((r) => r.name === "Kit courier")?.priceCents).toBe(550);
    await row.getByRole("button", { name: "Edit Kit courier" }).click();
    dialog = page.getByRole("dialog", { name: "Edit shipping rule" });
    expect(await dialog.getByLabel("Price (USD)").inputValue()).toBe("5.50");
    await screenshot(page, "dashboard-formkit-shipping-desktop");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => row.count()).toBe(0);

    await page.goto(`${base}/config/sites/${siteId}/store/coupons`);
    await page.getByRole("button", { name: "Add coupon" }).click();
    dialog = page.getByRole("dialog", { name: "Add coupon" });
    await dialog.getByLabel("Code").fill("KIT10");
    await dialog.getByLabel("Discount").selectOption("fixed");
    await dialog.getByLabel("Amount (USD)").fill("10");
    await dialog.getByLabel("Minimum order (USD)").fill("40");
    // Held on its way to the server, the save shows itself running and cannot be sent twice.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/store/coupons", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Save" }).click();
    const saving = dialog.getByRole("button", { name: "Saving…" });
    await saving.waitFor();
    expect(await saving.isDisabled()).toBe(true);
    const posted = page.waitForResponse(
      (r) => r.url().endsWith("/store/coupons") && r.request().method() === "POST",
    );
    release();
    await posted;
    await page.unroute("**/store/coupons");
    const coupon = page.getByRole("row", { name: /KIT10/ });
    await coupon.waitFor();
    expect(await coupon.textContent()).toContain("$10.00 off");
    const coupons = await ownerCall<{ rules: { code: string; amount: number; minSubtotalCents: number }[] }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/store/coupons`,
    );
    const kit = coupons.rules.find((c) => c.code === "KIT10");
    expect([kit?.amount, kit?.minSubtotalCents]).toEqual([1000, 4000]);
    await coupon.getByRole("button", { name: "Edit KIT10" }).click();
    await page.getByRole("dialog", { name: "Edit coupon" }).getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => coupon.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("refunds part of an order with the money field, in minor units", async () => {
    // A visitor buys a candle with the test card.
    const shopper = await browser.newPage();
    await addCandle(shopper);
    await shopper.goto(`${base}/checkout`);
    await fillCheckout(shopper, "4242 4242 4242 4242");
    await shopper.getByRole("button", { name: /^Pay \$/ }).click();
    await shopper.waitForURL(/\/checkout\/order-confirmed\?orderId=[a-f0-9]{24}&token=/);
    const orderId = new URL(shopper.url()).searchParams.get("orderId");
    await shopper.close();

    const { page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await page.goto(`${base}/config/sites/${siteId}/ops/orders/${orderId}`);
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: /^Refund order #/ });
    const amount = dialog.getByLabel("Amount to refund (USD)");
    const { order } = await ownerCall<{ order: { grandTotalCents: number } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/orders/${orderId}`,
    );
    // The whole total is offered, written in dollars and cents.
    expect(await amount.inputValue()).toBe((order.grandTotalCents / 100).toFixed(2));
    await amount.fill("5.25");
    await dialog.getByRole("button", { name: /^Refund order/ }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const after = await ownerCall<{ order: { refundedCents: number } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/orders/${orderId}`,
    );
    expect(after.order.refundedCents).toBe(525);
    await page.getByText("−$5.25").waitFor();
    expect(errors).toEqual([]);
  });

  it("writes a blog post, and discards a page settings change, on the save bar", async () => {
    const { page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const { pages } = await ownerCall<{ pages: { id: string; kind: string }[] }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/pages`,
    );
    const blog = pages.find((p) => p.kind === "blog")!;
    await page.goto(`${base}/config/sites/${siteId}/collections/${blog.id}/items/new`);
    await page.getByLabel("Title", { exact: true }).fill("Notes from the kiln");
    await page.getByRole("button", { name: "Save post" }).click();
    await page.getByText("Saved. It is live on the site.").waitFor();
    await page.waitForURL(/\/items\/[^/]+\?saved=1$/);
    const itemId = /\/items\/([^/?]+)/.exec(page.url())![1]!;
    const state = page.locator(".save-bar-state");
    await page.getByLabel("Title", { exact: true }).fill("Notes from the wood kiln");
    await expect.poll(() => state.textContent()).toBe("Unsaved changes");
    await page.getByRole("button", { name: "Save post" }).click();
    await expect.poll(() => state.textContent()).toBe("Saved. It is live on the site.");
    const { item } = await ownerCall<{ item: { title: string } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/collections/${blog.id}/items/${itemId}`,
    );
    expect(item.title).toBe("Notes from the wood kiln");
    await ownerCall(page, "DELETE", `/api/owner/sites/${siteId}/collections/${blog.id}/items/${itemId}`);

    // Page settings: a change shows as unsaved, and Discard puts the saved title back.
    await page.goto(`${base}/config/sites/${siteId}/pages/${blog.id}`);
    const title = page.getByLabel("Page title");
    const saved = await title.inputValue();
    await title.fill("Journal (draft)");
    await expect.poll(() => state.textContent()).toBe("Unsaved changes");
    await page.getByRole("button", { name: "Discard" }).click();
    expect(await title.inputValue()).toBe(saved);
    expect(errors).toEqual([]);
  });

  it("edits a code block's HTML in the CodeMirror field, labelled, with line numbers", async () => {
    const { page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const { page: created } = await ownerCall<{ page: { id: string } }>(
      page,
      "POST",
      `/api/owner/sites/${siteId}/pages`,
      { kind: "page", title: "Kit code" },
    );
    await ownerCall(page, "PATCH", `/api/owner/sites/${siteId}/pages/${created.id}`, { hiddenFromNav: true });
    await page.goto(`${base}/config/sites/${siteId}/pages/${created.id}/edit`);
    await page.getByText("Editing: Kit code").waitFor();
    await page.getByRole("button", { name: "Add block" }).first().click();
    await page
      .getByRole("dialog", { name: "Add a block" })
      .getByRole("button", { name: "Add Code block" })
      .click();
    const editor = page.getByRole("textbox", { name: "HTML" });
    await editor.fill('<p class="kit">Made with the kit</p>');
    await expect.poll(() => page.locator("#block-panel .cm-lineNumbers").count()).toBe(1);
    await screenshot(page, "dashboard-formkit-code-desktop");
    await expect
      .poll(() => page.locator(".save-state").textContent(), { timeout: 15_000 })
      .toBe("Draft saved");
    const { draft } = await ownerCall<{ draft: { rows: { columns: { blocks: { html?: string }[] }[] }[] } }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/pages/${created.id}/layout`,
    );
    const block = draft.rows[0]?.columns[0]?.blocks[0];
    expect(block?.html).toBe('<p class="kit">Made with the kit</p>');
    await ownerCall(page, "DELETE", `/api/owner/sites/${siteId}/pages/${created.id}`);
    expect(errors).toEqual([]);
  });

  it("keeps the save bar in reach on a phone", async () => {
    const { page, errors, siteId } = await demoOwnerLogIn(browser, base, PHONE);
    await page.goto(`${base}/config/sites/${siteId}/store`);
    const soldOut = page.getByLabel("Sold-out text");
    await soldOut.fill("Back soon");
    const save = page.getByRole("button", { name: "Save store settings" });
    expect(await save.isVisible()).toBe(true);
    const box = await save.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    await screenshot(page, "dashboard-formkit-phone");
    await page.getByRole("button", { name: "Discard" }).click();
    expect(errors).toEqual([]);
  });
});
