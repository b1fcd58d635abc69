/**
 * Site forms (SPEC §3, §5, §7, §8): definitions for pages, validation, single-use submission
 * keys, submissions stored with their summary, the owner's notification email, newsletter
 * sign-ups into the mailing list, and the owner's list, search and CSV export.
 */
import { likePattern, selectOffsetPage } from "../../lib/paging.js";
import {
  type FormDefinition,
  type FormField,
  MSG_CAPTCHA_INCOMPLETE,
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
import { and, count, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { formSubmissionKeys, formSubmissions, forms, mailingListSubscribers } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { ApiError } from "../../http/errors.js";
import { csvCell } from "../../lib/csv.js";
export { csvCell };
import { escapeHtml } from "../../lib/escape.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { usableTokenWhere } from "../../lib/single-use-tokens.js";
import { siteRowWhere } from "../../lib/site-rows.js";
import { verifySiteCaptcha } from "../captcha/service.js";
import { collectionsOf } from "../content/service.js";
import { queueEmail } from "../email/service.js";
import { settingsOf, websiteById } from "../sites/service.js";
import { clearUnsubscribe } from "../campaigns/consent.js";
import { signUpToMailingList } from "./double-opt-in.js";
import { countEvent, type Window } from "./rate-limit.js";
import { recordEvent } from "../events/service.js";

export type FormRow = typeof forms.$inferSelect;

/** What a visitor reads after a double opt-in sign-up. */
export const CHECK_YOUR_INBOX =
  "Thanks! Please check your inbox: we sent you a link to confirm your subscription.";

/** A submission key is good for one submission within this time. */
export const SUBMISSION_KEY_TTL_MS = 60 * 60_000;
/** Per visitor address and site: submissions, keys and validation calls. */
export const SUBMIT_LIMIT: Window = { max: 10, windowMs: 10 * 60_000 };
export const KEY_LIMIT: Window = { max: 30, windowMs: 10 * 60_000 };
export const VALIDATE_LIMIT: Window = { max: 60, windowMs: 60_000 };

export const formNotConfigured = () => new ApiError(404, "form_not_configured", MSG_STATUS_404);
const rateLimited = (retryAfterSeconds: number) =>
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

export function invalidFields(errors: Record<string, string>, message = MSG_FORM_INVALID) {
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
    .where(usableTokenWhere(formSubmissionKeys, formSubmissionKeys.keyHash, key, websiteId, now))
    .returning({ keyHash: formSubmissionKeys.keyHash });
  return used.length === 1;
}

/**
 * The newsletter blocks of the site that collect this form (their sign-ups join the mailing list):
 * none, or whether any of them asks for double opt-in.
 */
async function newsletterUse(
  db: Db,
  websiteId: string,
  formId: string,
): Promise<{ newsletter: boolean; doubleOptIn: boolean }> {
  const blocks: Record<string, unknown>[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (!node || typeof node !== "object") return;
    const o = node as Record<string, unknown>;
    if (o.type === "newsletter" && o.formId === formId) blocks.push(o);
    for (const v of Object.values(o)) if (typeof v === "object") walk(v);
  };
  for (const c of await collectionsOf(db, websiteId)) walk(c.layout);
  return { newsletter: blocks.length > 0, doubleOptIn: blocks.some((b) => b.doubleOptIn === true) };
}

/**
 * Adds an address to the site's mailing list (newsletter blocks, the restock form's
 * join-mailing-list choice): a fresh consent, so an earlier unsubscribe is cleared. Answers false
 * when it was on the list already.
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
  await clearUnsubscribe(db, websiteId, address);
  return added.length === 1;
}

interface SaveInput {
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

interface SaveResult {
  submissionId: string;
  redirect: string | null;
  submissionMessage: string;
  submissionHtml: string;
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
  const { newsletter, doubleOptIn } = await newsletterUse(db, input.websiteId, form.id);
  const website = newsletter && doubleOptIn ? await websiteById(db, input.websiteId) : undefined;
  const { site } = await settingsOf(db, input.websiteId);
  const siteTitle = input.siteTitle;
  const email = submittedEmail(fields, result.answers);
  const now = clock.now();
  const pagePath = input.pagePath?.slice(0, 2000) || undefined;

  const submissionId = newId();
  let pending = false;
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
    await recordEvent(tx, {
      websiteId: input.websiteId,
      type: "form.submitted",
      entity: { type: "form_submission", id: submissionId },
      actor: { type: "visitor", id: null },
      payload: { formId: form.id },
    });
    if (newsletter && email) {
      if (website) {
        const outcome = await signUpToMailingList(tx, config, {
          site: website,
          email,
          source: `form:${form.id}`,
          doubleOptIn: true,
          now,
        });
        pending = outcome === "pending";
      } else await addToMailingList(tx, input.websiteId, email, `form:${form.id}`, now);
    }
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
    // Double opt-in: the visitor must know the sign-up waits for the emailed link.
    submissionMessage: pending ? CHECK_YOUR_INBOX : form.submissionMessage,
    submissionHtml: pending ? "" : form.submissionHtml,
  };
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

interface SubmissionJson {
  id: string;
  createdOn: number;
  pagePath: string | null;
  summary: { title: string; value: string }[];
  values: Record<string, unknown>;
}

export function submissionJson(r: typeof formSubmissions.$inferSelect): SubmissionJson {
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
  const order = [desc(formSubmissions.createdAt), desc(formSubmissions.id)];
  const { rows, total } = await selectOffsetPage(db, formSubmissions, where, order, opts);
  return { submissions: rows.map(submissionJson), total };
}

export async function deleteSubmission(
  db: Db,
  websiteId: string,
  formId: string,
  id: string,
): Promise<boolean> {
  const gone = await db
    .delete(formSubmissions)
    .where(siteRowWhere(formSubmissions, websiteId, id, eq(formSubmissions.formId, formId)))
    .returning({ id: formSubmissions.id });
  return gone.length === 1;
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
      pendingConfirmation: r.confirmationPending,
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
