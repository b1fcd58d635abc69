/**
 * Island `form`: a site form (contact, newsletter…) taking over the server-rendered fallback.
 * The async form of SPEC §4 (editing → saving, the button reading 'Saving…' → editing) runs the
 * submit flow of @atelier/forms: validate here, validate on the server, captcha, submission key,
 * send. Errors show above each field's title with the banners of SPEC §8; success redirects when
 * the form says so, otherwise the form is replaced by its submission text and HTML.
 *
 * Props (from the theme's form block): { form, blockId?, submitLabel?, newsletter? }.
 */
import {
  type FormDefinition,
  MSG_BANNER_SCROLL_DOWN,
  MSG_BANNER_SCROLL_UP,
  MSG_SAVING,
  MSG_SUBMITTING,
  parseFields,
  submitForm,
  validateField,
  normalizeAnswer,
} from "@atelier/forms";
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { siteCaptcha } from "../../lib/captcha.js";
import { Captcha, type CaptchaConfig, type CaptchaHandle } from "./captcha.js";
import { Field, initialValue, type Value } from "./fields.js";
import { send } from "./http.js";
import { type TypedAnswers, typedAnswers } from "./typed-answers.js";
import "./form.css";

interface RawForm {
  id?: unknown;
  name?: unknown;
  fields?: unknown;
  submissionMessage?: unknown;
  parsedSubmissionMessage?: unknown;
  submissionHTML?: unknown;
  submissionHtml?: unknown;
  successRedirect?: unknown;
  parsedDisclaimerMessage?: unknown;
  disclaimerMessage?: unknown;
  captchaEnabled?: unknown;
  captchaTheme?: unknown;
}

export interface FormIslandProps {
  form: RawForm;
  blockId?: string;
  submitLabel?: string;
  newsletter?: boolean;
  /** The site's captcha settings when the page knows them; fetched otherwise. */
  captcha?: CaptchaConfig | null;
  /** What the visitor typed into the server-rendered form before the island started. */
  typed?: TypedAnswers;
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The form definition from whichever spelling the page used (SPEC §3 Form). */
export function definitionOf(raw: RawForm): FormDefinition {
  return {
    id: str(raw.id) ?? "",
    name: str(raw.name) ?? "",
    fields: parseFields(raw.fields),
    submissionMessage: str(raw.parsedSubmissionMessage) ?? str(raw.submissionMessage) ?? "Thank you!",
    submissionHtml: str(raw.submissionHTML) ?? str(raw.submissionHtml) ?? "",
    successRedirect: str(raw.successRedirect) ?? null,
    disclaimerMessage: str(raw.parsedDisclaimerMessage) ?? str(raw.disclaimerMessage) ?? null,
    captchaEnabled: raw.captchaEnabled === true,
    captchaTheme: typeof raw.captchaTheme === "number" ? raw.captchaTheme : 1,
  };
}

/** A redirect only to this site or to an http(s) address. */
function safeRedirect(url: string): string | undefined {
  try {
    const u = new URL(url, window.location.href);
    return u.protocol === "http:" || u.protocol === "https:" ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** The first input, text area or list of a field in the island's form. */
function inputOf(form: HTMLFormElement | null, fieldId: string): HTMLElement | null | undefined {
  const field = `[data-field-id="${CSS.escape(fieldId)}"]`;
  return form?.querySelector<HTMLElement>(`${field} input, ${field} textarea, ${field} select`);
}

type Phase = "editing" | "saving" | "done";

/** Takes over what was typed into the server-rendered form (see main.ts). */
export function prepare(el: HTMLElement, props: FormIslandProps): FormIslandProps {
  return { ...props, typed: typedAnswers(el, definitionOf(props.form ?? {}).fields) };
}

export default function FormIsland(props: FormIslandProps) {
  const form = useMemo(() => definitionOf(props.form ?? {}), [props.form]);
  const idPrefix = `form-${useId().replace(/[^\w-]/g, "")}`;
  const [values, setValues] = useState<Record<string, Value>>(() => {
    const init: Record<string, Value> = {};
    for (const f of form.fields) {
      const v = initialValue(f);
      if (v !== undefined) init[f.id] = v;
    }
    return { ...init, ...props.typed?.values };
  });
  const [phase, setPhase] = useState<Phase>("editing");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | undefined>();
  const [captcha, setCaptcha] = useState<CaptchaConfig | null | undefined>(props.captcha);
  const captchaRef = useRef<CaptchaHandle>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const successRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!form.captchaEnabled || props.captcha !== undefined) return;
    let live = true;
    void siteCaptcha().then((c) => {
      if (live) setCaptcha(c);
    });
    return () => {
      live = false;
    };
  }, [form.captchaEnabled, props.captcha]);

  useEffect(() => {
    if (phase === "done") successRef.current?.focus();
  }, [phase]);

  // The visitor was typing in the fallback form: keep them in the same field.
  const focusedFieldId = props.typed?.focusedFieldId;
  useEffect(() => {
    if (focusedFieldId) inputOf(formRef.current, focusedFieldId)?.focus();
  }, [focusedFieldId]);

  const fieldErrorCount = Object.keys(errors).length;

  function change(id: string, value: Value) {
    setValues((v) => ({ ...v, [id]: value }));
    // A field that had an error is checked again as the visitor fixes it.
    if (errors[id]) {
      const field = form.fields.find((f) => f.id === id)!;
      const still = validateField(field, normalizeAnswer(field, value));
      setErrors((e) => {
        const next = { ...e };
        if (still) next[id] = still;
        else delete next[id];
        return next;
      });
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (phase !== "editing") return;
    setPhase("saving");
    setMessage(undefined);
    const outcome = await submitForm(form, values, {
      validateOnServer: (answers) =>
        send(`/api/rest/forms/validate/${encodeURIComponent(form.id)}`, { method: "POST", body: answers }),
      captchaToken: () => captchaRef.current?.token(),
      getKey: () => send("/api/form/FormSubmissionKey", { method: "POST" }),
      send: (payload) =>
        send("/api/form/SaveFormSubmission", {
          method: "POST",
          body: { ...payload, pagePath: window.location.pathname, pageTitle: document.title.slice(0, 2000) },
        }),
    });
    if (outcome.ok) {
      const target = outcome.redirect ? safeRedirect(outcome.redirect) : undefined;
      if (target) {
        window.location.assign(target);
        return;
      }
      setErrors({});
      setPhase("done");
      return;
    }
    if (outcome.resetCaptcha) captchaRef.current?.reset();
    setErrors(outcome.fieldErrors);
    setMessage(outcome.message);
    setPhase("editing");
    const firstInvalid = form.fields.find((f) => outcome.fieldErrors[f.id]);
    if (firstInvalid) inputOf(formRef.current, firstInvalid.id)?.focus();
  }

  if (phase === "done") {
    return (
      <div className="atelier-form form-submitted" ref={successRef} tabIndex={-1} role="status">
        <p className="form-submission-text">{form.submissionMessage}</p>
        {form.submissionHtml && (
          // The site owner's own HTML, shown as they wrote it.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: owner-authored submission HTML (SPEC §4)
          <div className="form-submission-html" dangerouslySetInnerHTML={{ __html: form.submissionHtml }} />
        )}
      </div>
    );
  }

  const saving = phase === "saving";
  const label = props.submitLabel || (props.newsletter ? "Sign up" : "Submit");
  return (
    <form
      ref={formRef}
      className={`atelier-form${props.newsletter ? " atelier-form-newsletter" : ""}`}
      noValidate
      aria-label={form.name || undefined}
      aria-busy={saving || undefined}
      onSubmit={submit}
    >
      {fieldErrorCount > 0 && (
        <p className="form-banner form-banner-top" role="alert">
          {MSG_BANNER_SCROLL_DOWN}
        </p>
      )}
      <div className="form-fields">
        {form.fields.map((f) => (
          <Field
            key={f.id}
            field={f}
            value={values[f.id]}
            error={errors[f.id]}
            idPrefix={idPrefix}
            textareaLimit
            onChange={(v) => change(f.id, v)}
          />
        ))}
      </div>
      {form.captchaEnabled && (
        <div className={`form-captcha form-captcha-align-${form.captchaAlignment ?? 1}`}>
          <Captcha ref={captchaRef} config={captcha} theme={form.captchaTheme} />
        </div>
      )}
      {form.disclaimerMessage && <p className="form-disclaimer">{form.disclaimerMessage}</p>}
      {fieldErrorCount > 0 && <p className="form-banner form-banner-bottom">{MSG_BANNER_SCROLL_UP}</p>}
      {message && fieldErrorCount === 0 && (
        <p className="form-message-error" role="alert">
          {message}
        </p>
      )}
      <div className="form-actions">
        <button className="button button-primary form-submit" type="submit" disabled={saving}>
          {saving ? MSG_SAVING : label}
        </button>
        <span className="form-status" aria-live="polite">
          {saving ? MSG_SUBMITTING : ""}
        </span>
      </div>
    </form>
  );
}
