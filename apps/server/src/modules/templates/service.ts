/**
 * Developer mode: a site's own versions of its theme's JSON-T templates (Design → Templates and
 * `jsont pull|push`). An override replaces the theme's template of the same name on the published
 * site; a draft is one owner's unsaved edit, shown only in that owner's editing frame. Only names
 * the theme has may be overridden, and only sources that parse without a syntax error are kept.
 */
import { recordVersion } from "../history/service.js";
import { parse } from "@atelier/jsont";
import type { ApiErrorBody, Template, TemplateSummary } from "@atelier/owner-api";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { templateDrafts, templateOverrides } from "../../db/schema.js";
import { ApiError, notFound } from "../../http/errors.js";
import type { Theme } from "../../render/themes.js";

/** The largest template source kept (the biggest theme file is a few KB). */
const MAX_SOURCE_BYTES = 256 * 1024;

export const MSG_NO_SUCH_TEMPLATE = "This theme has no template of that name.";
export const MSG_TOO_LARGE = `A template can be at most ${MAX_SOURCE_BYTES / 1024} KB.`;

/** A syntax error of a template source: 400 with its position, nothing saved. */
export class TemplateSyntaxError extends ApiError {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(400, "template_syntax", message, { source: `Line ${line}, column ${column}: ${message}` });
  }

  body(): { error: ApiErrorBody } {
    return {
      error: {
        code: this.code,
        message: this.message,
        fields: this.fields,
        line: this.line,
        column: this.column,
      },
    };
  }
}

/** Refuses a source that is too large or has a syntax error (the first one, by position). */
function checkSource(source: string): void {
  if (Buffer.byteLength(source, "utf8") > MAX_SOURCE_BYTES)
    throw new ApiError(413, "template_too_large", MSG_TOO_LARGE, { source: MSG_TOO_LARGE });
  const [first] = parse(source).errors;
  if (first) throw new TemplateSyntaxError(first.message, first.line, first.column);
}

function requireName(theme: Theme, name: string): string {
  const themeSource = Object.hasOwn(theme.templates, name) ? theme.templates[name] : undefined;
  if (themeSource === undefined) throw notFound(MSG_NO_SUCH_TEMPLATE);
  return themeSource;
}

/** Every override of a site, by name. */
export async function overridesOf(db: Db, websiteId: string): Promise<Record<string, string>> {
  const rows = await db
    .select({ name: templateOverrides.name, source: templateOverrides.source })
    .from(templateOverrides)
    .where(eq(templateOverrides.websiteId, websiteId));
  return Object.fromEntries(rows.map((r) => [r.name, r.source]));
}

/**
 * How long a draft shows in its owner's frames after its last change: a draft left behind by a
 * closed tab must not haunt the page editor's frame for ever.
 */
export const DRAFT_TTL_MS = 12 * 3600_000;

/** One owner's live drafts for a site, by name. */
export async function draftsOf(
  db: Db,
  websiteId: string,
  accountId: string,
  now: Date,
): Promise<Record<string, string>> {
  const rows = await db
    .select({ name: templateDrafts.name, source: templateDrafts.source })
    .from(templateDrafts)
    .where(
      and(
        eq(templateDrafts.websiteId, websiteId),
        eq(templateDrafts.accountId, accountId),
        gt(templateDrafts.updatedAt, new Date(now.getTime() - DRAFT_TTL_MS)),
      ),
    );
  return Object.fromEntries(rows.map((r) => [r.name, r.source]));
}

/** The theme's templates (site, page types, blocks, partials), each marked when the site overrides it. */
export async function listTemplates(db: Db, websiteId: string, theme: Theme): Promise<TemplateSummary[]> {
  const rows = await db
    .select({ name: templateOverrides.name })
    .from(templateOverrides)
    .where(eq(templateOverrides.websiteId, websiteId))
    .orderBy(asc(templateOverrides.name));
  const overridden = new Set(rows.map((r) => r.name));
  return Object.keys(theme.templates)
    .sort()
    .map((name) => ({ name, overridden: overridden.has(name) }));
}

export async function getTemplate(db: Db, websiteId: string, theme: Theme, name: string): Promise<Template> {
  const themeSource = requireName(theme, name);
  const [row] = await db
    .select({ source: templateOverrides.source })
    .from(templateOverrides)
    .where(and(eq(templateOverrides.websiteId, websiteId), eq(templateOverrides.name, name)));
  return { name, source: row?.source ?? themeSource, themeSource, overridden: row !== undefined };
}

/** Saves the site's version of a template (live at once: the trigger bumps the content version). */
export async function saveTemplate(db: Db, websiteId: string, theme: Theme, name: string, source: string) {
  requireName(theme, name);
  checkSource(source);
  await db.transaction(async (tx) => {
    await tx
      .insert(templateOverrides)
      .values({ websiteId, name, source })
      .onConflictDoUpdate({
        target: [templateOverrides.websiteId, templateOverrides.name],
        set: { source, updatedAt: sql`now()` },
      });
    await recordVersion(tx, websiteId, { type: "template", id: name }, "save");
  });
  return getTemplate(db, websiteId, theme, name);
}

/** Back to the theme's version; reverting a template that was not overridden changes nothing. */
export async function revertTemplate(db: Db, websiteId: string, theme: Theme, name: string) {
  requireName(theme, name);
  await db.transaction(async (tx) => {
    await tx
      .delete(templateOverrides)
      .where(and(eq(templateOverrides.websiteId, websiteId), eq(templateOverrides.name, name)));
    await recordVersion(tx, websiteId, { type: "template", id: name }, "save", {
      summary: "Back to the theme's version",
    });
  });
  return getTemplate(db, websiteId, theme, name);
}

/**
 * Keeps an owner's unsaved edit for the editing frame. A draft with a syntax error is kept too
 * (the frame shows what the engine makes of it), but never published.
 */
export async function saveDraft(
  db: Db,
  websiteId: string,
  accountId: string,
  theme: Theme,
  name: string,
  source: string,
  now: Date,
) {
  requireName(theme, name);
  if (Buffer.byteLength(source, "utf8") > MAX_SOURCE_BYTES)
    throw new ApiError(413, "template_too_large", MSG_TOO_LARGE, { source: MSG_TOO_LARGE });
  await db
    .insert(templateDrafts)
    .values({ websiteId, accountId, name, source, updatedAt: now })
    .onConflictDoUpdate({
      target: [templateDrafts.websiteId, templateDrafts.accountId, templateDrafts.name],
      set: { source, updatedAt: now },
    });
}

/** Drops an owner's draft of one template, or of all of them without a name. */
export async function dropDrafts(db: Db, websiteId: string, accountId: string, name?: string) {
  await db
    .delete(templateDrafts)
    .where(
      and(
        eq(templateDrafts.websiteId, websiteId),
        eq(templateDrafts.accountId, accountId),
        name === undefined ? undefined : eq(templateDrafts.name, name),
      ),
    );
}
