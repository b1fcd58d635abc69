/**
 * The dashboard's form editor in a browser: create a form with a few field types (a required
 * email, a dropdown with options), see the server's message next to the dropdown's options when
 * it has none, save, reorder, put the form on a page and find the new fields in the published
 * form; a form in use cannot be deleted. Screens are photographed on a laptop and on a phone.
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, PHONE, described, screenshot, browser, useBrowser } from "./browser.js";
import { demoOwnerLogIn, ownerCall } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

interface FormJson {
  id: string;
  name: string;
  fields: { id: string; type: string; title: string; required?: boolean; options?: string[] }[];
  notifyEmail: string | null;
  successRedirect: string | null;
}

/** The editor's item of the field labelled `title` (its header reads the label). */
function fieldItem(page: Page, title: string): Locator {
  return page.locator("li.ff-item").filter({ has: page.getByRole("button", { name: `Close ${title}` }) });
}

describe("the dashboard's form editor", () => {
  it("creates a form, shows the server's messages by the right input, and the published form has the fields", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await page.goto(`${base}/config/sites/${siteId}`);
    await page.getByRole("navigation").getByRole("link", { name: "Forms", exact: true }).click();
    await page.getByRole("heading", { name: "Forms", exact: true }).waitFor();
    // The demo's contact form is listed with its field and submission counts.
    const contactRow = page.locator("tbody tr").filter({ hasText: "Contact" });
    await contactRow.getByRole("link", { name: "Contact", exact: true }).waitFor();
    await expect(
      contactRow.getByRole("link", { name: /submissions of Contact/ }).getAttribute("href"),
    ).resolves.toMatch(new RegExp(`/config/sites/${siteId}/ops/forms/[a-f0-9]{24}$`));
    await screenshot(page, "dashboard-forms-list-desktop");

    await page.getByRole("link", { name: "Create form" }).click();
    await page.getByRole("heading", { name: "New form" }).waitFor();
    await page.getByLabel("Form name").fill("Class booking");
    // A new form starts with the contact fields, open for editing: keep Name and Email.
    await page.getByRole("button", { name: "Remove Subject" }).click();
    await page.getByRole("button", { name: "Remove Message" }).click();
    const email = fieldItem(page, "Email");
    await expect(email.getByLabel("Required").isChecked()).resolves.toBe(true);
    await email.getByLabel("Placeholder").fill("you@example.com");

    // A dropdown without options: the server's message appears next to its options.
    await page.getByLabel("New field type").selectOption("select");
    await page.getByRole("button", { name: "Add field" }).click();
    await page.locator("li.ff-item").last().getByLabel("Label").fill("Class");
    const dropdown = fieldItem(page, "Class");
    await dropdown.getByLabel("Description").fill("Pick the class you want to join.");
    await page.getByLabel("New field type").selectOption("textarea");
    await page.getByRole("button", { name: "Add field" }).click();
    await page.locator("li.ff-item").last().getByLabel("Label").fill("Anything we should know?");
    const notes = fieldItem(page, "Anything we should know?");
    await notes.getByLabel("Character limit").fill("300");
    await page.getByLabel("Notify email").fill("not-an-address");
    await page.getByRole("button", { name: "Create form" }).click();
    await page.getByRole("alert").filter({ hasText: "Please correct the form's settings." }).waitFor();
    const options = dropdown.getByLabel("Options");
    await expect(options.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(described(page, options)).resolves.toBe("Give this field at least one option.");
    await expect(described(page, page.getByLabel("Notify email"))).resolves.toBe(
      "Email is not valid. Email addresses should follow the format user@domain.com.",
    );
    expect(page.url()).toMatch(/\/forms\/new$/);
    await screenshot(page, "dashboard-form-editor-errors-desktop");

    await options.fill("Wheel throwing\nHand building\n");
    await page.getByLabel("Notify email").fill("classes@example.com");
    await page.getByLabel("Success redirect").fill("/thank-you");
    await page.getByLabel("Success redirect").fill("");
    await page.getByLabel("Submission message").fill("See you in the studio!");
    await page.getByRole("button", { name: "Create form" }).click();
    await page.getByText("Form saved.").waitFor();
    await page.waitForURL(/\/forms\/[a-f0-9]{24}\?saved=1$/);
    const formId = /\/forms\/([a-f0-9]{24})/.exec(page.url())![1]!;

    // Reorder: the dropdown moves above the email field, and that is saved too.
    await page.getByRole("button", { name: "Edit Class" }).click();
    await page.getByRole("button", { name: "Move Class up" }).click();
    await page.getByRole("button", { name: "Save form" }).click();
    await page.getByText("Form saved.").waitFor();
    const { forms } = await ownerCall<{ forms: FormJson[] }>(page, "GET", `/api/owner/sites/${siteId}/forms`);
    const saved = forms.find((f) => f.id === formId)!;
    expect(saved).toMatchObject({
      name: "Class booking",
      notifyEmail: "classes@example.com",
      successRedirect: null,
    });
    expect(saved.fields.map((f) => [f.type, f.title])).toEqual([
      ["name", "Name"],
      ["select", "Class"],
      ["email", "Email"],
      ["textarea", "Anything we should know?"],
    ]);
    expect(saved.fields[1]!.options).toEqual(["Wheel throwing", "Hand building"]);
    expect(saved.fields[2]!.required).toBe(true);
    await screenshot(page, "dashboard-form-editor-desktop");

    // The list shows the new form: 4 fields, no submissions yet.
    await page.getByRole("link", { name: "All forms" }).click();
    const row = page.locator("tbody tr").filter({ hasText: "Class booking" });
    await expect.poll(() => row.locator("td.num").allTextContents()).toEqual(["4", "0"]);

    // On a page: the published form shows the new fields.
    const { page: created } = await ownerCall<{ page: { id: string; fullUrl: string } }>(
      page,
      "POST",
      `/api/owner/sites/${siteId}/pages`,
      { kind: "page", title: "Book a Class" },
    );
    await ownerCall(page, "POST", `/api/owner/sites/${siteId}/pages/${created.id}/publish`, {
      layout: {
        rows: [{ columns: [{ span: 12, blocks: [{ id: "booking", type: "form", formId, title: "Book" }] }] }],
      },
    });
    // The page editor's form block links to the form's editor (and to "Create a form" without one).
    await page.goto(`${base}/config/sites/${siteId}/pages/${created.id}/edit`);
    await page.locator('[data-overlay-for="booking"]').click();
    const formLink = page.getByRole("link", { name: "Edit this form's fields" });
    await expect(formLink.getAttribute("href")).resolves.toBe(`/config/sites/${siteId}/forms/${formId}`);
    await page.getByLabel("Form", { exact: true }).selectOption("");
    await expect(page.getByRole("link", { name: "Create a form" }).getAttribute("href")).resolves.toBe(
      `/config/sites/${siteId}/forms/new`,
    );
    await page.goto(`${base}/config/sites/${siteId}/forms`);

    const visitor = await browser.newContext({ viewport: DESKTOP });
    const site = await visitor.newPage();
    await site.goto(`${base}${created.fullUrl}`);
    const published = site.getByRole("form", { name: "Class booking" });
    // A disabled copy of the form shows until its island has started.
    await expect
      .poll(() => published.getByRole("button", { name: "Submit" }).isEnabled(), { timeout: 30_000 })
      .toBe(true);
    const select = published.getByLabel(/^Class/);
    await expect(select.locator("option").allTextContents()).resolves.toEqual(
      expect.arrayContaining(["Wheel throwing", "Hand building"]),
    );
    await expect(published.getByText("Pick the class you want to join.").isVisible()).resolves.toBe(true);
    await expect(published.getByLabel(/^Email/).getAttribute("placeholder")).resolves.toBe("you@example.com");
    await expect(published.getByLabel(/^Anything we should know\?/).isVisible()).resolves.toBe(true);
    await expect(published.getByLabel(/^Subject/).count()).resolves.toBe(0);
    // Required email: submitting empty answers says so.
    await published.getByRole("button", { name: "Submit" }).click();
    await published.getByText("Required").first().waitFor();
    await visitor.close();

    // A form in use cannot be deleted; the dialog says where it is used.
    await page.getByRole("link", { name: "Class booking", exact: true }).click();
    await page.getByRole("button", { name: "Delete form" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Class booking?" });
    await dialog.getByRole("button", { name: "Delete form" }).click();
    await dialog
      .getByRole("alert")
      .filter({ hasText: 'This form is used on the page "Book a Class".' })
      .waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("deletes an unused form, and looks finished on a phone", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base, PHONE);
    const { form } = await ownerCall<{ form: FormJson }>(page, "POST", `/api/owner/sites/${siteId}/forms`, {
      name: "Workshop survey",
      fields: [
        { id: "level", type: "radio", title: "Your level", options: ["New", "Some", "Lots"], required: true },
        { id: "about", type: "section", title: "About the workshop" },
        { id: "rating", type: "likert", title: "How was it?", questions: ["The pace was right"] },
        { id: "source", type: "hidden", title: "Source", value: "flyer" },
      ],
    });
    await page.goto(`${base}/config/sites/${siteId}/forms`);
    await page.getByRole("heading", { name: "Forms", exact: true }).waitFor();
    await screenshot(page, "dashboard-forms-list-phone");
    await page.getByRole("link", { name: "Workshop survey", exact: true }).click();
    await page.getByRole("heading", { name: "Workshop survey" }).waitFor();
    await page.getByRole("button", { name: "Edit Your level" }).click();
    await page.getByRole("button", { name: "Edit How was it?" }).click();
    // Survey fields are never required; their statements are edited as lines.
    const survey = fieldItem(page, "How was it?");
    await expect(survey.getByLabel("Required").count()).resolves.toBe(0);
    await expect(survey.getByLabel("Statements to rate").inputValue()).resolves.toBe("The pace was right");
    // Nothing is wider than the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "dashboard-form-editor-phone");

    await page.getByRole("button", { name: "Delete form" }).click();
    await page
      .getByRole("dialog", { name: "Delete Workshop survey?" })
      .getByRole("button", { name: "Delete form" })
      .click();
    await page.getByText("The form “Workshop survey” was moved to the trash.").waitFor();
    // The list refetches after the notice: wait for the row to go.
    await expect.poll(() => page.getByRole("link", { name: "Workshop survey", exact: true }).count()).toBe(0);
    const { forms } = await ownerCall<{ forms: FormJson[] }>(page, "GET", `/api/owner/sites/${siteId}/forms`);
    expect(forms.some((f) => f.id === form.id)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
