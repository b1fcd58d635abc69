/**
 * The billing panel in a browser: the demo's plan, price and next charge, auto-renew off and on
 * again (the demo is left as it was); then, on a site of our own made for this test, the trial
 * notice, a mistyped, a declined and an accepted test card, the trial upgrade, a prorated plan
 * change previewed and confirmed, the invoices, and the cancellation with its confirm dialog.
 * Screens are photographed on a laptop and on a phone.
 */
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, PHONE, described, screenshot, screenshotFromTop, browser, useBrowser } from "./browser.js";
import { demoOwnerLogIn, ownerCall, ownerLogIn } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

describe("the dashboard's billing panel", () => {
  it("shows the demo's plan and toggles auto-renew off and back on", async () => {
    const { page, context, errors, siteId: demo } = await demoOwnerLogIn(browser, base);
    await page.goto(`${base}/config/sites/${demo}/settings/billing`);
    await expect.poll(() => page.getByRole("heading", { name: /Commerce Advanced/ }).count()).toBe(1);
    expect(await page.getByTestId("plan-price").textContent()).toContain("$49.00");
    expect(await page.getByTestId("next-charge").textContent()).toMatch(/^\$49\.00 \+ \$0\.00 tax on /);
    await expect
      .poll(() => page.getByRole("link", { name: "Billing" }).getAttribute("aria-current"))
      .toBe("page");
    const renew = page.getByRole("checkbox", { name: /Auto-renew/ });
    expect(await renew.isChecked()).toBe(true);
    await renew.click();
    await expect.poll(() => renew.isChecked()).toBe(false);
    await expect
      .poll(() => page.getByTestId("next-charge").textContent())
      .toMatch(/^None: the plan ends on /);
    await expect.poll(() => renew.isEnabled()).toBe(true);
    await renew.click();
    await expect.poll(() => renew.isChecked()).toBe(true);
    await expect.poll(() => page.getByTestId("next-charge").textContent()).toMatch(/^\$49\.00/);
    const { results } = await ownerCall<{ results: { autoRenew: boolean }[] }>(
      page,
      "GET",
      `/api/owner/sites/${demo}/billing/subscriptions`,
    );
    expect(results[0]!.autoRenew).toBe(true);
    await screenshot(page, "dashboard-billing-demo");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("saves a card that asks for 3-D Secure after the owner's challenge, taxed by its billing country", async () => {
    const { page, context, errors } = await ownerLogIn(browser, base);
    const { site } = await ownerCall<{ site: { id: string } }>(page, "POST", "/api/owner/sites", {
      title: `Billing 3DS ${Date.now()}`,
      theme: "classic",
    });
    await page.goto(`${base}/config/sites/${site.id}/settings/billing/billing/upgrade`);
    await page.getByRole("button", { name: "Add card" }).click();
    await page.getByLabel("Card number").fill("4000 0025 0000 3155");
    await page.getByLabel("Security code (CVC)").fill("123");
    await page.getByLabel("Expiry month").fill("12");
    await page.getByLabel("Expiry year").fill("2031");
    await page.getByLabel("Billing country").selectOption("DE");
    await page.getByRole("button", { name: "Save card" }).click();
    // The owner fails the bank's challenge: nothing is saved, the bank's message shows.
    const challenge = page.getByRole("dialog", { name: "Confirm your card" });
    await challenge.getByRole("button", { name: "Fail authentication" }).click();
    await expect
      .poll(() => page.getByRole("alert").first().textContent())
      .toBe("The extra authentication of your card failed. Please try again or use another card.");
    await expect(page.getByTestId("saved-card").count()).resolves.toBe(0);
    // Then completes it: the card is kept, with its country.
    await page.getByRole("button", { name: "Save card" }).click();
    await screenshot(page, "dashboard-billing-3ds-challenge");
    await challenge.getByRole("button", { name: "Complete authentication" }).click();
    await expect
      .poll(() => page.getByTestId("saved-card").textContent())
      .toMatch(/•••• 3155 expires 12\/2031 · billed in Germany/);
    // German VAT on the plan: $16.00 + 19 %.
    await page.getByRole("button", { name: "Choose Personal" }).click();
    await expect.poll(() => page.getByTestId("preview-total").textContent()).toBe("$19.04");
    await page.getByRole("button", { name: "Confirm plan change" }).click();
    await page.waitForURL(/\/settings\/billing$/);
    await expect.poll(() => page.getByRole("heading", { name: /^Personal/ }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("upgrades a trial, changes the plan with a preview, lists the invoices and cancels", async () => {
    const { page, context, errors } = await ownerLogIn(browser, base);
    const { site } = await ownerCall<{ site: { id: string } }>(page, "POST", "/api/owner/sites", {
      title: `Billing Test ${Date.now()}`,
      theme: "classic",
    });
    const home = `${base}/config/sites/${site.id}/settings/billing`;
    await page.goto(home);
    await expect.poll(() => page.getByText(/Your free trial ends on/).count()).toBe(1);
    await page.getByRole("link", { name: "Upgrade", exact: true }).click();
    await page.waitForURL(/\/settings\/billing\/billing\/upgrade$/);
    await expect.poll(() => page.getByRole("heading", { name: "Upgrade your site" }).count()).toBe(1);

    // Payment info: a mistyped number is refused under its field before anything is sent, a
    // declined test card is refused, the 4242 card is saved and shown masked.
    const saves: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "PUT" && r.url().endsWith("/payment-info")) saves.push(r.url());
    });
    await page.getByRole("button", { name: "Add card" }).click();
    const cardField = page.getByLabel("Card number");
    await cardField.fill("4242 4242 4242 4241");
    await page.getByLabel("Security code (CVC)").fill("123");
    await page.getByLabel("Expiry month").fill("12");
    await page.getByLabel("Expiry year").fill("2031");
    await page.getByRole("button", { name: "Save card" }).click();
    await expect.poll(() => cardField.getAttribute("aria-invalid")).toBe("true");
    await expect(described(page, cardField)).resolves.toBe("Your card number is incorrect.");
    expect(saves).toEqual([]);
    await screenshotFromTop(page, "dashboard-billing-bad-number-desktop");
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(300); // the sidebar slides away
    await screenshotFromTop(page, "dashboard-billing-bad-number-phone");
    await page.setViewportSize(DESKTOP);
    await cardField.fill("4000 0000 0000 0002");
    await page.getByRole("button", { name: "Save card" }).click();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toBe("Your card was declined.");
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Save card" }).click();
    await expect
      .poll(() => page.getByTestId("saved-card").textContent())
      .toMatch(/•••• 4242 expires 12\/2031/);

    // The trial upgrade: a full period of Personal, charged to the saved card.
    await page.getByRole("button", { name: "Choose Personal" }).click();
    await expect.poll(() => page.getByTestId("preview-total").textContent()).toBe("$16.00");
    await screenshot(page, "dashboard-billing-upgrade");
    await page.getByRole("button", { name: "Confirm plan change" }).click();
    await page.waitForURL(/\/settings\/billing$/);
    await expect.poll(() => page.getByRole("heading", { name: /^Personal/ }).count()).toBe(1);
    await expect.poll(() => page.getByText("Active", { exact: true }).count()).toBe(1);
    const invoices = page.locator("section", { has: page.getByRole("heading", { name: "Invoices" }) });
    await expect
      .poll(() => invoices.getByRole("row").nth(1).textContent())
      .toMatch(/Personal plan.*Paid.*\$16\.00/);

    // A plan change: Business for the rest of the period, minus what is left of Personal.
    await page.getByRole("link", { name: "Change plan" }).click();
    await page.waitForURL(/\/settings\/billing\/billing\/website\/change-plan$/);
    await page.getByRole("button", { name: "Choose Business" }).click();
    await expect.poll(() => page.getByText("Unused time on Personal").count()).toBe(1);
    const total = await page.getByTestId("preview-total").textContent();
    expect(total).toMatch(/^\$1[67]\.\d\d$/);
    await page.getByRole("button", { name: "Confirm plan change" }).click();
    await page.waitForURL(/\/settings\/billing$/);
    await expect.poll(() => page.getByRole("heading", { name: /^Business/ }).count()).toBe(1);
    await expect
      .poll(() => invoices.getByRole("row").nth(1).textContent())
      .toContain(`Plan change: Personal → Business`);
    expect(await invoices.getByRole("row").nth(1).textContent()).toContain(total!);
    await screenshot(page, "dashboard-billing-desktop");

    // Phone layout.
    await page.setViewportSize(PHONE);
    await page.reload();
    await expect.poll(() => page.getByRole("heading", { name: /^Business/ }).count()).toBe(1);
    await screenshot(page, "dashboard-billing-phone");
    await page.setViewportSize(DESKTOP);

    // Cancel, through the confirm dialog.
    await page.getByRole("button", { name: "Cancel subscription" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel subscription?" });
    await expect.poll(() => dialog.textContent()).toMatch(/stays online until/);
    await screenshot(page, "dashboard-billing-cancel");
    await dialog.getByRole("button", { name: "Yes, cancel subscription" }).click();
    await expect.poll(() => page.getByText("Subscription cancelled.").count()).toBe(1);
    expect(
      await page.getByRole("status").filter({ hasText: "Subscription cancelled." }).textContent(),
    ).toMatch(/Your site stays online until .+, then it expires\./);
    await page.reload();
    await expect.poll(() => page.getByText("Cancelled", { exact: true }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
