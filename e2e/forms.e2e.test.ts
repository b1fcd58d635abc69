/**
 * The demo contact form in a browser: the SPEC's errors first (banners, 'Required' above the
 * field titles, the email message, the character counter), then a successful submission that
 * shows the form's submission text, and the owner API lists it.
 */
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { EVERY_FIELD } from "../apps/server/src/modules/forms/every-field.test-helper.js";
import {
  DESKTOP,
  DEVICES,
  PHONE,
  screenshotFromTop as screenshot,
  browser,
  useBrowser,
  visitorPage,
} from "./browser.js";
import { demoSiteId, ownerApiSession } from "./owner.js";

const base = inject("baseUrl");

useBrowser();

const BANNER_DOWN = "Your form has encountered a problem. Please scroll down to review.";
const BANNER_UP = "Your form has encountered a problem. Please scroll up to review.";
const EMAIL_MSG = "Email is not valid. Email addresses should follow the format user@domain.com.";
const THANKS = "Thank you for getting in touch! We will reply within two working days.";

/** The contact form island, once it has taken over the server-rendered fallback. */
async function contactForm(page: Page) {
  const form = page.getByRole("form", { name: "Contact" });
  // The page shows a disabled copy of the form until its island has started.
  await expect
    .poll(() => form.getByRole("button", { name: "Submit" }).isEnabled(), { timeout: 30_000 })
    .toBe(true);
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

/** An input by its whole label (a required field's label ends in " *"). */
function label(form: Locator, text: string) {
  return form.getByLabel(new RegExp(`^${text}( \\*)?$`));
}

describe("the demo contact form", () => {
  for (const [name, viewport] of DEVICES) {
    it(`shows the SPEC's errors, then the submission text, on ${name}`, async () => {
      const { page, errors } = await visitorPage(viewport);
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

  it("keeps what a visitor typed before the form's script started", async () => {
    const { page, errors } = await visitorPage(PHONE);
    // Hold the storefront script back, as a slow phone connection would.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/storefront-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${base}/contact`, { waitUntil: "commit" });
    const fallback = page.locator("form.form-fallback");
    await fallback.getByLabel("First name").fill("Ada");
    await fallback.getByLabel("Last name").fill("Byron");
    await fallback.getByLabel(/^Email/).fill("ada.early@example.com");
    await fallback.getByLabel("Phone").fill("(212) 555-0100");
    await fallback.getByLabel("Subject").selectOption("Wholesale");
    await fallback.getByLabel(/^Message/).fill("Typed before the script came");
    release();

    const form = await contactForm(page);
    await expect(form.getByLabel("First Name").inputValue()).resolves.toBe("Ada");
    await expect(form.getByLabel("Last Name").inputValue()).resolves.toBe("Byron");
    await expect(form.getByLabel("Email").inputValue()).resolves.toBe("ada.early@example.com");
    await expect(form.getByLabel("Area code").inputValue()).resolves.toBe("212");
    await expect(form.getByLabel("Prefix").inputValue()).resolves.toBe("555");
    await expect(form.getByLabel("Line").inputValue()).resolves.toBe("0100");
    await expect(form.getByLabel("Subject").inputValue()).resolves.toBe("Wholesale");
    await expect(form.getByLabel("Message").inputValue()).resolves.toBe("Typed before the script came");
    // The visitor was in the message: they still are, in the island's message field.
    await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe("TEXTAREA");
    await form.getByRole("button", { name: "Submit" }).click();
    await page.getByText(THANKS).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("lists the submissions in the owner API", async () => {
    const { context, page, login } = await ownerApiSession(browser, base);
    const api = context.request;
    expect(login.status()).toBe(200);
    const siteId = await demoSiteId(page);
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
    const { page } = await visitorPage(DESKTOP);
    await page.goto(`${base}/`);
    // Islands below the fold start as they come near the viewport, as a visitor scrolls.
    await page.locator(".block-newsletter .form-island").first().scrollIntoViewIfNeeded();
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

describe("a form with every field type", () => {
  let path = "";
  let formId = "";
  let siteId = "";

  beforeAll(async () => {
    const { context, page, headers } = await ownerApiSession(browser, base);
    const api = context.request;
    siteId = await demoSiteId(page);
    const created = await api.post(`${base}/api/owner/sites/${siteId}/forms`, {
      data: {
        name: "Workshop sign-up",
        fields: EVERY_FIELD,
        submissionMessage: "See you at the workshop!",
        submissionHtml: '<p class="bring">Bring an apron.</p>',
      },
      headers,
    });
    expect(created.status()).toBe(201);
    formId = (await created.json()).form.id;
    const pageRes = await api.post(`${base}/api/owner/sites/${siteId}/pages`, {
      data: { kind: "page", title: "Workshop sign-up" },
      headers,
    });
    const made = (await pageRes.json()).page;
    path = made.fullUrl;
    // Kept out of the navigation the other browser tests look at.
    await api.patch(`${base}/api/owner/sites/${siteId}/pages/${made.id}`, {
      data: { hiddenFromNav: true },
      headers,
    });
    const published = await api.post(`${base}/api/owner/sites/${siteId}/pages/${made.id}/publish`, {
      data: {
        layout: { rows: [{ columns: [{ span: 12, blocks: [{ id: "all-fields", type: "form", formId }] }] }] },
      },
      headers,
    });
    expect(published.status()).toBe(200);
    await context.close();
  });

  for (const [name, viewport] of DEVICES) {
    it(`renders all 19 field types, applies the rules and sends it, on ${name}`, async () => {
      const { page, errors } = await visitorPage(viewport);
      await page.goto(`${base}${path}`);
      const form = page.getByRole("form", { name: "Workshop sign-up" });
      // A disabled copy of the form shows until its island has started.
      await expect
        .poll(() => form.getByRole("button", { name: "Submit" }).isEnabled(), { timeout: 30_000 })
        .toBe(true);
      // Every field but the hidden one shows; the section is a heading, not a field.
      const shown = await page.evaluate(() =>
        [...document.querySelectorAll(".atelier-form .form-field")].map((f) =>
          [...f.classList].find((c) => c.startsWith("form-field-") && c !== "form-field-invalid"),
        ),
      );
      expect(shown).toEqual(
        EVERY_FIELD.filter((f) => f.type !== "hidden" && f.type !== "section").map(
          (f) => `form-field-${f.type}`,
        ),
      );
      await expect(form.getByRole("heading", { name: "About the workshop" }).isVisible()).resolves.toBe(true);
      await expect(form.locator('input[type="password"]').count()).resolves.toBe(1);
      await expect(form.getByText("0 / 20").isVisible()).resolves.toBe(true);
      for (const answer of ["Strongly Disagree", "Disagree", "Neutral", "Agree", "Strongly Agree"])
        await expect(form.getByLabel(answer, { exact: true }).count()).resolves.toBe(1);
      // Nothing is wider than the window.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `form-every-field-${name}`);

      await form.getByRole("button", { name: "Submit" }).click();
      await form.getByText(BANNER_DOWN).waitFor();
      await expect(form.getByText(BANNER_UP).isVisible()).resolves.toBe(true);
      for (const title of [
        "Nickname",
        "Your email",
        "Date",
        "Your name",
        "Phone number",
        "Level",
        "Topics",
        "Day",
      ])
        await expect(errorAbove(page, title), title).resolves.toBe("Required");
      for (const title of ["About you", "Guests", "Survey", "Address", "Time"])
        await expect(errorAbove(page, title), title).resolves.toBeNull();
      await screenshot(page, `form-every-field-required-${name}`);

      await label(form, "Nickname").fill("Ada");
      await label(form, "About you").fill("x".repeat(21));
      await expect(form.getByText("You have exceeded the character limit.").isVisible()).resolves.toBe(true);
      await label(form, "Your email").fill("ada@example");
      await label(form, "Budget").fill("$40");
      await label(form, "Guests").fill("3");
      await label(form, "Website").fill("example.com");
      await label(form, "Secret word").fill("swordfish");
      await label(form, "Twitter").fill("@ada");
      await label(form, "MM").fill("12");
      await label(form, "DD").fill("10");
      await label(form, "YYYY").fill("2025");
      await label(form, "Hour").fill("9");
      await label(form, "Minute").fill("30");
      await label(form, "First Name").fill("Ada");
      await label(form, "Last Name").fill("Lovelace");
      await label(form, "Address 1").fill("1 Main St");
      await label(form, "City").fill("Springfield");
      await label(form, "Area code").fill("212");
      await label(form, "Prefix").fill("555");
      await label(form, "Line").fill("0100");
      await form.getByRole("radio", { name: "Advanced" }).check();
      await form.getByRole("checkbox", { name: "Glaze" }).check();
      await label(form, "Day").selectOption("Sunday");
      await form.getByRole("radio", { name: "Strongly Agree", exact: true }).check();
      await form.getByRole("button", { name: "Submit" }).click();
      await form.getByText(EMAIL_MSG).waitFor();
      await expect(errorAbove(page, "About you")).resolves.toBe("You have exceeded the character limit.");
      await screenshot(page, `form-every-field-invalid-${name}`);

      await label(form, "Your email").fill(`ada.all.${name}@example.com`);
      await label(form, "About you").fill("Potter");
      // The async form while the submission travels: 'Saving…' on the button, 'Submitting…' beside it.
      let release = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      await page.route("**/api/form/SaveFormSubmission", async (route) => {
        await held;
        await route.continue();
      });
      await form.getByRole("button", { name: "Submit" }).click();
      const saving = form.getByRole("button", { name: "Saving…" });
      await saving.waitFor();
      await expect(saving.isDisabled()).resolves.toBe(true);
      await expect(form.getByText("Submitting…").isVisible()).resolves.toBe(true);
      release();
      await page.getByText("See you at the workshop!").waitFor();
      await expect(page.locator(".form-submission-html p.bring").textContent()).resolves.toBe(
        "Bring an apron.",
      );
      await expect(page.getByRole("form", { name: "Workshop sign-up" }).count()).resolves.toBe(0);
      await screenshot(page, `form-every-field-sent-${name}`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it("stores the summary of every field type", async () => {
    const { context } = await ownerApiSession(browser, base);
    const list = await (
      await context.request.get(
        `${base}/api/owner/sites/${siteId}/forms/${formId}/submissions?q=ada.all.desktop@example.com`,
      )
    ).json();
    expect(list.total).toBe(1);
    expect(
      Object.fromEntries(
        list.submissions[0].summary.map((l: { title: string; value: string }) => [l.title, l.value]),
      ),
    ).toEqual({
      Nickname: "Ada",
      "About you": "Potter",
      "Your email": "ada.all.desktop@example.com",
      Budget: "$40",
      Guests: "3",
      Website: "example.com",
      "Secret word": "••••••••",
      Twitter: "@ada",
      Date: "12/10/2025",
      Time: "9:30:00 AM",
      "Your name": "Ada Lovelace",
      Address: "1 Main St\nSpringfield",
      "Phone number": "212-555-0100",
      Level: "Advanced",
      Topics: "Glaze",
      Day: "Sunday",
      Survey: "I like clay: Strongly Agree",
      Campaign: "spring",
    });
    await context.close();
  });

  it("goes to the form's success redirect when it has one", async () => {
    const { context, headers } = await ownerApiSession(browser, base);
    const changed = await context.request.patch(`${base}/api/owner/sites/${siteId}/forms/${formId}`, {
      data: { fields: [EVERY_FIELD[0]], successRedirect: "/shop" },
      headers,
    });
    expect(changed.status()).toBe(200);
    await context.close();

    const { page: visitor } = await visitorPage(DESKTOP);
    await visitor.goto(`${base}${path}`);
    const form = visitor.getByRole("form", { name: "Workshop sign-up" });
    await label(form, "Nickname").fill("Grace");
    await form.getByRole("button", { name: "Submit" }).click();
    await visitor.waitForURL(`${base}/shop`);
    await visitor.close();
  });
});
