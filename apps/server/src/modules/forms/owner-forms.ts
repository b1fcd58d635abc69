/**
 * The owner's forms: checking a form definition, creating, changing and deleting forms (refused
 * while a page or product uses them), and the list of forms with their submission counts.
 */
import { moveToTrash } from "../history/trash.js";
import {
  emailInvalidMessage,
  FIELD_TYPES,
  type FormDefinition,
  isFieldType,
  MSG_REQUIRED,
  isValidEmail,
  parseFields,
} from "@atelier/forms";
import { and, count, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contentItems, formSubmissions, forms } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { sanitizeRichText } from "../../lib/sanitize-html.js";
import { collectionsOf } from "../content/service.js";
import { type FormRow, formOfSite, invalidFields, publicForm } from "./service.js";

/** What an owner sends to create a form (every property) or change one (any of them). */
export type FormInput = Partial<Omit<FormDefinition, "id" | "fields">> & {
  fields?: unknown[];
  notifyEmail?: string | null;
};

export const FORM_MAX_FIELDS = 100;
const FIELD_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MSG_FIELD_ID = "Field ids are 1 to 64 letters, digits, '-' or '_'.";
const MSG_FIELD_ID_TAKEN = "Each field needs its own id.";
const MSG_FIELD_TYPE = `Choose one of the field types: ${FIELD_TYPES.join(", ")}.`;
const MSG_NO_OPTIONS = "Give this field at least one option.";
const MSG_DUPLICATE_OPTION = "Each option must be different.";
const MSG_NO_QUESTIONS = "Give this field at least one statement to rate.";
const MSG_MAX_LENGTH_TEXTAREA = "Only text areas have a character limit.";
const MSG_REDIRECT =
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
function checkFormInput(input: FormInput, creating: boolean): Partial<FormRow> {
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
async function formUses(
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
  await db.transaction(async (tx) => {
    await moveToTrash(tx, websiteId, "form", formId);
    await tx.delete(forms).where(and(eq(forms.id, formId), eq(forms.websiteId, websiteId)));
  });
}

export async function formsWithCounts(db: Db, websiteId: string) {
  const rows = await db
    .select({ form: forms, submissions: count(formSubmissions.id) })
    .from(forms)
    .leftJoin(formSubmissions, eq(formSubmissions.formId, forms.id))
    .where(eq(forms.websiteId, websiteId))
    .groupBy(forms.id)
    .orderBy(forms.name);
  return rows.map((r) => ({ ...ownerFormJson(r.form), submissions: Number(r.submissions) }));
}
