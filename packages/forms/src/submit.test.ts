import { describe, expect, it } from "vitest";
import { type FormDefinition, parseFields } from "./fields.js";
import {
  MSG_CAPTCHA_INCOMPLETE,
  MSG_FORM_INVALID,
  MSG_KEY_ERROR,
  MSG_PROCESSING_ERROR,
  MSG_STATUS_401,
  MSG_STATUS_404,
  MSG_STATUS_429,
  MSG_STATUS_500,
  MSG_UNKNOWN_ERROR,
  submissionStatusMessage,
} from "./messages.js";
import { type HttpAnswer, type SubmissionPayload, type SubmitIO, submitForm } from "./submit.js";

const form: FormDefinition = {
  id: "form1",
  name: "Contact",
  fields: parseFields([
    { id: "email", type: "email", title: "Email", required: true },
    { id: "phone", type: "phone", title: "Phone" },
  ]),
};
const good = { email: "ada@example.com", phone: ["212", "555", "0100"] };

function io(over: Partial<SubmitIO> = {}, calls: string[] = []): SubmitIO {
  return {
    validateOnServer: async () => {
      calls.push("validate");
      return { status: 200, body: { ok: true } };
    },
    captchaToken: () => {
      calls.push("captcha");
      return "token";
    },
    getKey: async () => {
      calls.push("key");
      return { status: 200, body: { key: "k1" } };
    },
    send: async () => {
      calls.push("send");
      return { status: 200, body: { ok: true } };
    },
    ...over,
  };
}

describe("status messages (SPEC §8)", () => {
  it("maps statuses to the fixed texts, else the server text, else the unknown-error text", () => {
    expect(submissionStatusMessage(401, "x")).toBe(MSG_STATUS_401);
    expect(submissionStatusMessage(404)).toBe(MSG_STATUS_404);
    expect(submissionStatusMessage(429)).toBe(MSG_STATUS_429);
    expect(submissionStatusMessage(500, "boom")).toBe(MSG_STATUS_500);
    expect(submissionStatusMessage(418, "I am a teapot")).toBe("I am a teapot");
    expect(submissionStatusMessage(0)).toBe(MSG_UNKNOWN_ERROR);
    expect(submissionStatusMessage(502, "  ")).toBe(MSG_UNKNOWN_ERROR);
  });
});

describe("the submit flow (SPEC §4)", () => {
  it("validates, then gets a key, then sends the answers as a JSON string", async () => {
    const calls: string[] = [];
    let sent: SubmissionPayload | undefined;
    const outcome = await submitForm(
      form,
      good,
      io(
        {
          send: async (p) => {
            calls.push("send");
            sent = p;
            return { status: 200, body: { ok: true } };
          },
        },
        calls,
      ),
    );
    expect(outcome).toEqual({ ok: true });
    expect(calls).toEqual(["validate", "key", "send"]);
    expect(sent?.key).toBe("k1");
    expect(sent?.formId).toBe("form1");
    expect(sent?.captchaKey).toBeUndefined();
    expect(JSON.parse(sent!.form)).toEqual({ email: "ada@example.com", phone: ["", "212", "555", "0100"] });
  });

  it("stops at the client's validation before any request", async () => {
    const calls: string[] = [];
    const outcome = await submitForm(form, { email: "" }, io({}, calls));
    expect(outcome).toEqual({
      ok: false,
      fieldErrors: { email: "Required" },
      message: MSG_FORM_INVALID,
      resetCaptcha: false,
    });
    expect(calls).toEqual([]);
  });

  it("shows the server's field errors at their fields", async () => {
    const answer: HttpAnswer = {
      status: 400,
      body: { error: { code: "invalid_fields", message: MSG_FORM_INVALID, fields: { email: "Taken" } } },
    };
    const outcome = await submitForm(form, good, io({ validateOnServer: async () => answer }));
    expect(outcome).toMatchObject({ ok: false, fieldErrors: { email: "Taken" }, message: MSG_FORM_INVALID });
    const afterSend = await submitForm(form, good, io({ send: async () => answer }));
    expect(afterSend).toMatchObject({ ok: false, fieldErrors: { email: "Taken" } });
  });

  it("asks for the captcha and resets it after failures", async () => {
    const withCaptcha = { ...form, captchaEnabled: true };
    const none = await submitForm(withCaptcha, good, io({ captchaToken: () => undefined }));
    expect(none).toMatchObject({ ok: false, message: MSG_CAPTCHA_INCOMPLETE, resetCaptcha: false });
    const calls: string[] = [];
    let captchaKey: string | undefined;
    const ok = await submitForm(
      withCaptcha,
      good,
      io(
        {
          send: async (p) => {
            captchaKey = p.captchaKey;
            return { status: 200, body: {} };
          },
        },
        calls,
      ),
    );
    expect(ok.ok).toBe(true);
    expect(captchaKey).toBe("token");
    expect(calls).toEqual(["validate", "captcha", "key"]);
    const rateLimited = await submitForm(
      withCaptcha,
      good,
      io({ send: async () => ({ status: 429, body: {} }) }),
    );
    expect(rateLimited).toEqual({ ok: false, fieldErrors: {}, message: MSG_STATUS_429, resetCaptcha: true });
  });

  it("answers the SPEC's messages for each failure", async () => {
    const noKey = await submitForm(form, good, io({ getKey: async () => ({ status: 500, body: {} }) }));
    expect(noKey).toMatchObject({ message: MSG_KEY_ERROR });
    for (const [status, message] of [
      [401, MSG_STATUS_401],
      [404, MSG_STATUS_404],
      [500, MSG_STATUS_500],
    ] as const) {
      const outcome = await submitForm(form, good, io({ send: async () => ({ status, body: {} }) }));
      expect(outcome).toMatchObject({ ok: false, message });
    }
    const other = await submitForm(
      form,
      good,
      io({ send: async () => ({ status: 409, body: { error: { message: "Server says no." } } }) }),
    );
    expect(other).toMatchObject({ message: "Server says no." });
    const crumb = await submitForm(
      form,
      good,
      io({
        send: async () => ({
          status: 403,
          body: {
            error: { message: "Your session has expired. Please reload the page and try again." },
            crumbFail: true,
          },
        }),
      }),
    );
    expect(crumb).toMatchObject({
      message: "Your session has expired. Please reload the page and try again.",
    });
    const thrown = await submitForm(
      form,
      good,
      io({
        send: async () => {
          throw new Error("network down");
        },
      }),
    );
    expect(thrown).toMatchObject({ ok: false, message: MSG_PROCESSING_ERROR });
  });

  it("follows a configured redirect", async () => {
    const outcome = await submitForm(
      form,
      good,
      io({ send: async () => ({ status: 200, body: { redirect: "/thanks" } }) }),
    );
    expect(outcome).toEqual({ ok: true, redirect: "/thanks" });
  });
});
