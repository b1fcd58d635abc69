/**
 * The store front in Chromium: a visitor picks options on a product page, adds to the cart
 * through the exact button states (Adding… then Added! about 1 s after the answer, idle 2 s
 * later), sees the count in the header and the pill, and changes the cart on /cart. Desktop
 * and phone (432 px), with screenshots.
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, PHONE, screenshot, browser, useBrowser } from "./browser.js";
import { ownerApiSession } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

const viewports = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;

async function openProduct(page: Page, slug: string) {
  await page.goto(`${base}/shop/p/${slug}`);
  await page.waitForSelector('.sqs-add-to-cart-button[data-ready="true"]');
}

/** Records every label the add button shows, with the time it appeared. */
async function recordLabels(page: Page) {
  await page.evaluate(() => {
    const inner = document.querySelector(".sqs-add-to-cart-button-inner")!;
    const w = window as unknown as { labels: { text: string; at: number }[] };
    w.labels = [];
    new MutationObserver(() =>
      w.labels.push({ text: inner.textContent ?? "", at: performance.now() }),
    ).observe(inner, { childList: true, characterData: true, subtree: true });
  });
}

function labels(page: Page) {
  return page.evaluate(() => (window as unknown as { labels: { text: string; at: number }[] }).labels);
}

describe("the product page and the cart in a browser", () => {
  for (const [name, viewport] of viewports) {
    it(`picks options, adds through the exact states and shows the count (${name})`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await openProduct(page, "everyday-linen-shirt");
      await screenshot(page, `cart-product-${name}`);
      const button = page.getByRole("button", { name: "Add To Cart" });
      const count = page.locator(".header-cart [data-cart-count]").first();
      await expect(count.innerText()).resolves.toBe("0");
      await expect(page.locator(".cart-pill").count()).resolves.toBe(1);
      await expect(page.locator(".cart-pill").isVisible()).resolves.toBe(false);

      // Nothing chosen: the alert names both options.
      await button.click();
      const alert = page.getByRole("alertdialog");
      await alert.waitFor();
      await expect(alert.getByRole("heading").innerText()).resolves.toBe("Unable to Add Item");
      await expect(alert.innerText()).resolves.toContain("Please select the Size and Color options.");
      await screenshot(page, `cart-alert-${name}`);
      await alert.getByRole("button", { name: "OK" }).click();
      await expect(page.getByRole("alertdialog").count()).resolves.toBe(0);
      // Back to idle 1 s after the error.
      await page.waitForFunction(
        () => document.querySelector(".sqs-add-to-cart-button")?.getAttribute("data-state") === "idle",
      );

      // A sold-out combination shows the note and is refused with the stock message.
      await page.getByRole("combobox", { name: "Select Size" }).selectOption("M");
      await page.getByRole("combobox", { name: "Select Color" }).selectOption("Indigo");
      await expect(page.locator(".product-price .product-sold-out-note").innerText()).resolves.toMatch(
        /sold out/i,
      );
      await button.click();
      await expect(page.getByRole("alertdialog").innerText()).resolves.toContain(
        "Sorry, we do not have enough of that item available.",
      );
      await page.keyboard.press("Escape");
      await page.waitForFunction(
        () => document.querySelector(".sqs-add-to-cart-button")?.getAttribute("data-state") === "idle",
      );

      // A variant in stock: its price, then Adding… → Added! → idle with the count up.
      await page.getByRole("combobox", { name: "Select Color" }).selectOption("Sand");
      await expect(page.locator(".product-price").first().innerText()).resolves.toContain("98.00");
      await page.getByRole("spinbutton", { name: "Quantity" }).fill("2");
      await recordLabels(page);
      const answered = page.waitForResponse((r) => r.url().includes("/api/commerce/shopping-cart/entries"));
      await button.click();
      const response = await answered;
      expect(response.status()).toBe(200);
      // When the page itself had the answer, on the page's clock (a busy machine delays the test's).
      const answeredAt = await page.evaluate(
        () =>
          (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
            .filter((e) => e.name.includes("/api/commerce/shopping-cart/entries"))
            .at(-1)!.responseEnd,
      );
      await page.waitForFunction(
        () => document.querySelector(".sqs-add-to-cart-button-inner")?.textContent === "Added!",
      );
      await screenshot(page, `cart-added-${name}`);
      // A button showing Added! ignores clicks (forced: it is aria-disabled meanwhile).
      await page.locator(".sqs-add-to-cart-button").click({ force: true });
      await expect(page.locator(".sqs-add-to-cart-button").getAttribute("aria-disabled")).resolves.toBe(
        "true",
      );
      await page.waitForFunction(
        () => document.querySelector(".sqs-add-to-cart-button-inner")?.textContent === "Add To Cart",
        undefined,
        { timeout: 5000 },
      );
      const seen = await labels(page);
      expect(seen.map((l) => l.text)).toEqual(["Adding…", "Added!", "Add To Cart"]);
      const added = seen[1]!.at - answeredAt;
      expect(added).toBeGreaterThan(800);
      expect(added).toBeLessThan(1400);
      const idle = seen[2]!.at - seen[1]!.at;
      expect(idle).toBeGreaterThan(1800);
      expect(idle).toBeLessThan(2400);
      await expect(count.innerText()).resolves.toBe("2");
      await page.locator(".cart-pill.is-visible").waitFor();
      await expect(page.locator(".cart-pill-count").innerText()).resolves.toBe("2");
      // Only one add went through while the button was busy.
      const cart = await (await page.request.get(`${base}/api/commerce/shopping-cart`)).json();
      expect(cart.totalQuantity).toBe(2);

      // The count survives a new page: the cart cookie makes the page load the cart.
      await openProduct(page, "stoneware-mug");
      await expect(page.locator(".header-cart [data-cart-count]").first().innerText()).resolves.toBe("2");
      await page.locator(".cart-pill.is-visible").waitFor();
      // The demo's pill sits bottom right: 24px from the corner, 16px on a phone.
      const inset = name === "phone" ? 16 : 24;
      await expect
        .poll(async () => {
          const box = (await page.locator(".cart-pill").boundingBox())!;
          return [viewport.width - box.x - box.width, viewport.height - box.y - box.height].map(Math.round);
        })
        .toEqual([inset, inset]);
      await screenshot(page, `cart-pill-${name}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`changes quantities and removes lines on /cart (${name})`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await openProduct(page, "linen-work-apron");
      await page.getByRole("combobox", { name: "Select Color" }).selectOption("Rust");
      await page.getByRole("button", { name: "Add To Cart" }).click();
      await page.waitForFunction(
        () => document.querySelector(".sqs-add-to-cart-button-inner")?.textContent === "Added!",
      );
      await openProduct(page, "hand-thrown-vase");
      await page.getByRole("button", { name: "Add To Cart" }).click();
      await page.waitForFunction(
        () => document.querySelector(".sqs-add-to-cart-button-inner")?.textContent === "Added!",
      );

      await page.goto(`${base}/cart`);
      await page.locator(".cart-line").nth(1).waitFor();
      // No pill on the cart page.
      await expect(page.locator(".cart-pill").count()).resolves.toBe(0);
      await expect(page.locator(".cart-subtotal-amount").innerText()).resolves.toBe("$110.00");
      await screenshot(page, `cart-page-${name}`);

      const apron = page.locator(".cart-line", { hasText: "Linen Work Apron" });
      await expect(apron.innerText()).resolves.toContain("Color: Rust");
      const quantity = apron.getByRole("spinbutton", { name: "Quantity" });
      // More than the stock: the SPEC's message beside the line, the quantity unchanged.
      await quantity.fill("3");
      await quantity.press("Enter");
      await expect(apron.getByRole("alert").innerText()).resolves.toBe(
        "Sorry, we do not have enough of that item available.",
      );
      await expect(quantity.inputValue()).resolves.toBe("1");
      await screenshot(page, `cart-page-error-${name}`);
      await quantity.fill("2");
      await quantity.press("Enter");
      await page.waitForFunction(
        () => document.querySelector(".cart-subtotal-amount")?.textContent === "$178.00",
      );
      await expect(page.locator(".header-cart [data-cart-count]").first().innerText()).resolves.toBe("3");

      await page.getByRole("button", { name: "Remove Hand-Thrown Bud Vase" }).click();
      await page.waitForFunction(() => document.querySelectorAll(".cart-line").length === 1);
      await expect(page.locator(".cart-subtotal-amount").innerText()).resolves.toBe("$136.00");
      await expect(page.getByRole("link", { name: "Checkout" }).getAttribute("href")).resolves.toBe(
        "/checkout",
      );

      await page.getByRole("button", { name: "Remove Linen Work Apron" }).click();
      await page.getByText("You have nothing in your shopping cart.").waitFor();
      await expect(page.locator(".header-cart [data-cart-count]").first().innerText()).resolves.toBe("0");
      await screenshot(page, `cart-page-empty-${name}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("keeps /cart still while its lines arrive, empty or full, on a phone", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    // Layout shifts the page makes on its own, as Lighthouse's CLS sums them.
    await page.addInitScript(() => {
      const w = window as unknown as { shift: number };
      w.shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          const shift = entry as unknown as { value: number; hadRecentInput: boolean };
          if (!shift.hadRecentInput) w.shift += shift.value;
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    const shiftOnCart = async (ready: string) => {
      await page.goto(`${base}/cart`);
      await page.locator(ready).waitFor();
      await page.waitForTimeout(300);
      return page.evaluate(() => (window as unknown as { shift: number }).shift);
    };
    // The lines used to push the page down (0.051). A loaded machine can still move a glyph by a
    // fraction of a pixel as the web font swaps in (0.0001), which no visitor sees.
    await expect(shiftOnCart(".cart-view--empty")).resolves.toBeLessThan(0.01);
    await openProduct(page, "hand-thrown-vase");
    await page.getByRole("button", { name: "Add To Cart" }).click();
    await page.waitForFunction(
      () => document.querySelector(".sqs-add-to-cart-button-inner")?.textContent === "Added!",
    );
    await expect(shiftOnCart(".cart-line")).resolves.toBeLessThan(0.01);
    await context.close();
  });

  it("sends subscriptions to the subscription page with the cart token, and gift cards to the gift card page", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await openProduct(page, "single-origin-coffee");
    await expect(page.locator(".product-price").first().innerText()).resolves.toContain("every month");
    await page.getByRole("combobox", { name: "Select Grind" }).selectOption("Filter");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.waitForURL(/\/checkout\?cartToken=[\w-]{20,}$/);

    await openProduct(page, "atelier-gift-card");
    const button = page.locator(".sqs-add-to-cart-button");
    await button.click();
    const alert = page.getByRole("alertdialog");
    await expect(alert.getByRole("heading").innerText()).resolves.toBe("Unable to purchase Gift Card");
    await expect(alert.innerText()).resolves.toContain("Select a denomination for the Gift Card");
    await alert.getByRole("button", { name: "OK" }).click();
    await page.waitForFunction(
      () => document.querySelector(".sqs-add-to-cart-button")?.getAttribute("data-state") === "idle",
    );
    const value = page.getByRole("combobox", { name: "Value" });
    await expect(value.locator("option").allInnerTexts()).resolves.toEqual([
      "Select Value",
      "$25.00",
      "$50.00",
      "$100.00",
    ]);
    await value.selectOption({ label: "$50.00" });
    await expect(page.locator(".product-price").first().innerText()).resolves.toContain("50.00");
    await screenshot(page, "cart-gift-card-desktop");
    await button.click();
    await page.waitForURL(/\/checkout\/gift-card\?itemId=\w+&sku=ATEGIFCAR-02$/);
    await context.close();
  });

  it("asks for a product's additional fields in a modal form before adding it", async () => {
    // The owner gives a new product the contact form as its additional fields.
    const { context, page, headers, login } = await ownerApiSession(browser, base, { viewport: PHONE });
    expect(login.status()).toBe(200);
    const shop = await (await page.request.get(`${base}/shop?format=json`)).json();
    const contact = await (await page.request.get(`${base}/contact?format=json`)).json();
    const formId = JSON.stringify(contact).match(/"form":\{"id":"([a-f0-9]{24})"/)![1];
    const made = await page.request.post(`${base}/api/owner/sites/${shop.website.id}/products`, {
      headers,
      data: {
        collectionId: shop.collection.id,
        title: "Engraved Mug",
        urlId: "engraved-mug",
        productType: 1,
        status: "published",
        variants: [{ priceCents: 4000, qtyInStock: 5 }],
        additionalFieldsFormId: formId,
      },
    });
    expect(made.status()).toBe(201);

    await openProduct(page, "engraved-mug");
    await page.getByRole("button", { name: "Add To Cart" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await expect(dialog.getByRole("heading").first().innerText()).resolves.toBe("Contact");
    await dialog.getByRole("button", { name: "Add To Cart" }).click();
    await expect(
      dialog.getByText("One or more fields is invalid, please check your entries.").count(),
    ).resolves.toBe(1);
    await expect(dialog.getByText("Required").count()).resolves.toBe(2);
    await page.waitForTimeout(300);
    await screenshot(page, "cart-additional-fields-phone");
    // The phone keyboard and autofill of an email field, as on the site's own forms.
    const email = dialog.getByLabel("Email");
    await expect(
      email.evaluate((e) => [e.getAttribute("inputmode"), e.getAttribute("autocomplete")]),
    ).resolves.toEqual(["email", "email"]);
    await email.fill("maker@example.com");
    await dialog.getByLabel("Message").fill("Please engrave: For Ada");
    await dialog.getByRole("button", { name: "Add To Cart" }).click();
    await page.waitForFunction(
      () => document.querySelector(".sqs-add-to-cart-button-inner")?.textContent === "Added!",
    );
    const cart = await (await page.request.get(`${base}/api/commerce/shopping-cart`)).json();
    expect(cart.entries).toHaveLength(1);
    expect(cart.entries[0].additionalFields).toMatchObject({
      email: "maker@example.com",
      message: "Please engrave: For Ada",
    });
    await context.close();
  });

  it("signs up for a restock of a sold-out variant with the SPEC's messages", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await openProduct(page, "merino-throw");
    await expect(page.locator(".product-restock-notification:not([hidden])").count()).resolves.toBe(0);
    await page.getByRole("combobox", { name: "Select Color" }).selectOption("Oat");
    const form = page.locator(".product-restock-notification:not([hidden])");
    await expect(form.count()).resolves.toBe(1);
    const submit = form.getByRole("button", { name: "Sign Up" });
    await submit.click();
    await expect(form.getByRole("alert").innerText()).resolves.toBe("Email cannot be blank");
    const email = form.getByRole("textbox", {
      name: "Get notified by email when this product is back in stock",
    });
    await email.fill("not-an-address");
    await submit.click();
    await expect(form.getByRole("alert").innerText()).resolves.toBe("Email is invalid");
    await email.fill("wool-fan@example.com");
    await submit.click();
    await page.locator(".product-restock-success").waitFor();
    await expect(page.locator(".product-restock-success").innerText()).resolves.toBe(
      "Thank you! We will email you when it is back in stock.",
    );
    await screenshot(page, "cart-restock-desktop");
    await context.close();
  });

  it("opens the instalments information and closes it with Escape, the close button or a click outside", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await openProduct(page, "walnut-serving-board");
    await expect(page.locator(".instalments").innerText()).resolves.toContain(
      "4 interest-free payments of $10.75",
    );
    const info = page.getByRole("button", { name: "About paying in instalments" });
    await info.click();
    const dialog = page.getByRole("dialog", { name: "Pay in 4 interest-free payments" });
    await dialog.waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, "cart-instalments-phone");
    await page.keyboard.press("Escape");
    await expect(dialog.count()).resolves.toBe(0);
    await info.click();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog.count()).resolves.toBe(0);
    await info.click();
    await page.mouse.click(10, 10);
    await expect(dialog.count()).resolves.toBe(0);
    await context.close();
  });
});
