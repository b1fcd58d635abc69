/**
 * Site forms (SPEC §3, §5, §7, §8): definitions for pages, validation, single-use submission
 * keys, submissions stored with their summary, the owner's notification email, newsletter
 * sign-ups into the mailing list, and the owner's list, search and CSV export.
 */
import {
  emailInvalidMessage,
  FIELD_TYPES,
  type FormDefinition,
  type FormField,
  isFieldType,
  MSG_CAPTCHA_INCOMPLETE,
  MSG_REQUIRED,
  MSG_CAPTCHA_NOT_SET_UP,
  MSG_FORM_INVALID,
  MSG_PARSE_ERROR,
  MSG_STATUS_401,
  MSG_STATUS_404,
  MSG_STATUS_429,
  type SummaryLine,
  answersToStore,
  isValidEmail,
  parseFields,
  parseFormJson,
  summarize,
  validateForm,
} from "@atelier/forms";
import { and, count, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import {
  contentItems,
  formSubmissionKeys,
  formSubmissions,
  forms,
  mailingListSubscribers,
} from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { ApiError } from "../../http/errors.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { sanitizeRichText } from "../../lib/sanitize-html.js";
import { verifySiteCaptcha } from "../captcha/service.js";
import { collectionsOf } from "../content/service.js";
import { queueEmail } from "../email/service.js";
import { settingsOf } from "../sites/service.js";
import { countEvent, type Window } from "./rate-limit.js";

export type FormRow = typeof forms.$inferSelect;

/** A submission key is good for one submission within this time. */
export const SUBMISSION_KEY_TTL_MS = 60 * 60_000;
/** Per visitor address and site: submissions, keys and validation calls. */
export const SUBMIT_LIMIT: Window = { max: 10, windowMs: 10 * 60_000 };
export const KEY_LIMIT: Window = { max: 30, windowMs: 10 * 60_000 };
export const VALIDATE_LIMIT: Window = { max: 60, windowMs: 60_000 };

export const formNotConfigured = () => new ApiError(404, "form_not_configured", MSG_STATUS_404);
export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, "rate_limited", MSG_STATUS_429, undefined, { retryAfterSeconds });

/** The form as pages and the form island see it: no notification address. */
export function publicForm(row: FormRow): FormDefinition {
  return {
    id: row.id,
    name: row.name,
    fields: parseFields(row.fields),
    submissionMessage: row.submissionMessage,
    submissionHtml: row.submissionHtml,
    successRedirect: row.successRedirect,
    disclaimerMessage: row.disclaimerMessage,
    captchaEnabled: row.captchaEnabled,
    captchaTheme: row.captchaTheme,
    captchaAlignment: row.captchaAlignment,
  };
}

export async function formOfSite(
  db: Db | Tx,
  websiteId: string,
  formId: string,
): Promise<FormRow | undefined> {
  if (!formId || formId.length > 64) return undefined;
  const [row] = await db
    .select()
    .from(forms)
    .where(and(eq(forms.id, formId), eq(forms.websiteId, websiteId)));
  return row;
}

/** Counts one event against a per-address limit; throws the SPEC's 429 when it is exceeded. */
export async function limitByAddress(deps: Deps, what: string, websiteId: string, ip: string, limit: Window) {
  const hit = await countEvent(deps.db, `form:${what}:${websiteId}:${ip}`, limit, deps.clock.now());
  if (!hit.allowed) throw rateLimited(hit.retryAfterSeconds);
}

function invalidFields(errors: Record<string, string>, message = MSG_FORM_INVALID) {
  return new ApiError(400, "invalid_fields", message, errors);
}

/** `POST /api/rest/forms/validate/{formId}`: the server's half of the form rules. */
export async function validateSubmission(
  db: Db,
  websiteId: string,
  formId: string,
  raw: Record<string, unknown>,
) {
  const form = await formOfSite(db, websiteId, formId);
  if (!form) throw formNotConfigured();
  const result = validateForm(parseFields(form.fields), raw);
  if (!result.valid) throw invalidFields(result.errors, result.message);
  return { valid: true as const };
}

/** `POST /api/form/FormSubmissionKey`: a new single-use key, stored only as its hash. */
export async function issueSubmissionKey(deps: Deps, websiteId: string): Promise<string> {
  const key = newToken(24);
  const now = deps.clock.now();
  await deps.db.insert(formSubmissionKeys).values({
    keyHash: hashToken(key),
    websiteId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SUBMISSION_KEY_TTL_MS),
  });
  return key;
}

/** Marks the key used; false when it is unknown, of another site, expired or already used. */
async function consumeKey(tx: Tx, websiteId: string, key: string, now: Date): Promise<boolean> {
  if (!key || key.length > 200) return false;
  const used = await tx
    .update(formSubmissionKeys)
    .set({ usedAt: now })
    .where(
      and(
        eq(formSubmissionKeys.keyHash, hashToken(key)),
        eq(formSubmissionKeys.websiteId, websiteId),
        isNull(formSubmissionKeys.usedAt),
        sql`${formSubmissionKeys.expiresAt} > ${now.toISOString()}::timestamptz`,
      ),
    )
    .returning({ keyHash: formSubmissionKeys.keyHash });
  return used.length === 1;
}

/** Whether a newsletter block of the site collects this form (its sign-ups join the mailing list). */
export async function isNewsletterForm(db: Db, websiteId: string, formId: string): Promise<boolean> {
  const found = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(found);
    if (!node || typeof node !== "object") return false;
    const o = node as Record<string, unknown>;
    if (o.type === "newsletter" && o.formId === formId) return true;
    return Object.values(o).some((v) => typeof v === "object" && found(v));
  };
  return (await collectionsOf(db, websiteId)).some((c) => found(c.layout));
}

/**
 * Adds an address to the site's mailing list (newsletter blocks, the restock form's
 * join-mailing-list choice). Answers false when it was on the list already.
 */
export async function addToMailingList(
  db: Db | Tx,
  websiteId: string,
  email: string,
  source: string,
  now?: Date,
): Promise<boolean> {
  const address = email.trim().toLowerCase();
  if (!isValidEmail(address)) return false;
  const added = await db
    .insert(mailingListSubscribers)
    .values({
      id: newId(),
      websiteId,
      email: address,
      source: source.slice(0, 100),
      ...(now ? { createdAt: now } : {}),
    })
    .onConflictDoNothing()
    .returning({ id: mailingListSubscribers.id });
  return added.length === 1;
}

export interface SaveInput {
  websiteId: string;
  /** The site's title, for the notification email. */
  siteTitle: string;
  formId: string;
  key: string;
  /** JSON of field id to value. */
  form: string;
  captchaKey?: string;
  pagePath?: string;
  ip: string;
}

export interface SaveResult {
  submissionId: string;
  redirect: string | null;
  submissionMessage: string;
  submissionHtml: string;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function notificationEmail(
  siteTitle: string,
  form: FormRow,
  summary: SummaryLine[],
  pagePath: string | undefined,
) {
  const subject = `Form Submission - ${form.name}`;
  const intro = `Someone filled in the form "${form.name}" on ${siteTitle}${pagePath ? ` (page ${pagePath})` : ""}.`;
  const text = [intro, "", ...summary.map((l) => `${l.title}:\n${l.value}\n`)].join("\n");
  const rows = summary
    .map(
      (l) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(l.title)}</th><td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(l.value)}</td></tr>`,
    )
    .join("");
  const html = `<p>${escapeHtml(intro)}</p><table cellspacing="0" cellpadding="0">${rows}</table>`;
  return { subject, text, html };
}

/** The first valid email answer of a submission (reply-to of the notification, newsletter address). */
function submittedEmail(fields: FormField[], answers: Record<string, unknown>): string | undefined {
  for (const f of fields) {
    const v = answers[f.id];
    if (f.type === "email" && typeof v === "string" && isValidEmail(v.trim())) return v.trim();
  }
  return undefined;
}

/**
 * `POST /api/form/SaveFormSubmission`: checks the form, the answers and the captcha, then in one
 * transaction uses up the key, stores the submission with its summary, queues the owner's email
 * and adds newsletter sign-ups to the mailing list. A used, expired or forged key stores nothing.
 */
export async function saveSubmission(deps: Deps, input: SaveInput): Promise<SaveResult> {
  const { db, config, clock } = deps;
  const form = await formOfSite(db, input.websiteId, input.formId);
  if (!form) throw formNotConfigured();
  const raw = parseFormJson(input.form);
  if (!raw) throw new ApiError(400, "unparsable_form", MSG_PARSE_ERROR);
  const fields = parseFields(form.fields);
  const result = validateForm(fields, raw);
  if (!result.valid) throw invalidFields(result.errors, result.message);

  if (form.captchaEnabled) {
    const check = await verifySiteCaptcha(db, input.websiteId, input.captchaKey, input.ip);
    if (!check.ok) {
      if (check.reason === "not-set-up")
        throw new ApiError(400, "captcha_not_set_up", MSG_CAPTCHA_NOT_SET_UP);
      throw new ApiError(
        400,
        check.reason === "missing" ? "captcha_missing" : "captcha_failed",
        MSG_CAPTCHA_INCOMPLETE,
      );
    }
  }

  const summary = summarize(fields, result.answers);
  const stored = answersToStore(fields, result.answers);
  const newsletter = await isNewsletterForm(db, input.websiteId, form.id);
  const { site } = await settingsOf(db, input.websiteId);
  const siteTitle = input.siteTitle;
  const email = submittedEmail(fields, result.answers);
  const now = clock.now();
  const pagePath = input.pagePath?.slice(0, 2000) || undefined;

  const submissionId = newId();
  await db.transaction(async (tx) => {
    if (!(await consumeKey(tx, input.websiteId, input.key, now)))
      throw new ApiError(401, "invalid_submission_key", MSG_STATUS_401);
    await tx.insert(formSubmissions).values({
      id: submissionId,
      websiteId: input.websiteId,
      formId: form.id,
      values: stored,
      summary: summary.map(({ title, value }) => ({ title, value })),
      pagePath: pagePath ?? null,
      createdAt: now,
    });
    if (newsletter && email) await addToMailingList(tx, input.websiteId, email, `form:${form.id}`, now);
    // Newsletter sign-ups land in the mailing list; they email the owner only when asked to.
    const to = form.notifyEmail ?? (newsletter ? null : (site?.contactEmail ?? null));
    if (to && isValidEmail(to)) {
      await queueEmail(tx, config, {
        websiteId: input.websiteId,
        to,
        ...notificationEmail(siteTitle, form, summary, pagePath),
        fromName: siteTitle,
        replyTo: email,
      });
    }
  });
  return {
    submissionId,
    redirect: form.successRedirect || null,
    submissionMessage: form.submissionMessage,
    submissionHtml: form.submissionHtml,
  };
}

// ─── Owner API ───────────────────────────────────────────────────────────────────────────────

/** What an owner sends to create a form (every property) or change one (any of them). */
export interface FormInput {
  name?: string;
  fields?: unknown[];
  submissionMessage?: string;
  submissionHtml?: string;
  successRedirect?: string | null;
  disclaimerMessage?: string | null;
  captchaEnabled?: boolean;
  captchaTheme?: number;
  captchaAlignment?: number;
  notifyEmail?: string | null;
}

export const FORM_MAX_FIELDS = 100;
const FIELD_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MSG_FIELD_ID = "Field ids are 1 to 64 letters, digits, '-' or '_'.";
const MSG_FIELD_ID_TAKEN = "Each field needs its own id.";
const MSG_FIELD_TYPE = `Choose one of the field types: ${FIELD_TYPES.join(", ")}.`;
const MSG_NO_OPTIONS = "Give this field at least one option.";
const MSG_DUPLICATE_OPTION = "Each option must be different.";
const MSG_NO_QUESTIONS = "Give this field at least one statement to rate.";
const MSG_MAX_LENGTH_TEXTAREA = "Only text areas have a character limit.";
export const MSG_REDIRECT =
  "Enter a page of this site like /thank-you, or a web address starting with http:// or https://.";

function checkRedirect(value: string): boolean {
  if (value.length >= 2083 || /\s/.test(value)) return false;
  if (value.startsWith("/")) return !value.startsWith("//") && !value.startsWith("/\\");
  try {
    const u = new URL(value);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * Checks an owner's form definition; answers the columns to write, or throws 400 with a message
 * per offending property (`fields.2.options` for the third field's options).
 */
export function checkFormInput(input: FormInput, creating: boolean): Partial<FormRow> {
  const errors: Record<string, string> = {};
  const out: Partial<FormRow> = {};
  if (input.name !== undefined || creating) {
    const name = (input.name ?? "").trim();
    if (!name) errors.name = MSG_REQUIRED;
    else out.name = name;
  }
  if (input.fields !== undefined || creating) {
    const raw = input.fields ?? [];
    const seen = new Set<string>();
    raw.forEach((f, i) => {
      const at = `fields.${i}`;
      const r = (f && typeof f === "object" ? f : {}) as Record<string, unknown>;
      const id = typeof r.id === "string" ? r.id : "";
      if (!FIELD_ID.test(id)) errors[`${at}.id`] = MSG_FIELD_ID;
      else if (seen.has(id)) errors[`${at}.id`] = MSG_FIELD_ID_TAKEN;
      seen.add(id);
      if (!isFieldType(r.type)) {
        errors[`${at}.type`] = MSG_FIELD_TYPE;
        return;
      }
      if (r.type !== "hidden" && (typeof r.title !== "string" || r.title.trim() === ""))
        errors[`${at}.title`] = MSG_REQUIRED;
      if (r.type === "radio" || r.type === "checkbox" || r.type === "select") {
        const options = Array.isArray(r.options) ? r.options : [];
        if (options.length === 0 || options.some((o) => typeof o !== "string" || o.trim() === ""))
          errors[`${at}.options`] = MSG_NO_OPTIONS;
        else if (new Set(options).size !== options.length) errors[`${at}.options`] = MSG_DUPLICATE_OPTION;
      }
      if (r.type === "likert") {
        const questions = Array.isArray(r.questions) ? r.questions : [];
        if (questions.length === 0 || questions.some((q) => typeof q !== "string" || q.trim() === ""))
          errors[`${at}.questions`] = MSG_NO_QUESTIONS;
        else if (new Set(questions).size !== questions.length)
          errors[`${at}.questions`] = MSG_DUPLICATE_OPTION;
      }
      if (r.maxLength !== undefined && r.type !== "textarea")
        errors[`${at}.maxLength`] = MSG_MAX_LENGTH_TEXTAREA;
    });
    // Stored in the normal shape pages and submissions read (required never on likert or sections).
    out.fields = parseFields(raw) as unknown as Record<string, unknown>[];
  }
  if (input.submissionMessage !== undefined)
    out.submissionMessage = sanitizeRichText(input.submissionMessage);
  if (input.submissionHtml !== undefined) out.submissionHtml = sanitizeRichText(input.submissionHtml);
  if (input.disclaimerMessage !== undefined)
    out.disclaimerMessage = sanitizeRichText(input.disclaimerMessage?.trim() ?? "") || null;
  if (input.successRedirect !== undefined) {
    const target = input.successRedirect?.trim() ?? "";
    if (target && !checkRedirect(target)) errors.successRedirect = MSG_REDIRECT;
    else out.successRedirect = target || null;
  }
  if (input.notifyEmail !== undefined) {
    const to = input.notifyEmail?.trim() ?? "";
    if (to && !isValidEmail(to)) errors.notifyEmail = emailInvalidMessage();
    else out.notifyEmail = to || null;
  }
  if (input.captchaEnabled !== undefined) out.captchaEnabled = input.captchaEnabled;
  if (input.captchaTheme !== undefined) out.captchaTheme = input.captchaTheme;
  if (input.captchaAlignment !== undefined) out.captchaAlignment = input.captchaAlignment;
  if (Object.keys(errors).length > 0) throw invalidFields(errors, "Please correct the form's settings.");
  return out;
}

function ownerFormJson(row: FormRow) {
  return { ...publicForm(row), notifyEmail: row.notifyEmail };
}

/** Creates a form on the owner's site. */
export async function createForm(db: Db, websiteId: string, input: FormInput) {
  const values = checkFormInput(input, true);
  const [row] = await db
    .insert(forms)
    .values({ ...values, id: newId(), websiteId, name: values.name!, fields: values.fields! })
    .returning();
  return ownerFormJson(row!);
}

/** Changes a form of the owner's site; pages showing it are rendered again. */
export async function updateForm(db: Db, websiteId: string, formId: string, input: FormInput) {
  const values = checkFormInput(input, false);
  const current = await formOfSite(db, websiteId, formId);
  if (!current) throw new ApiError(404, "not_found", "No such form.");
  if (Object.keys(values).length === 0) return ownerFormJson(current);
  const [row] = await db
    .update(forms)
    .set(values)
    .where(and(eq(forms.id, formId), eq(forms.websiteId, websiteId)))
    .returning();
  return ownerFormJson(row!);
}

/** Whether a layout (rows, columns, blocks, nested) has a block showing the form. */
function layoutShowsForm(node: unknown, formId: string): boolean {
  if (Array.isArray(node)) return node.some((n) => layoutShowsForm(n, formId));
  if (!node || typeof node !== "object") return false;
  const o = node as Record<string, unknown>;
  if (typeof o.type === "string" && o.formId === formId) return true;
  return Object.values(o).some((v) => typeof v === "object" && layoutShowsForm(v, formId));
}

/**
 * Where a form is in use: pages whose live or draft layout has a form or newsletter block
 * showing it, and products that ask for it as their additional-fields form.
 */
export async function formUses(
  db: Db,
  websiteId: string,
  formId: string,
): Promise<{ pages: string[]; products: string[] }> {
  const pages = (await collectionsOf(db, websiteId))
    .filter((c) => layoutShowsForm(c.layout, formId) || layoutShowsForm(c.draftLayout, formId))
    .map((c) => c.title);
  const products = await db
    .select({ title: contentItems.title })
    .from(contentItems)
    .where(
      and(
        eq(contentItems.websiteId, websiteId),
        sql`${contentItems.structuredContent}->>'additionalFieldsFormId' = ${formId}`,
      ),
    );
  return { pages, products: products.map((p) => p.title) };
}

const quoted = (titles: string[]) => titles.map((t) => `"${t}"`).join(", ");

/**
 * Deletes a form of the owner's site with its submissions. A form still shown on a page (live
 * or in a draft) or asked for by a product is refused with 409, naming where it is used.
 */
export async function deleteForm(db: Db, websiteId: string, formId: string): Promise<void> {
  const current = await formOfSite(db, websiteId, formId);
  if (!current) throw new ApiError(404, "not_found", "No such form.");
  const uses = await formUses(db, websiteId, formId);
  if (uses.pages.length) {
    throw new ApiError(
      409,
      "form_in_use",
      `This form is used on ${uses.pages.length === 1 ? "the page" : "the pages"} ${quoted(uses.pages)}. Remove the form from ${uses.pages.length === 1 ? "that page" : "those pages"} and publish before deleting it.`,
    );
  }
  if (uses.products.length) {
    throw new ApiError(
      409,
      "form_in_use",
      `This form is the additional-fields form of ${uses.products.length === 1 ? "the product" : "the products"} ${quoted(uses.products)}. Choose another form there before deleting it.`,
    );
  }
  await db.delete(forms).where(and(eq(forms.id, formId), eq(forms.websiteId, websiteId)));
}

export async function formsWithCounts(db: Db, websiteId: string) {
  const rows = await db
    .select({ form: forms, submissions: count(formSubmissions.id) })
    .from(forms)
    .leftJoin(formSubmissions, eq(formSubmissions.formId, forms.id))
    .where(eq(forms.websiteId, websiteId))
    .groupBy(forms.id)
    .orderBy(forms.name);
  return rows.map((r) => ({
    ...publicForm(r.form),
    notifyEmail: r.form.notifyEmail,
    submissions: Number(r.submissions),
  }));
}

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchWhere(websiteId: string, formId: string, q?: string) {
  const text = q?.trim();
  return and(
    eq(formSubmissions.websiteId, websiteId),
    eq(formSubmissions.formId, formId),
    text
      ? or(
          sql`exists (select 1 from jsonb_array_elements(${formSubmissions.summary}) as line where line->>'value' ilike ${likePattern(text)})`,
          sql`coalesce(${formSubmissions.pagePath}, '') ilike ${likePattern(text)}`,
        )
      : undefined,
  );
}

export interface SubmissionJson {
  id: string;
  createdOn: number;
  pagePath: string | null;
  summary: { title: string; value: string }[];
  values: Record<string, unknown>;
}

function submissionJson(r: typeof formSubmissions.$inferSelect): SubmissionJson {
  return {
    id: r.id,
    createdOn: r.createdAt.getTime(),
    pagePath: r.pagePath,
    summary: r.summary,
    values: r.values,
  };
}

/** A form's submissions, newest first, optionally only those whose answers contain `q`. */
export async function listSubmissions(
  db: Db,
  websiteId: string,
  formId: string,
  opts: { q?: string; limit: number; offset: number },
): Promise<{ submissions: SubmissionJson[]; total: number }> {
  const form = await formOfSite(db, websiteId, formId);
  if (!form) throw new ApiError(404, "not_found", "No such form.");
  const where = searchWhere(websiteId, formId, opts.q);
  const rows = await db
    .select()
    .from(formSubmissions)
    .where(where)
    .orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id))
    .limit(opts.limit)
    .offset(opts.offset);
  const [{ n }] = (await db.select({ n: count() }).from(formSubmissions).where(where)) as [{ n: number }];
  return { submissions: rows.map(submissionJson), total: Number(n) };
}

export async function deleteSubmission(
  db: Db,
  websiteId: string,
  formId: string,
  id: string,
): Promise<boolean> {
  const gone = await db
    .delete(formSubmissions)
    .where(
      and(
        eq(formSubmissions.id, id),
        eq(formSubmissions.websiteId, websiteId),
        eq(formSubmissions.formId, formId),
      ),
    )
    .returning({ id: formSubmissions.id });
  return gone.length === 1;
}

/** A CSV cell: quoted when needed; cells a spreadsheet would run as a formula are neutralized. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Every submission of a form (or those matching `q`) as CSV, oldest first, one column per field. */
export async function submissionsCsv(
  db: Db,
  websiteId: string,
  formId: string,
  q?: string,
): Promise<{ name: string; csv: string }> {
  const form = await formOfSite(db, websiteId, formId);
  if (!form) throw new ApiError(404, "not_found", "No such form.");
  const rows = await db
    .select()
    .from(formSubmissions)
    .where(searchWhere(websiteId, formId, q))
    .orderBy(formSubmissions.createdAt, formSubmissions.id);
  const fieldTitles = parseFields(form.fields)
    .filter((f) => f.type !== "section")
    .map((f) => f.title || f.id);
  const titles = [...fieldTitles];
  // Fields removed from the form since keep their column.
  for (const r of rows) for (const l of r.summary) if (!titles.includes(l.title)) titles.push(l.title);
  const lines = [["Submitted On", "Page", ...titles].map(csvCell).join(",")];
  for (const r of rows) {
    const byTitle = new Map(r.summary.map((l) => [l.title, l.value]));
    lines.push(
      [r.createdAt.toISOString(), r.pagePath ?? "", ...titles.map((t) => byTitle.get(t) ?? "")]
        .map(csvCell)
        .join(","),
    );
  }
  return { name: form.name, csv: `${lines.join("\r\n")}\r\n` };
}

export async function mailingList(db: Db, websiteId: string, opts: { limit: number; offset: number }) {
  const rows = await db
    .select()
    .from(mailingListSubscribers)
    .where(eq(mailingListSubscribers.websiteId, websiteId))
    .orderBy(desc(mailingListSubscribers.createdAt), desc(mailingListSubscribers.id))
    .limit(opts.limit)
    .offset(opts.offset);
  const [{ n }] = (await db
    .select({ n: count() })
    .from(mailingListSubscribers)
    .where(eq(mailingListSubscribers.websiteId, websiteId))) as [{ n: number }];
  return {
    subscribers: rows.map((r) => ({
      id: r.id,
      email: r.email,
      source: r.source,
      createdOn: r.createdAt.getTime(),
    })),
    total: Number(n),
  };
}

/** Housekeeping: keys expired a day ago are deleted. */
export async function pruneSubmissionKeys(db: Db, now: Date): Promise<void> {
  await db
    .delete(formSubmissionKeys)
    .where(lt(formSubmissionKeys.expiresAt, new Date(now.getTime() - 86400_000)));
}
