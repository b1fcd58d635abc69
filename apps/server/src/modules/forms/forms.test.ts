/** Form submissions under rate limits, captcha and storage failures. */
import {
  MSG_CAPTCHA_INCOMPLETE,
  MSG_CAPTCHA_NOT_SET_UP,
  MSG_STATUS_429,
  MSG_STATUS_500,
} from "@atelier/forms";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { Browser } from "../../../test/harness.js";
import { buildApp } from "../../app.js";
import * as s from "../../db/schema.js";
import { TEST_CAPTCHA_PASS } from "../captcha/service.js";
import {
  clock,
  contactId,
  goodContact,
  key,
  save,
  submit,
  t,
  useFormsApp,
  visitor,
  websiteId,
} from "./forms.test-helper.js";
import { SUBMIT_LIMIT } from "./service.js";

useFormsApp();

describe("rate limits", () => {
  it("answers 429 with the SPEC's text after too many submissions, counted in the database", async () => {
    const b = await visitor();
    for (let i = 0; i < SUBMIT_LIMIT.max; i++) {
      const res = await save(b, { key: "x", formId: contactId, form: "{}" });
      expect(res.statusCode).not.toBe(429);
    }
    const limited = await submit(b);
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
        remoteAddress: b.ip,
        payload: { key: "x", formId: contactId, form: "{}" },
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await second.close();
    }
    // Another visitor is not affected, and the window passes.
    const fresh = await visitor();
    expect((await submit(fresh)).statusCode).toBe(200);
    clock.offset = SUBMIT_LIMIT.windowMs + 1000;
    try {
      expect((await submit(b)).statusCode).toBe(200);
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
      const notSetUp = await submit(b);
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

      const missing = await submit(b);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.message).toBe(MSG_CAPTCHA_INCOMPLETE);
      const wrong = await submit(b, { captchaKey: "robot" });
      expect(wrong.json().error).toMatchObject({ code: "captcha_failed", message: MSG_CAPTCHA_INCOMPLETE });
      const right = await submit(b, { captchaKey: TEST_CAPTCHA_PASS });
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
