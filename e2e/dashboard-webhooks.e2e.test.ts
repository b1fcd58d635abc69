/**
 * Settings → Developers → Webhooks in a browser: add a webhook with two events (the secret shown
 * once), send a test event and see its attempt in the delivery log (the endpoint is a public
 * address this machine cannot reach, so "No answer"), redeliver it, pause and resume, rotate the
 * secret, edit, and delete. A private address is refused with the server's reason.
 */
import { describe, expect, inject, it } from "vitest";
import { PHONE, browser, screenshot, useBrowser } from "./browser.js";
import { demoOwnerLogIn, openDemoScreen } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

describe("the webhooks screen", () => {
  it("adds, tests, logs, redelivers, pauses, rotates, edits and deletes a webhook", async () => {
    const { page, errors } = await demoOwnerLogIn(browser, base, { width: 1440, height: 900 });
    await openDemoScreen(page, "Webhooks");
    await page.getByText("No webhooks yet.").waitFor();

    await page.getByRole("button", { name: "Add webhook" }).click();
    let dialog = page.getByRole("dialog", { name: "Add webhook" });
    await dialog.getByLabel("Endpoint URL").fill("https://10.0.0.1/hooks");
    await dialog.getByLabel("Order placed (order.created)").check();
    await dialog.getByRole("button", { name: "Add webhook" }).click();
    await dialog.getByText("private or local network").waitFor();
    await dialog.getByLabel("Endpoint URL").fill("https://93.184.215.14/hooks/atelier");
    await dialog.getByLabel("Description").fill("Accounting sync");
    await dialog.getByLabel("Stock changed (inventory.updated)").check();
    await screenshot(page, "dashboard-webhooks-add-desktop");
    await dialog.getByRole("button", { name: "Add webhook" }).click();

    const secretDialog = page.getByRole("dialog", { name: "Signing secret" });
    const secret = await secretDialog.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, "dashboard-webhooks-secret-desktop");
    await secretDialog.getByRole("button", { name: "Done" }).click();

    const row = page.getByRole("row", { name: /93\.184\.215\.14/ });
    await row.getByText("Active").waitFor();
    await row.getByRole("button", { name: /^Send test event/ }).click();
    const log = page.getByRole("region", { name: /Delivery log/ });
    await log.getByText("webhook.test").first().waitFor({ timeout: 30_000 });
    await log.getByText("No answer").first().waitFor();
    await screenshot(page, "dashboard-webhooks-log-desktop", { fullPage: false });
    await log
      .getByRole("button", { name: /^Redeliver/ })
      .first()
      .click();
    await expect
      .poll(async () => log.getByRole("button", { name: /^Redeliver/ }).count(), { timeout: 30_000 })
      .toBeGreaterThan(1);

    await row.getByRole("button", { name: /^Pause/ }).click();
    await row.getByText("Paused").waitFor();
    await row.getByRole("button", { name: /^Resume/ }).click();
    await row.getByText("Active").waitFor();

    await row.getByRole("button", { name: /^Rotate secret/ }).click();
    await page
      .getByRole("dialog", { name: "Rotate the signing secret?" })
      .getByRole("button", { name: "Rotate secret" })
      .click();
    const rotated = page.getByRole("dialog", { name: "Signing secret" });
    expect(await rotated.getByLabel("Signing secret").inputValue()).not.toBe(secret);
    await rotated.getByText("The previous secret keeps signing").waitFor();
    await rotated.getByRole("button", { name: "Done" }).click();

    await row.getByRole("button", { name: /^Edit/ }).click();
    dialog = page.getByRole("dialog", { name: "Edit webhook" });
    await dialog.getByLabel("Product deleted (product.deleted)").check();
    await dialog.getByRole("button", { name: "Save" }).click();
    await row.getByText("product.deleted").waitFor();

    const phone = await demoOwnerLogIn(browser, base, PHONE);
    await phone.page.goto(page.url());
    await phone.page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await phone.page.getByText("Accounting sync").waitFor();
    await screenshot(phone.page, "dashboard-webhooks-phone", { fullPage: false });

    await row.getByRole("button", { name: /^Delete/ }).click();
    await page
      .getByRole("dialog", { name: "Delete this webhook?" })
      .getByRole("button", { name: "Delete webhook" })
      .click();
    await page.getByText("No webhooks yet.").waitFor();
    expect(errors).toEqual([]);
  });
});
