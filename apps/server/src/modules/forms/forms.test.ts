import {
  MSG_CAPTCHA_INCOMPLETE,
  MSG_CAPTCHA_NOT_SET_UP,
  MSG_FORM_INVALID,
  MSG_PARSE_ERROR,
  MSG_STATUS_401,
  MSG_STATUS_404,
  MSG_STATUS_429,
  MSG_STATUS_500,
} from "@atelier/forms";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp } from "../../../test/harness.js";
import { buildApp } from "../../app.js";
import { RecordType } from "../../db/enums.js";
import * as s from "../../db/schema.js";
import { CRUMB_EXPIRED } from "../../http/crumb.js";
import { TEST_CAPTCHA_PASS } from "../captcha/service.js";
import { addToMailingList, csvCell, SUBMISSION_KEY_TTL_MS, SUBMIT_LIMIT } from "./service.js";

const EMAIL_MSG = "Email is not valid. Email addresses should follow the format user@domain.com.";
const clock = { offset: 0, now: () => new Date(Date.now() + clock.offset) };

let t: TestApp;
let websiteId: string;
let contactId: string;
let newsletterId: string;
let ipCounter = 0;

beforeAll(async () => {
  t = await createTestApp({ seed: true, clock });
  const db = t.database.db;
  const [site] = await db.select().from(s.websites);
  websiteId = site!.id;
  const forms = await db.select().from(s.forms).where(eq(s.forms.websiteId, websiteId));
  contactId = forms.find((f) => f.name === "Contact")!.id;
  newsletterId = forms.find((f) => f.name === "Newsletter")!.id;
});
afterAll(() => t.close());

/** A visitor from their own address, so each test has its own rate-limit counters. */
async function visitor(): Promise<Browser & { ip: string }> {
  const b = new Browser(t.app) as Browser & { ip: string };
  b.ip = `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  const request = b.request.bind(b);
  b.request = (opts) =>
    request({ ...opts, headers: { "x-forwarded-for": b.ip, ...(opts.headers as Record<string, string>) } });
  await b.visit("/contact");
  return b;
}

async function key(b: Browser): Promise<string> {
  const res = await b.request({ method: "POST", url: "/api/form/FormSubmissionKey" });
  expect(res.statusCode).toBe(200);
  return res.json().key;
}

const goodContact = {
  name: ["Ada", "Lovelace"],
  email: "ada@example.com",
  phone: ["212", "555", "0100"],
  subject: "Wholesale",
  message: "Do you sell to shops?",
};

function save(b: Browser, payload: Record<string, unknown>) {
  return b.request({ method: "POST", url: "/api/form/SaveFormSubmission", payload });
}

async function submissions(formId = contactId) {
  return t.database.db.select().from(s.formSubmissions).where(eq(s.formSubmissions.formId, formId));
}

describe("GET /api/template/GetTemplateSchema", () => {
  it("answers the form template of form and newsletter blocks, by name or number", async () => {
    const b = await visitor();
    const form = await b.request({ url: "/api/template/GetTemplateSchema?type=form" });
    expect(form.statusCode).toBe(200);
    expect(form.json().blockType).toBe(9);
    expect(form.json().fieldTypes).toHaveLength(19);
    expect(form.json().fieldTypes.find((f: { type: string }) => f.type === "name").parts).toHaveLength(2);
    const news = await b.request({ url: "/api/template/GetTemplateSchema?type=51" });
    expect(news.json().type).toBe("newsletter");
    expect(news.json().defaults.fields[0]).toMatchObject({ type: "email", required: true });
  });

  it("refuses unknown and missing types", async () => {
    const b = await visitor();
    expect((await b.request({ url: "/api/template/GetTemplateSchema?type=gallery" })).statusCode).toBe(404);
    const missing = await b.request({ url: "/api/template/GetTemplateSchema" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe("invalid_request");
  });
});

describe("POST /api/rest/forms/validate/{formId}", () => {
  it("answers 400 with errors keyed by field id and the SPEC's messages", async () => {
    const b = await visitor();
    const res = await b.request({
      method: "POST",
      url: `/api/rest/forms/validate/${contactId}`,
      payload: { email: "not an email", message: "", subject: "Nope" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: "invalid_fields",
      message: MSG_FORM_INVALID,
      fields: { email: EMAIL_MSG, message: "Required", subject: "Please choose one of the options." },
    });
  });

  it("says 'You have exceeded the character limit.' above the textarea's limit", async () => {
    const b = await visitor();
    const res = await b.request({
      method: "POST",
      url: `/api/rest/forms/validate/${contactId}`,
      payload: { ...goodContact, message: "x".repeat(2001) },
    });
    expect(res.json().error.fields).toEqual({ message: "You have exceeded the character limit." });
  });

  it("accepts good answers, refuses unknown forms and non-objects", async () => {
    const b = await visitor();
    const ok = await b.request({
      method: "POST",
      url: `/api/rest/forms/validate/${contactId}`,
      payload: goodContact,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ valid: true });
    const unknown = await b.request({ method: "POST", url: "/api/rest/forms/validate/nope", payload: {} });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(MSG_STATUS_404);
    const list = await b.request({
      method: "POST",
      url: `/api/rest/forms/validate/${contactId}`,
      payload: "[1,2]",
      headers: { "content-type": "application/json" },
    });
    expect(list.statusCode).toBe(400);
  });
});

describe("submission keys and SaveFormSubmission", () => {
  it("gives a key for an empty body, even one labelled JSON", async () => {
    const b = await visitor();
    for (const headers of [{}, { "content-type": "application/json" }]) {
      const res = await b.request({ method: "POST", url: "/api/form/FormSubmissionKey", headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().key).toMatch(/^[\w-]{32}$/);
    }
    const junk = await b.request({
      method: "POST",
      url: "/api/form/FormSubmissionKey",
      headers: { "content-type": "application/json" },
      payload: "{nope",
    });
    expect(junk.statusCode).toBe(400);
    expect(junk.json().error.code).toBe("invalid_json");
  });

  it("needs the crumb for keys and submissions", async () => {
    const b = await visitor();
    const res = await b.request({ method: "POST", url: "/api/form/FormSubmissionKey", withCrumb: false });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ crumbFail: true, error: { message: CRUMB_EXPIRED } });
    const sent = await b.request({
      method: "POST",
      url: "/api/form/SaveFormSubmission",
      withCrumb: false,
      payload: { key: "x", formId: contactId, form: "{}" },
    });
    expect(sent.statusCode).toBe(403);
  });

  it("stores a submission with its summary, queues the owner's email, and refuses the key a second time", async () => {
    const b = await visitor();
    const before = (await submissions()).length;
    const k = await key(b);
    const payload = { key: k, formId: contactId, form: JSON.stringify(goodContact), pagePath: "/contact" };
    const res = await save(b, payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      redirect: null,
      submissionMessage: "Thank you for getting in touch! We will reply within two working days.",
    });
    const rows = await submissions();
    expect(rows).toHaveLength(before + 1);
    const row = rows.find((r) => r.id === res.json().submissionId)!;
    expect(row.pagePath).toBe("/contact");
    expect(row.values.phone).toEqual(["", "212", "555", "0100"]);
    expect(row.summary).toEqual([
      { title: "Name", value: "Ada Lovelace" },
      { title: "Email", value: "ada@example.com" },
      { title: "Phone", value: "212-555-0100" },
      { title: "Subject", value: "Wholesale" },
      { title: "Message", value: "Do you sell to shops?" },
    ]);

    const again = await save(b, payload);
    expect(again.statusCode).toBe(401);
    expect(again.json().error.message).toBe(MSG_STATUS_401);
    expect(await submissions()).toHaveLength(before + 1);

    const [email] = await t.database.db
      .select()
      .from(s.outboundEmails)
      .where(eq(s.outboundEmails.subject, "Form Submission - Contact"));
    expect(email).toMatchObject({ toAddress: "owner@atelier.test", status: "kept", websiteId });
    expect(email!.textBody).toContain("Name:\nAda Lovelace");
    expect(email!.htmlBody).toContain("<th");
  });

  it("answers the form's success redirect when it has one", async () => {
    await t.database.db
      .update(s.forms)
      .set({ successRedirect: "/thank-you" })
      .where(eq(s.forms.id, contactId));
    try {
      const b = await visitor();
      const res = await save(b, { key: await key(b), formId: contactId, form: JSON.stringify(goodContact) });
      expect(res.statusCode).toBe(200);
      expect(res.json().redirect).toBe("/thank-you");
    } finally {
      await t.database.db.update(s.forms).set({ successRedirect: null }).where(eq(s.forms.id, contactId));
    }
  });

  it("shows 'N/A' for answers with no text", async () => {
    const b = await visitor();
    const res = await save(b, {
      key: await key(b),
      formId: contactId,
      form: JSON.stringify({ email: "grace@example.com", message: "Hi" }),
    });
    expect(res.statusCode).toBe(200);
    const row = (await submissions()).find((r) => r.id === res.json().submissionId)!;
    expect(row.summary.map((l) => l.value)).toEqual(["N/A", "grace@example.com", "N/A", "N/A", "Hi"]);
  });

  it("refuses forged, expired and other sites' keys, storing nothing", async () => {
    const b = await visitor();
    const before = (await submissions()).length;
    const forged = await save(b, {
      key: "forged-key-forged-key",
      formId: contactId,
      form: JSON.stringify(goodContact),
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.message).toBe(MSG_STATUS_401);

    const k = await key(b);
    clock.offset = SUBMISSION_KEY_TTL_MS + 1000;
    try {
      const expired = await save(b, { key: k, formId: contactId, form: JSON.stringify(goodContact) });
      expect(expired.statusCode).toBe(401);
    } finally {
      clock.offset = 0;
    }

    // A key is bound to the site that issued it.
    const otherSite = "b".repeat(24);
    await t.database.db.insert(s.websites).values({
      id: otherSite,
      identifier: "other",
      title: "Other",
      websiteType: 1,
      siteStatus: 8,
      billingStatus: 3,
      theme: "classic",
    });
    await t.database.db.insert(s.websiteSettings).values({ websiteId: otherSite });
    await t.database.db.insert(s.storeSettings).values({ websiteId: otherSite });
    const elsewhere = new Browser(t.app, "other.localhost");
    await elsewhere.visit("/");
    const otherKey = await key(elsewhere);
    const crossed = await save(b, { key: otherKey, formId: contactId, form: JSON.stringify(goodContact) });
    expect(crossed.statusCode).toBe(401);
    // And a form is found only on its own site.
    const foreignForm = await save(elsewhere, {
      key: otherKey,
      formId: contactId,
      form: JSON.stringify(goodContact),
    });
    expect(foreignForm.statusCode).toBe(404);
    expect(foreignForm.json().error.message).toBe(MSG_STATUS_404);
    expect(await submissions()).toHaveLength(before);
  });

  it("answers 400 with field errors, keeping the key for the corrected answers", async () => {
    const b = await visitor();
    const k = await key(b);
    const bad = await save(b, { key: k, formId: contactId, form: JSON.stringify({ email: "nope" }) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toEqual({
      code: "invalid_fields",
      message: MSG_FORM_INVALID,
      fields: { email: EMAIL_MSG, message: "Required" },
    });
    const fixed = await save(b, { key: k, formId: contactId, form: JSON.stringify(goodContact) });
    expect(fixed.statusCode).toBe(200);
  });

  it("answers 'Could not parse the form fields…' for a form that is not a JSON object", async () => {
    const b = await visitor();
    for (const form of ["{not json", "[1,2]", "null", '"text"']) {
      const res = await save(b, { key: await key(b), formId: contactId, form });
      expect(res.statusCode, form).toBe(400);
      expect(res.json().error.message).toBe(MSG_PARSE_ERROR);
    }
  });

  it("answers 404 'This form has not been configured yet.' for unknown forms", async () => {
    const b = await visitor();
    const res = await save(b, { key: await key(b), formId: "0".repeat(24), form: "{}" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(MSG_STATUS_404);
  });

  it("refuses bad payloads with a 4xx", async () => {
    const b = await visitor();
    for (const payload of [
      {},
      { key: "k", formId: contactId },
      { key: ["a", "b"], formId: contactId, form: "{}" },
      { key: "k", formId: contactId, form: { a: 1 } },
    ]) {
      const res = await save(b, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/^Invalid body/);
    }
  });
});

describe("a double submit with one key", () => {
  it("stores the submission once when the same key is sent twice at the same time", async () => {
    const b = await visitor();
    const before = (await submissions()).length;
    const payload = { key: await key(b), formId: contactId, form: JSON.stringify(goodContact) };
    const answers = await Promise.all([save(b, payload), save(b, payload), save(b, payload)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
    for (const r of answers.filter((a) => a.statusCode === 401))
      expect(r.json().error.message).toBe(MSG_STATUS_401);
    expect(await submissions()).toHaveLength(before + 1);
  });
});

/** A form with every field type of SPEC §3, as an owner sends it. */
const EVERY_FIELD = [
  { id: "f-text", type: "text", title: "Nickname", required: true },
  { id: "f-textarea", type: "textarea", title: "About you", maxLength: 20 },
  { id: "f-email", type: "email", title: "Email", required: true },
  { id: "f-currency", type: "currency", title: "Budget" },
  { id: "f-number", type: "number", title: "Guests" },
  { id: "f-website", type: "website", title: "Website" },
  { id: "f-password", type: "password", title: "Secret word" },
  { id: "f-twitter", type: "twitter", title: "Twitter" },
  { id: "f-date", type: "date", title: "Date", required: true },
  { id: "f-time", type: "time", title: "Time" },
  { id: "f-name", type: "name", title: "Name", required: true },
  { id: "f-address", type: "address", title: "Address" },
  { id: "f-phone", type: "phone", title: "Phone", required: true },
  { id: "f-section", type: "section", title: "About the workshop", required: true },
  { id: "f-radio", type: "radio", title: "Level", required: true, options: ["Beginner", "Advanced"] },
  { id: "f-checkbox", type: "checkbox", title: "Topics", required: true, options: ["Glaze", "Wheel"] },
  { id: "f-select", type: "select", title: "Day", required: true, options: ["Saturday", "Sunday"] },
  { id: "f-likert", type: "likert", title: "Survey", required: true, questions: ["I like clay"] },
  { id: "f-hidden", type: "hidden", title: "Campaign", value: "spring" },
];

describe("owner forms with every field type", () => {
  async function owner() {
    const b = new Browser(t.app);
    await b.visit("/");
    const res = await b.request({
      method: "POST",
      url: "/api/owner/session",
      payload: { email: "owner@atelier.test", password: "atelier-demo" },
    });
    expect(res.statusCode).toBe(200);
    return b;
  }

  it("creates a form of all 19 field types and applies every rule to it on the server", async () => {
    const o = await owner();
    const created = await o.request({
      method: "POST",
      url: `/api/owner/sites/${websiteId}/forms`,
      payload: { name: "Workshop sign-up", fields: EVERY_FIELD, submissionMessage: "See you there!" },
    });
    expect(created.statusCode).toBe(201);
    const form = created.json().form;
    expect(form.fields.map((f: { type: string }) => f.type)).toEqual(EVERY_FIELD.map((f) => f.type));
    // Likert never required; sections carry no answer.
    expect(form.fields.find((f: { id: string }) => f.id === "f-likert").required).toBe(false);
    expect(form.fields.find((f: { id: string }) => f.id === "f-section").required).toBe(false);

    const b = await visitor();
    const empty = await save(b, { key: await key(b), formId: form.id, form: "{}" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toEqual({
      code: "invalid_fields",
      message: MSG_FORM_INVALID,
      fields: {
        "f-text": "Required",
        "f-email": "Required",
        "f-date": "Required",
        "f-name": "Required",
        "f-phone": "Required",
        "f-radio": "Required",
        "f-checkbox": "Required",
        "f-select": "Required",
      },
    });
    const bad = await b.request({
      method: "POST",
      url: `/api/rest/forms/validate/${form.id}`,
      payload: { "f-email": "a@b", "f-textarea": "x".repeat(21) },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields["f-email"]).toBe(EMAIL_MSG);
    expect(bad.json().error.fields["f-textarea"]).toBe("You have exceeded the character limit.");

    const answers = {
      "f-text": "Ada",
      "f-textarea": "",
      "f-email": "ada@example.com",
      "f-currency": "$25.50",
      "f-number": "4",
      "f-website": "example.com",
      "f-password": "swordfish",
      "f-twitter": "@ada",
      "f-date": ["12", "10", "2025"],
      "f-time": ["9", "30", "", "AM"],
      "f-name": ["Ada", "Lovelace"],
      "f-address": ["1 Main St", "", "Springfield", "IL", "62701", "USA"],
      "f-phone": ["212", "555", "0100"],
      "f-radio": "Advanced",
      "f-checkbox": ["Glaze", "Wheel"],
      "f-select": "Sunday",
      "f-likert": { "I like clay": "2" },
    };
    const ok = await save(b, { key: await key(b), formId: form.id, form: JSON.stringify(answers) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().submissionMessage).toBe("See you there!");
    const [row] = await submissions(form.id);
    expect(row!.values["f-phone"]).toEqual(["", "212", "555", "0100"]);
    expect(row!.values["f-password"]).toBe("••••••••");
    expect(Object.fromEntries(row!.summary.map((l) => [l.title, l.value]))).toEqual({
      Nickname: "Ada",
      "About you": "N/A",
      Email: "ada@example.com",
      Budget: "$25.50",
      Guests: "4",
      Website: "example.com",
      "Secret word": "••••••••",
      Twitter: "@ada",
      Date: "12/10/2025",
      Time: "9:30:00 AM",
      Name: "Ada Lovelace",
      Address: "1 Main St\nSpringfield, IL 62701\nUSA",
      Phone: "212-555-0100",
      Level: "Advanced",
      Topics: "Glaze, Wheel",
      Day: "Sunday",
      Survey: "I like clay: Strongly Agree",
      Campaign: "spring",
    });
  });

  it("changes a form, and refuses bad definitions with a message per property", async () => {
    const o = await owner();
    const url = `/api/owner/sites/${websiteId}/forms`;
    const bad = await o.request({
      method: "POST",
      url,
      payload: {
        name: " ",
        fields: [
          { id: "a", type: "text", title: "A" },
          { id: "a", type: "slider", title: "B" },
          { id: "bad id!", type: "radio", title: "C", options: [] },
          { id: "d", type: "likert", title: "" },
          { id: "e", type: "text", title: "E", maxLength: 5 },
        ],
        successRedirect: "javascript:alert(1)",
        notifyEmail: "nobody",
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      name: "Required",
      "fields.1.id": "Each field needs its own id.",
      "fields.1.type": expect.stringMatching(/^Choose one of the field types: text, textarea, /),
      "fields.2.id": "Field ids are 1 to 64 letters, digits, '-' or '_'.",
      "fields.2.options": "Give this field at least one option.",
      "fields.3.title": "Required",
      "fields.3.questions": "Give this field at least one statement to rate.",
      "fields.4.maxLength": "Only text areas have a character limit.",
      successRedirect: expect.stringMatching(/^Enter a page of this site/),
      notifyEmail: EMAIL_MSG,
    });
    for (const payload of [
      { name: "x" },
      { name: "x", fields: "nope" },
      { name: "x", fields: [], extra: 1 },
    ]) {
      const res = await o.request({ method: "POST", url, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }

    const created = await o.request({
      method: "POST",
      url,
      payload: { name: "Quick question", fields: [{ id: "q", type: "text", title: "Question" }] },
    });
    const id = created.json().form.id;
    const changed = await o.request({
      method: "PATCH",
      url: `${url}/${id}`,
      payload: { successRedirect: "/thank-you", notifyEmail: "team@example.com", captchaEnabled: true },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().form).toMatchObject({
      name: "Quick question",
      successRedirect: "/thank-you",
      notifyEmail: "team@example.com",
      captchaEnabled: true,
    });
    for (const target of ["//evil.example", "/\\evil.example", "ftp://x.example"]) {
      const res = await o.request({
        method: "PATCH",
        url: `${url}/${id}`,
        payload: { successRedirect: target },
      });
      expect(res.statusCode, target).toBe(400);
    }
    const missing = await o.request({ method: "PATCH", url: `${url}/${"0".repeat(24)}`, payload: {} });
    expect(missing.statusCode).toBe(404);

    // Visitors and other owners cannot create or change forms.
    const v = await visitor();
    expect((await v.request({ method: "POST", url, payload: { name: "x", fields: [] } })).statusCode).toBe(
      401,
    );
    expect(
      (await v.request({ method: "PATCH", url: `${url}/${id}`, payload: { name: "y" } })).statusCode,
    ).toBe(401);
    expect(
      (await o.request({ method: "POST", url, payload: { name: "x", fields: [] }, withCrumb: false }))
        .statusCode,
    ).toBe(403);
  });
});

describe("rate limits", () => {
  it("answers 429 with the SPEC's text after too many submissions, counted in the database", async () => {
    const b = await visitor();
    for (let i = 0; i < SUBMIT_LIMIT.max; i++) {
      const res = await save(b, { key: "x", formId: contactId, form: "{}" });
      expect(res.statusCode).not.toBe(429);
    }
    const limited = await save(b, {
      key: await key(b),
      formId: contactId,
      form: JSON.stringify(goodContact),
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe(MSG_STATUS_429);

    // A second server process on the same database sees the same counter.
    const second = await buildApp({ config: t.config, database: t.database, clock, logger: false });
    try {
      const other = new Browser(second);
      await other.visit("/contact");
      const res = await other.request({
        method: "POST",
        url: "/api/form/SaveFormSubmission",
        headers: { "x-forwarded-for": b.ip },
        payload: { key: "x", formId: contactId, form: "{}" },
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await second.close();
    }
    // Another visitor is not affected, and the window passes.
    const fresh = await visitor();
    expect(
      (await save(fresh, { key: await key(fresh), formId: contactId, form: JSON.stringify(goodContact) }))
        .statusCode,
    ).toBe(200);
    clock.offset = SUBMIT_LIMIT.windowMs + 1000;
    try {
      expect(
        (await save(b, { key: await key(b), formId: contactId, form: JSON.stringify(goodContact) }))
          .statusCode,
      ).toBe(200);
    } finally {
      clock.offset = 0;
    }
  });
});

describe("captcha", () => {
  it("says 'ReCaptcha has not been set up!' without keys, then checks the token with the provider", async () => {
    const db = t.database.db;
    await db.update(s.forms).set({ captchaEnabled: true }).where(eq(s.forms.id, contactId));
    try {
      const b = await visitor();
      expect((await b.request({ url: "/api/form/CaptchaSettings" })).json()).toEqual({ captcha: null });
      const notSetUp = await save(b, {
        key: await key(b),
        formId: contactId,
        form: JSON.stringify(goodContact),
      });
      expect(notSetUp.statusCode).toBe(400);
      expect(notSetUp.json().error.message).toBe(MSG_CAPTCHA_NOT_SET_UP);

      // reCAPTCHA with only a site key is not set up either.
      await db
        .update(s.websiteSettings)
        .set({ captchaProvider: "recaptcha", captchaSiteKey: "site", captchaSecretKey: null })
        .where(eq(s.websiteSettings.websiteId, websiteId));
      expect((await b.request({ url: "/api/form/CaptchaSettings" })).json()).toEqual({ captcha: null });

      await db
        .update(s.websiteSettings)
        .set({ captchaProvider: "test", captchaSiteKey: null, captchaSecretKey: "never-shown" })
        .where(eq(s.websiteSettings.websiteId, websiteId));
      const settings = await b.request({ url: "/api/form/CaptchaSettings" });
      expect(settings.json()).toEqual({
        captcha: { provider: "test", siteKey: "test-site-key", scriptUrl: null },
      });
      expect(settings.body).not.toContain("never-shown");

      const missing = await save(b, {
        key: await key(b),
        formId: contactId,
        form: JSON.stringify(goodContact),
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.message).toBe(MSG_CAPTCHA_INCOMPLETE);
      const wrong = await save(b, {
        key: await key(b),
        formId: contactId,
        form: JSON.stringify(goodContact),
        captchaKey: "robot",
      });
      expect(wrong.json().error).toMatchObject({ code: "captcha_failed", message: MSG_CAPTCHA_INCOMPLETE });
      const right = await save(b, {
        key: await key(b),
        formId: contactId,
        form: JSON.stringify(goodContact),
        captchaKey: TEST_CAPTCHA_PASS,
      });
      expect(right.statusCode).toBe(200);
    } finally {
      await db.update(s.forms).set({ captchaEnabled: false }).where(eq(s.forms.id, contactId));
      await db
        .update(s.websiteSettings)
        .set({ captchaProvider: null, captchaSiteKey: null, captchaSecretKey: null })
        .where(eq(s.websiteSettings.websiteId, websiteId));
    }
  });
});

describe("newsletter sign-ups", () => {
  it("adds the address to the site's mailing list once", async () => {
    const b = await visitor();
    for (let i = 0; i < 2; i++) {
      const res = await save(b, {
        key: await key(b),
        formId: newsletterId,
        form: JSON.stringify({ email: "Reader@Example.com" }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().submissionMessage).toBe("You are on the list. Thank you for signing up!");
    }
    const list = await t.database.db
      .select()
      .from(s.mailingListSubscribers)
      .where(
        and(
          eq(s.mailingListSubscribers.websiteId, websiteId),
          eq(s.mailingListSubscribers.email, "reader@example.com"),
        ),
      );
    expect(list).toHaveLength(1);
    expect(list[0]!.source).toBe(`form:${newsletterId}`);
  });

  it("contact form answers do not join the mailing list; other modules add through the service", async () => {
    const emails = (await t.database.db.select().from(s.mailingListSubscribers)).map((r) => r.email);
    expect(emails).not.toContain("ada@example.com");
    expect(await addToMailingList(t.database.db, websiteId, "restock@example.com", "restock")).toBe(true);
    expect(await addToMailingList(t.database.db, websiteId, "RESTOCK@example.com", "restock")).toBe(false);
    expect(await addToMailingList(t.database.db, websiteId, "not-an-email", "restock")).toBe(false);
  });
});

describe("owner API", () => {
  async function owner(email = "owner@atelier.test", password = "atelier-demo") {
    const b = new Browser(t.app);
    await b.visit("/");
    const res = await b.request({ method: "POST", url: "/api/owner/session", payload: { email, password } });
    expect(res.statusCode).toBe(200);
    return b;
  }

  it("lists forms with counts, lists and searches submissions", async () => {
    const b = await owner();
    const forms = await b.request({ url: `/api/owner/sites/${websiteId}/forms` });
    expect(forms.statusCode).toBe(200);
    const contact = forms.json().forms.find((f: { id: string }) => f.id === contactId);
    expect(contact.submissions).toBe((await submissions()).length);
    expect(contact.notifyEmail).toBe("owner@atelier.test");

    const list = await b.request({
      url: `/api/owner/sites/${websiteId}/forms/${contactId}/submissions?limit=2`,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().submissions).toHaveLength(2);
    expect(list.json().total).toBe((await submissions()).length);

    const found = await b.request({
      url: `/api/owner/sites/${websiteId}/forms/${contactId}/submissions?q=GRACE@`,
    });
    expect(found.json().total).toBe(1);
    expect(found.json().submissions[0].summary[1]).toEqual({ title: "Email", value: "grace@example.com" });
    const none = await b.request({
      url: `/api/owner/sites/${websiteId}/forms/${contactId}/submissions?q=%25`,
    });
    expect(none.json().total).toBe(0);
  });

  it("exports CSV with one column per field", async () => {
    const b = await owner();
    const res = await b.request({
      url: `/api/owner/sites/${websiteId}/forms/${contactId}/submissions.csv`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="Contact submissions.csv"');
    const lines = res.body
      .replace(/^\ufeff/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Submitted On,Page,Name,Email,Phone,Subject,Message");
    expect(lines).toHaveLength((await submissions()).length + 1);
    expect(
      lines.some((l) =>
        l.endsWith(",Ada Lovelace,ada@example.com,212-555-0100,Wholesale,Do you sell to shops?"),
      ),
    ).toBe(true);
    expect(csvCell('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("a\nb")).toBe('"a\nb"');
  });

  it("deletes a submission", async () => {
    const b = await owner();
    const [row] = await submissions();
    const url = `/api/owner/sites/${websiteId}/forms/${contactId}/submissions/${row!.id}`;
    expect((await b.request({ method: "DELETE", url })).statusCode).toBe(200);
    expect((await b.request({ method: "DELETE", url })).statusCode).toBe(404);
  });

  it("shows the mailing list and the outbox", async () => {
    const b = await owner();
    const list = await b.request({ url: `/api/owner/sites/${websiteId}/mailing-list` });
    expect(list.json().subscribers.map((x: { email: string }) => x.email)).toContain("reader@example.com");
    const outbox = await b.request({ url: `/api/owner/sites/${websiteId}/outbox?status=kept` });
    expect(outbox.statusCode).toBe(200);
    expect(outbox.json().emails[0]).toMatchObject({
      to: "owner@atelier.test",
      subject: "Form Submission - Contact",
    });
  });

  it("keeps other owners and visitors out", async () => {
    const stranger = new Browser(t.app);
    await stranger.visit("/");
    await stranger.request({
      method: "POST",
      url: "/api/owner/account",
      payload: { email: "stranger@example.com", password: "stranger-pass" },
    });
    for (const url of [
      `/api/owner/sites/${websiteId}/forms`,
      `/api/owner/sites/${websiteId}/forms/${contactId}/submissions`,
      `/api/owner/sites/${websiteId}/forms/${contactId}/submissions.csv`,
      `/api/owner/sites/${websiteId}/mailing-list`,
      `/api/owner/sites/${websiteId}/outbox`,
    ]) {
      expect((await stranger.request({ url })).statusCode, url).toBe(404);
      expect((await (await visitor()).request({ url })).statusCode, url).toBe(401);
    }
  });
});

describe("deleting a form", () => {
  async function owner() {
    const b = new Browser(t.app);
    await b.visit("/");
    const res = await b.request({
      method: "POST",
      url: "/api/owner/session",
      payload: { email: "owner@atelier.test", password: "atelier-demo" },
    });
    expect(res.statusCode).toBe(200);
    return b;
  }
  const formBlockLayout = (formId: string) => ({
    rows: [{ columns: [{ span: 12, blocks: [{ id: "b1", type: "form", formId }] }] }],
  });

  it("refuses with 409 while a page or a product uses the form, then deletes it with its submissions", async () => {
    const o = await owner();
    const url = `/api/owner/sites/${websiteId}/forms`;
    const db = t.database.db;

    // The demo contact page shows the contact form.
    const contact = await o.request({ method: "DELETE", url: `${url}/${contactId}` });
    expect(contact.statusCode).toBe(409);
    expect(contact.json().error).toEqual({
      code: "form_in_use",
      message:
        'This form is used on the page "Contact". Remove the form from that page and publish before deleting it.',
    });

    const created = await o.request({
      method: "POST",
      url,
      payload: {
        name: "Short lived",
        fields: [{ id: "q", type: "text", title: "Question", required: true }],
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().form.id as string;

    // A block in a page's unpublished draft counts too.
    const pageId = "d".repeat(24);
    await db.insert(s.collections).values({
      id: pageId,
      websiteId,
      kind: "page",
      title: "Workshop",
      urlSlug: "workshop-delete-test",
      layout: { rows: [] },
      draftLayout: formBlockLayout(id),
    });
    const inDraft = await o.request({ method: "DELETE", url: `${url}/${id}` });
    expect(inDraft.statusCode).toBe(409);
    expect(inDraft.json().error.message).toMatch(/^This form is used on the page "Workshop"\./);
    await db.delete(s.collections).where(eq(s.collections.id, pageId));

    // A product asking for it as its additional-fields form.
    const [product] = await db
      .select()
      .from(s.contentItems)
      .where(
        and(eq(s.contentItems.websiteId, websiteId), eq(s.contentItems.recordType, RecordType.STORE_ITEM)),
      )
      .limit(1);
    expect(product).toBeDefined();
    const before = product!.structuredContent;
    await db
      .update(s.contentItems)
      .set({ structuredContent: { ...before, additionalFieldsFormId: id } })
      .where(eq(s.contentItems.id, product!.id));
    try {
      const inProduct = await o.request({ method: "DELETE", url: `${url}/${id}` });
      expect(inProduct.statusCode).toBe(409);
      expect(inProduct.json().error.message).toBe(
        `This form is the additional-fields form of the product "${product!.title}". Choose another form there before deleting it.`,
      );
    } finally {
      await db
        .update(s.contentItems)
        .set({ structuredContent: before })
        .where(eq(s.contentItems.id, product!.id));
    }

    // Visitors, other owners and calls without the crumb cannot delete it.
    const v = await visitor();
    expect((await v.request({ method: "DELETE", url: `${url}/${id}` })).statusCode).toBe(401);
    expect((await o.request({ method: "DELETE", url: `${url}/${id}`, withCrumb: false })).statusCode).toBe(
      403,
    );
    const stranger = new Browser(t.app);
    await stranger.visit("/");
    await stranger.request({
      method: "POST",
      url: "/api/owner/account",
      payload: { email: "stranger-delete@example.com", password: "stranger-pass" },
    });
    expect((await stranger.request({ method: "DELETE", url: `${url}/${id}` })).statusCode).toBe(404);

    // Unused: deleted, with its submissions.
    const b = await visitor();
    const sent = await save(b, { key: await key(b), formId: id, form: JSON.stringify({ q: "Hello" }) });
    expect(sent.statusCode).toBe(200);
    expect(await submissions(id)).toHaveLength(1);
    const gone = await o.request({ method: "DELETE", url: `${url}/${id}` });
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ ok: true });
    expect(await submissions(id)).toHaveLength(0);
    const list = await o.request({ url });
    expect(list.json().forms.map((f: { id: string }) => f.id)).not.toContain(id);
    const again = await o.request({ method: "DELETE", url: `${url}/${id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe("No such form.");
    // The contact form is still there.
    expect(list.json().forms.map((f: { id: string }) => f.id)).toContain(contactId);
  });
});

describe("server failures", () => {
  it("answers 500 'Unable to send form. Please try again later.' when storing fails", async () => {
    const b = await visitor();
    const k = await key(b);
    await t.database.db.execute("alter table form_submissions rename to form_submissions_away" as never);
    try {
      const res = await save(b, { key: k, formId: contactId, form: JSON.stringify(goodContact) });
      expect(res.statusCode).toBe(500);
      expect(res.json().error.message).toBe(MSG_STATUS_500);
    } finally {
      await t.database.db.execute("alter table form_submissions_away rename to form_submissions" as never);
    }
    // Nothing half-written: the key was not used up.
    expect((await save(b, { key: k, formId: contactId, form: JSON.stringify(goodContact) })).statusCode).toBe(
      200,
    );
  });
});
