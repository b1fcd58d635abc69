/** Rate limits, captcha, newsletter sign-ups, the owner API of submissions, and storage failures. */
import {
  MSG_CAPTCHA_INCOMPLETE,
  MSG_CAPTCHA_NOT_SET_UP,
  MSG_STATUS_429,
  MSG_STATUS_500,
} from "@atelier/forms";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { Browser, signedUpOwner } from "../../../test/harness.js";
import { buildApp } from "../../app.js";
import * as s from "../../db/schema.js";
import { TEST_CAPTCHA_PASS } from "../captcha/service.js";
import {
  clock,
  contactId,
  goodContact,
  key,
  newsletterId,
  owner,
  save,
  submissions,
  t,
  useFormsApp,
  visitor,
  websiteId,
} from "./forms.test-helper.js";
import { SUBMIT_LIMIT, addToMailingList, csvCell } from "./service.js";

useFormsApp();

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
