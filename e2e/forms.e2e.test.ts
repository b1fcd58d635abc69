/**
 * The demo contact form in a browser: the SPEC's errors first (banners, 'Required' above the
 * field titles, the email message, the character counter), then a successful submission that
 * shows the form's submission text, and the owner API lists it.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DESKTOP, PHONE, launch, screenshot as fullPage } from "./browser.js";

const base = inject("baseUrl");

/** A full-page screenshot from the top (a sticky header would otherwise land mid-page). */
async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  return fullPage(page, name);
}
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const BANNER_DOWN = "Your form has encountered a problem. Please scroll down to review.";
const BANNER_UP = "Your form has encountered a problem. Please scroll up to review.";
const EMAIL_MSG = "Email is not valid. Email addresses should follow the format user@domain.com.";
const THANKS = "Thank you for getting in touch! We will reply within two working days.";

/** The contact form island, once it has taken over the server-rendered fallback. */
async function contactForm(page: Page) {
  const form = page.getByRole("form", { name: "Contact" });
  await form.getByRole("button", { name: "Submit" }).waitFor();
  await expect(form.getByRole("button", { name: "Submit" }).isEnabled()).resolves.toBe(true);
  return form;
}

/** The text of the field's error, which sits above its title. */
async function errorAbove(page: Page, fieldTitle: string): Promise<string | null> {
  return page.evaluate((title) => {
    const fields = [...document.querySelectorAll(".atelier-form .form-field")];
    const field = fields.find(
      (f) => f.querySelector(".form-field-title")?.textContent?.replace("*", "").trim() === title,
    );
    const error = field?.querySelector(".form-field-error");
    const heading = field?.querySelector(".form-field-title");
    if (!error || !heading) return null;
    // The error comes before the title in the document.
    return error.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING
      ? error.textContent
      : "below";
  }, fieldTitle);
}

describe("the demo contact form", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`shows the SPEC's errors, then the submission text, on ${name}`, async () => {
      const page = await browser.newPage({ viewport });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${base}/contact`);
      const form = await contactForm(page);
      await screenshot(page, `form-contact-${name}`);

      // Nothing filled in: the banners and 'Required' above Email and Message.
      await form.getByRole("button", { name: "Submit" }).click();
      await form.getByText(BANNER_DOWN).waitFor();
      await expect(form.getByText(BANNER_UP).isVisible()).resolves.toBe(true);
      await expect(errorAbove(page, "Email")).resolves.toBe("Required");
      await expect(errorAbove(page, "Message")).resolves.toBe("Required");
      await expect(errorAbove(page, "Name")).resolves.toBeNull();
      // The first invalid field has the focus.
      await expect(page.evaluate(() => document.activeElement?.getAttribute("type"))).resolves.toBe("email");
      await screenshot(page, `form-contact-required-${name}`);

      // A bad address and a message over the limit.
      await form.getByLabel("Email").fill("ada@example");
      await form.getByLabel("Message").fill("x".repeat(2001));
      await expect(form.getByText("2001 / 2000").isVisible()).resolves.toBe(true);
      await expect(form.locator(".form-counter-exceeded").count()).resolves.toBe(1);
      // The field had an error, so it is checked again as the visitor types.
      await expect(errorAbove(page, "Message")).resolves.toBe("You have exceeded the character limit.");
      await form.getByRole("button", { name: "Submit" }).click();
      await form.getByText(EMAIL_MSG).waitFor();
      await expect(errorAbove(page, "Message")).resolves.toBe("You have exceeded the character limit.");
      await screenshot(page, `form-contact-invalid-${name}`);

      // Corrected: the form is replaced by its submission text.
      await form.getByLabel("First Name").fill("Ada");
      await form.getByLabel("Last Name").fill("Lovelace");
      await form.getByLabel("Email").fill(`ada.${name}@example.com`);
      await form.getByLabel("Area code").fill("212");
      await form.getByLabel("Prefix").fill("555");
      await form.getByLabel("Line").fill("0100");
      await form.getByLabel("Subject").selectOption("Wholesale");
      await form.getByLabel("Message").fill(`Do you sell to shops? (${name})`);
      await expect(form.getByText(BANNER_DOWN).count()).resolves.toBe(0);
      await form.getByRole("button", { name: "Submit" }).click();
      await page.getByText(THANKS).waitFor();
      await expect(page.getByRole("form", { name: "Contact" }).count()).resolves.toBe(0);
      await screenshot(page, `form-contact-sent-${name}`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it("lists the submissions in the owner API", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/`);
    const crumb = (await context.cookies()).find((c) => c.name === "crumb")!.value;
    const api = context.request;
    const login = await api.post(`${base}/api/owner/session`, {
      data: { email: "owner@atelier.test", password: "atelier-demo" },
      headers: { "x-csrf-token": crumb },
    });
    expect(login.status()).toBe(200);
    const me = await (await api.get(`${base}/api/owner/account`)).json();
    // Other browser tests create sites of their own: find the demo by its name.
    const siteId = me.websites.find((w: { title: string }) => w.title === "Atelier Demo").id;
    const forms = await (await api.get(`${base}/api/owner/sites/${siteId}/forms`)).json();
    const contact = forms.forms.find((f: { name: string }) => f.name === "Contact");
    const list = await (
      await api.get(
        `${base}/api/owner/sites/${siteId}/forms/${contact.id}/submissions?q=ada.desktop@example.com`,
      )
    ).json();
    expect(list.total).toBe(1);
    expect(list.submissions[0].summary).toEqual([
      { title: "Name", value: "Ada Lovelace" },
      { title: "Email", value: "ada.desktop@example.com" },
      { title: "Phone", value: "212-555-0100" },
      { title: "Subject", value: "Wholesale" },
      { title: "Message", value: "Do you sell to shops? (desktop)" },
    ]);
    expect(list.submissions[0].pagePath).toBe("/contact");
    const csv = await api.get(`${base}/api/owner/sites/${siteId}/forms/${contact.id}/submissions.csv`);
    expect(await csv.text()).toContain("ada.phone@example.com");
    await context.close();
  });

  it("signs a visitor up for the newsletter", async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${base}/`);
    const form = page.locator(".atelier-form-newsletter").first();
    await form.getByRole("button", { name: "Sign up" }).waitFor();
    await expect(form.getByText("Email Address").isVisible()).resolves.toBe(true);
    await form.getByLabel("Email Address").fill("reader@example.com");
    await form.getByRole("button", { name: "Sign up" }).click();
    await page.getByText("You are on the list. Thank you for signing up!").first().waitFor();
    await screenshot(page, "form-newsletter-desktop");
    await page.close();
  });
});
