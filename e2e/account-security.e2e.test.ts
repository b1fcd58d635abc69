/**
 * Account security in the dashboard: a new owner (signed up in the test, so the demo owner and the
 * other browser tests are untouched) turns on two-step verification from the Account screen with
 * a code computed here (otplib), keeps the recovery codes, and signs in again with a code.
 */
import { generate } from "otplib";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { PHONE, browser, ownAddress, screenshot, useBrowser } from "./browser.js";

const base = inject("baseUrl");
const WIDE = { width: 1440, height: 900 };
useBrowser();

const email = `two-step-${Date.now()}@example.com`;
const password = "a long enough password";
/** A recovery code kept from the first test, to sign in on the phone. */
let recoveryCode = "";

/** A code of the secret for the time step after this one: the server accepts a step either side, and never a step already used. */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

async function logInForm(page: Page) {
  await page.goto(`${base}/config/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

describe("two-step verification in the dashboard", () => {
  it("is turned on from the Account screen, then asked for at sign-in", async () => {
    const context = await browser.newContext({ viewport: WIDE, extraHTTPHeaders: ownAddress() });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await page.goto(`${base}/config/login`);
    await page.getByRole("button", { name: "Create an account" }).click();
    await page.getByLabel("Your name").fill("Two Step");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Your sites", exact: true }).waitFor();

    await page.getByRole("link", { name: "Account", exact: true }).click();
    await page.getByRole("heading", { name: "Account", exact: true }).waitFor();
    await page.getByRole("cell", { name: /This device/ }).waitFor();
    await screenshot(page, "account-desktop");

    await page.getByRole("button", { name: "Set up two-step verification" }).click();
    await page.getByRole("img", { name: "QR code of the two-step verification secret" }).waitFor();
    const secret = await page.getByLabel("Or type this secret in the app").inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, "account-two-factor-setup-desktop");

    // A wrong code is refused and the setup stays open.
    await page.getByLabel("Code from the app").fill("000000");
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByRole("alert").getByText("That code is not right.", { exact: false }).waitFor();

    await page.getByLabel("Code from the app").fill(await generate({ secret }));
    await page.getByRole("button", { name: "Turn on" }).click();
    const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await expect.poll(() => codes.count()).toBe(10);
    recoveryCode = (await codes.first().textContent())!.trim();
    await screenshot(page, "account-recovery-codes-desktop");
    await page.getByRole("button", { name: "I have saved my recovery codes" }).click();
    await page.getByText("Two-step verification is on. 10 recovery codes left.").waitFor();

    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(/\/config\/login/);

    // The password alone is not enough now: the screen asks for the code.
    await logInForm(page);
    const codeField = page.getByLabel("Verification code");
    await codeField.waitFor();
    await page.getByText("Two-step verification is on for this account.", { exact: false }).waitFor();
    await codeField.fill("123456");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("alert").getByText("That code is not right.", { exact: false }).waitFor();
    await codeField.fill(await nextCode(secret));
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("heading", { name: "Your sites", exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("signs in on a phone with a recovery code; the Account screen and the reset pages fit a phone", async () => {
    const context = await browser.newContext({ viewport: PHONE, extraHTTPHeaders: ownAddress() });
    const page = await context.newPage();
    await logInForm(page);
    await page.getByLabel("Verification code").waitFor();
    await screenshot(page, "login-code-phone");
    await page.getByLabel("Verification code").fill(recoveryCode);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("heading", { name: "Your sites", exact: true }).waitFor();
    await page.goto(`${base}/config/account`);
    await page.getByRole("heading", { name: "Account", exact: true }).waitFor();
    await page.getByText("Two-step verification is on. 9 recovery codes left.").waitFor();
    await page.getByRole("cell", { name: /This device/ }).waitFor();
    await screenshot(page, "account-phone");
    await page.goto(`${base}/config/forgot-password`);
    await page.getByRole("heading", { name: "Reset your password" }).waitFor();
    await screenshot(page, "forgot-password-phone");
    await page.goto(`${base}/config/login`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByText("If an account uses this address", { exact: false }).waitFor();

    // The page the emailed link opens refuses a link that is not (or no longer) good.
    await page.goto(`${base}/config/reset-password?token=not-a-real-token`);
    await page.getByLabel("New password", { exact: true }).fill("a brand new password");
    await page.getByLabel("New password again").fill("a brand new password");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await page
      .getByRole("alert")
      .getByText("This password reset link does not work", { exact: false })
      .waitFor();
    await screenshot(page, "reset-password-phone");
    await context.close();
  });
});
