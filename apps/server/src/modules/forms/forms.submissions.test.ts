/**
 * Form schemas, validation, submission keys and SaveFormSubmission as a visitor uses them, newsletter
 * sign-ups, and the owner's view of what was sent (the owner API's tests read the submissions above).
 */
import { MSG_FORM_INVALID, MSG_PARSE_ERROR, MSG_STATUS_401, MSG_STATUS_404 } from "@atelier/forms";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { Browser, insertSite, signedUpOwner } from "../../../test/harness.js";
import * as s from "../../db/schema.js";
import { CRUMB_EXPIRED } from "../../http/crumb.js";
import {
  EMAIL_MSG,
  clock,
  contactId,
  goodContact,
  key,
  newsletterId,
  owner,
  save,
  submissions,
  submit,
  t,
  useFormsApp,
  validate,
  visitor,
  websiteId,
} from "./forms.test-helper.js";
import { SUBMISSION_KEY_TTL_MS, addToMailingList, csvCell } from "./service.js";

useFormsApp();

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
    const res = await validate(b, contactId, { email: "not an email", message: "", subject: "Nope" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: "invalid_fields",
      message: MSG_FORM_INVALID,
      fields: { email: EMAIL_MSG, message: "Required", subject: "Please choose one of the options." },
    });
  });

  it("says 'You have exceeded the character limit.' above the textarea's limit", async () => {
    const b = await visitor();
    const res = await validate(b, contactId, { ...goodContact, message: "x".repeat(2001) });
    expect(res.json().error.fields).toEqual({ message: "You have exceeded the character limit." });
  });

  it("accepts good answers, refuses unknown forms and non-objects", async () => {
    const b = await visitor();
    const ok = await validate(b, contactId, goodContact);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ valid: true });
    const unknown = await validate(b, "nope", {});
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
      const res = await submit(b);
      expect(res.statusCode).toBe(200);
      expect(res.json().redirect).toBe("/thank-you");
    } finally {
      await t.database.db.update(s.forms).set({ successRedirect: null }).where(eq(s.forms.id, contactId));
    }
  });

  it("shows 'N/A' for answers with no text", async () => {
    const b = await visitor();
    const res = await submit(b, { answers: { email: "grace@example.com", message: "Hi" } });
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
    await insertSite(t, { id: otherSite, identifier: "other", title: "Other" });
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
    const res = await submit(b, { formId: "0".repeat(24), answers: {} });
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
      expect(res.json().error.code).toBe("invalid_request");
      // In plain words: the field named and what it allows, not the validator's wording.
      expect(res.json().error.message).toMatch(/^(Key|Form|Form ID) (is required|must be [a-z])/);
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

describe("newsletter sign-ups", () => {
  it("adds the address to the site's mailing list once", async () => {
    const b = await visitor();
    for (let i = 0; i < 2; i++) {
      const res = await submit(b, { formId: newsletterId, answers: { email: "Reader@Example.com" } });
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
    const stranger = await signedUpOwner(t, "stranger@example.com");
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
