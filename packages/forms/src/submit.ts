/**
 * The form submit flow of the form island (SPEC §4): lock, validate (in the browser, then on the
 * server), captcha, obtain a submission key, send; then success (redirect when configured,
 * otherwise the submission text and HTML) or failure, which resets the captcha. Input and output
 * go through injected functions, so the flow is the same in the browser and in tests.
 */
import type { FormDefinition } from "./fields.js";
import {
  MSG_CAPTCHA_INCOMPLETE,
  MSG_FORM_INVALID,
  MSG_KEY_ERROR,
  MSG_PARSE_ERROR,
  MSG_PROCESSING_ERROR,
  submissionStatusMessage,
} from "./messages.js";
import { type ValidateOptions, validateForm } from "./validate.js";
import type { FormAnswers } from "./values.js";

/** An HTTP answer: status 0 when the request never got one. */
export interface HttpAnswer {
  status: number;
  body: unknown;
}

export interface SubmitIO {
  /** POST /api/rest/forms/validate/{formId} with the answers. */
  validateOnServer?(answers: FormAnswers): Promise<HttpAnswer>;
  /** The captcha's response token, or undefined when the visitor has not completed it. */
  captchaToken?(): Promise<string | undefined> | string | undefined;
  /** POST /api/form/FormSubmissionKey. */
  getKey(): Promise<HttpAnswer>;
  /** POST /api/form/SaveFormSubmission. */
  send(payload: SubmissionPayload): Promise<HttpAnswer>;
}

export interface SubmissionPayload {
  key: string;
  formId: string;
  /** JSON of field id to value. */
  form: string;
  captchaKey?: string;
}

export type SubmitOutcome =
  | { ok: true; redirect?: string }
  | {
      ok: false;
      /** Field id to message, shown above each field's title. */
      fieldErrors: Record<string, string>;
      /** The form-level message, if any. */
      message?: string;
      /** Failures after the captcha was used reset it (SPEC §4). */
      resetCaptcha: boolean;
    };

interface ErrorShape {
  message?: string;
  fields?: Record<string, string>;
  crumbFail?: boolean;
}

/** The `{"error":{…}}` of an API answer, tolerant of anything else. */
export function apiError(body: unknown): ErrorShape {
  if (!body || typeof body !== "object") return {};
  const b = body as Record<string, unknown>;
  const e = (b.error && typeof b.error === "object" ? b.error : {}) as Record<string, unknown>;
  const fields = e.fields && typeof e.fields === "object" ? (e.fields as Record<string, string>) : undefined;
  return {
    message: typeof e.message === "string" ? e.message : undefined,
    fields,
    crumbFail: b.crumbFail === true,
  };
}

function failed(answer: HttpAnswer, resetCaptcha: boolean): SubmitOutcome {
  const err = apiError(answer.body);
  if (answer.status === 400 && err.fields && Object.keys(err.fields).length) {
    return { ok: false, fieldErrors: err.fields, message: err.message ?? MSG_FORM_INVALID, resetCaptcha };
  }
  // A crumb failure carries the SPEC's session text; everything else goes by status.
  const message =
    err.crumbFail && err.message ? err.message : submissionStatusMessage(answer.status, err.message);
  return { ok: false, fieldErrors: {}, message, resetCaptcha };
}

export async function submitForm(
  form: FormDefinition,
  raw: Record<string, unknown>,
  io: SubmitIO,
  opts: ValidateOptions = {},
): Promise<SubmitOutcome> {
  let captchaUsed = false;
  try {
    const local = validateForm(form.fields, raw, opts);
    if (!local.valid)
      return { ok: false, fieldErrors: local.errors, message: local.message, resetCaptcha: false };

    if (io.validateOnServer) {
      const checked = await io.validateOnServer(local.answers);
      if (checked.status !== 200) return failed(checked, false);
    }

    let captchaKey: string | undefined;
    if (form.captchaEnabled) {
      captchaKey = (await io.captchaToken?.()) || undefined;
      if (!captchaKey)
        return { ok: false, fieldErrors: {}, message: MSG_CAPTCHA_INCOMPLETE, resetCaptcha: false };
      captchaUsed = true;
    }

    const keyAnswer = await io.getKey();
    const key = (keyAnswer.body as { key?: unknown } | null)?.key;
    if (keyAnswer.status !== 200 || typeof key !== "string") {
      return { ok: false, fieldErrors: {}, message: MSG_KEY_ERROR, resetCaptcha: captchaUsed };
    }

    let formJson: string;
    try {
      formJson = JSON.stringify(local.answers);
    } catch {
      return { ok: false, fieldErrors: {}, message: MSG_PARSE_ERROR, resetCaptcha: captchaUsed };
    }

    const sent = await io.send({
      key,
      formId: form.id,
      form: formJson,
      ...(captchaKey ? { captchaKey } : {}),
    });
    if (sent.status >= 200 && sent.status < 300) {
      const redirect = (sent.body as { redirect?: unknown } | null)?.redirect;
      return typeof redirect === "string" && redirect ? { ok: true, redirect } : { ok: true };
    }
    return failed(sent, captchaUsed);
  } catch {
    return { ok: false, fieldErrors: {}, message: MSG_PROCESSING_ERROR, resetCaptcha: captchaUsed };
  }
}
