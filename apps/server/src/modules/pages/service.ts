/**
 * The page tree of a website (collections: pages, blogs, events, stores, galleries, albums and
 * folders), page settings, and block layouts with autosaved drafts and an explicit Publish.
 * Every call is one transaction and scoped to the website it is given (from the owner's path).
 */
import { moveToTrash } from "../history/trash.js";
import { recordVersion } from "../history/service.js";
import { recordMove } from "../redirects/service.js";
import { SEO_DESCRIPTION_MAX, SEO_TITLE_MAX } from "../seo/fields.js";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { SiteStatus, collectionKinds, folderBehaviors } from "../../db/enums.js";
import { collections, contentItems, featureSets, forms, media, websites } from "../../db/schema.js";
import { ApiError, badRequest, conflict, notFound, throwFieldErrors } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { asciiSlug } from "../../lib/slug.js";
import { nextOrdering } from "../../lib/ordering.js";
import { hashPassword } from "../../lib/passwords.js";
import { siteRowWhere } from "../../lib/site-rows.js";
import { COLLECTION_OPTION_FIELDS, blockTypeByName, blockTypesFor } from "./block-types.js";
import {
  type Layout,
  LayoutError,
  type LayoutRefs,
  countBlocks,
  validateFields,
  validateLayout,
} from "./blocks.js";
import { typedSlug } from "../../lib/slug.js";
import { LIMIT_MESSAGES, urlWithinLimit } from "./limits.js";

type Collection = typeof collections.$inferSelect;
type Conn = Db | Tx;

const PAGE_NOT_FOUND = "No such page.";

/** First path segments the server itself answers: no page may take them. */
const RESERVED_SLUGS = new Set([
  "api",
  "assets",
  "cart",
  "checkout",
  "commerce",
  "config",
  "healthz",
  "media",
  "search",
  "account",
  "static",
  "robots.txt",
  "sitemap.xml",
  "favicon.ico",
]);

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const SLUG_MESSAGE = "A URL slug can use only lowercase letters, digits and single hyphens.";

/** A page's (or item's) URL slug from its title, in any script; "page" when nothing is left. */
export function slugify(title: string): string {
  return asciiSlug(title) || "page";
}

/** A page as the dashboard sees it: no password hash, only whether there is one. */
function pageJson(c: Collection, itemCount = 0) {
  return {
    id: c.id,
    kind: c.kind,
    title: c.title,
    urlSlug: c.urlSlug,
    fullUrl: c.isHome ? "/" : `/${c.urlSlug}`,
    description: c.description,
    ordering: c.ordering,
    folderId: c.folderId,
    folderBehavior: c.folderBehavior,
    hiddenFromNav: c.hiddenFromNav,
    isHome: c.isHome,
    passwordProtected: Boolean(c.passwordHash),
    seoTitle: c.seoTitle ?? "",
    seoDescription: c.seoDescription ?? "",
    seoHidden: c.seoHidden,
    options: c.options,
    hasDraft: c.draftLayout !== null && c.draftLayout !== undefined,
    itemCount,
    updatedAt: c.updatedAt.toISOString(),
  };
}
type PageJson = ReturnType<typeof pageJson>;

async function itemCounts(db: Conn, websiteId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: contentItems.collectionId, n: count() })
    .from(contentItems)
    .where(eq(contentItems.websiteId, websiteId))
    .groupBy(contentItems.collectionId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

export async function pageTree(db: Db, websiteId: string): Promise<PageJson[]> {
  const [rows, counts] = await Promise.all([
    db
      .select()
      .from(collections)
      .where(eq(collections.websiteId, websiteId))
      .orderBy(asc(collections.ordering), asc(collections.createdAt)),
    itemCounts(db, websiteId),
  ]);
  return rows.map((c) => pageJson(c, counts.get(c.id) ?? 0));
}

async function collectionOf(db: Conn, websiteId: string, pageId: string): Promise<Collection> {
  const [row] = await db
    .select()
    .from(collections)
    .where(siteRowWhere(collections, websiteId, pageId));
  if (!row) throw notFound(PAGE_NOT_FOUND);
  return row;
}

function checkSlug(slug: string): string {
  const s = typedSlug(slug.replace(/^\s*\/+|\/+\s*$/g, ""));
  if (!urlWithinLimit(`/${s}`)) throw badRequest(LIMIT_MESSAGES.url, { urlSlug: LIMIT_MESSAGES.url });
  if (!SLUG.test(s)) throw badRequest(SLUG_MESSAGE, { urlSlug: SLUG_MESSAGE });
  if (RESERVED_SLUGS.has(s)) {
    const m = `The URL /${s} is used by the system. Please choose another.`;
    throw badRequest(m, { urlSlug: m });
  }
  return s;
}

/** `base`, or `base-2`, `base-3`… the first URL slug no page of the site (nor the system) uses. */
export async function uniqueSlug(db: Conn, websiteId: string, base: string): Promise<string> {
  const rows = await db
    .select({ slug: collections.urlSlug })
    .from(collections)
    .where(eq(collections.websiteId, websiteId));
  const taken = new Set([...rows.map((r) => r.slug), ...RESERVED_SLUGS]);
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

const TITLE_REQUIRED = "Please give the page a title.";

interface NewPage {
  kind: string;
  title: string;
  urlSlug?: string;
  folderId?: string | null;
  isHome?: boolean;
  layout?: Layout;
  description?: string;
  /** Kept out of the navigation (the home page always is). */
  hiddenFromNav?: boolean;
  /** A folder's behaviour ("index" unless told). */
  folderBehavior?: (typeof folderBehaviors)[number];
}

/** Adds a page (at the end of the navigation, or of its folder). Usable inside another transaction. */
export async function createPageIn(tx: Tx, websiteId: string, input: NewPage): Promise<Collection> {
  if (!(collectionKinds as readonly string[]).includes(input.kind))
    throw badRequest(`A page is one of: ${collectionKinds.join(", ")}.`, { kind: "Unknown page type" });
  const title = input.title.trim();
  if (!title) throw badRequest(TITLE_REQUIRED, { title: "Required" });
  if (input.folderId) {
    const folder = await collectionOf(tx, websiteId, input.folderId);
    if (folder.kind !== "folder")
      throw badRequest("Pages can only go inside a folder.", { folderId: "Not a folder" });
    if (input.kind === "folder") throw badRequest("A folder cannot go inside another folder.");
  }
  const slug = input.urlSlug
    ? checkSlug(input.urlSlug)
    : await uniqueSlug(tx, websiteId, input.isHome ? "home" : slugify(title));
  const ordering = await nextOrdering(tx, collections.ordering, eq(collections.websiteId, websiteId));
  const id = newId();
  const inserted = await tx
    .insert(collections)
    .values({
      id,
      websiteId,
      kind: input.kind,
      title,
      urlSlug: slug,
      description: input.description ?? "",
      ordering,
      folderId: input.folderId ?? null,
      folderBehavior: input.kind === "folder" ? (input.folderBehavior ?? "index") : null,
      isHome: Boolean(input.isHome),
      hiddenFromNav: Boolean(input.isHome || input.hiddenFromNav),
      layout: input.kind === "page" ? (input.layout ?? { rows: [] }) : null,
      options: defaultOptions(input.kind),
    })
    .onConflictDoNothing()
    .returning();
  if (!inserted.length) {
    const m = `Another page already uses the URL /${slug}.`;
    throw new ApiError(409, "conflict", m, { urlSlug: m });
  }
  await recordVersion(tx, websiteId, { type: "page", id }, "create");
  return inserted[0]!;
}

function defaultOptions(kind: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of COLLECTION_OPTION_FIELDS[kind] ?? []) if (f.default !== undefined) out[f.key] = f.default;
  return out;
}

export async function createPage(db: Db, websiteId: string, input: NewPage): Promise<PageJson> {
  const row = await db.transaction((tx) => createPageIn(tx, websiteId, input));
  return pageJson(row);
}

interface PagePatch {
  title?: string;
  urlSlug?: string;
  description?: string;
  seoTitle?: string;
  seoDescription?: string;
  seoHidden?: boolean;
  /** A new password; null removes protection. Never answered back. */
  password?: string | null;
  hiddenFromNav?: boolean;
  folderBehavior?: string;
  isHome?: boolean;
  options?: Record<string, unknown>;
}

const PAGE_PASSWORD_MIN = 4;

export async function updatePage(
  db: Db,
  websiteId: string,
  pageId: string,
  patch: PagePatch,
): Promise<PageJson> {
  const fields: Record<string, string> = {};
  const set: Partial<typeof collections.$inferInsert> = {};
  if (patch.title !== undefined) {
    const t = patch.title.trim();
    if (!t) fields.title = TITLE_REQUIRED;
    else if (t.length > 200) fields.title = "A title can be at most 200 characters.";
    else set.title = t;
  }
  if (patch.seoTitle !== undefined) {
    if (patch.seoTitle.length > SEO_TITLE_MAX) fields.seoTitle = `At most ${SEO_TITLE_MAX} characters.`;
    else set.seoTitle = patch.seoTitle.trim() || null;
  }
  if (patch.seoDescription !== undefined) {
    if (patch.seoDescription.length > SEO_DESCRIPTION_MAX)
      fields.seoDescription = `At most ${SEO_DESCRIPTION_MAX} characters.`;
    else set.seoDescription = patch.seoDescription.trim() || null;
  }
  if (patch.description !== undefined) {
    if (patch.description.length > 5000) fields.description = "At most 5000 characters.";
    else set.description = patch.description;
  }
  if (patch.password !== undefined && patch.password !== null && patch.password.length < PAGE_PASSWORD_MIN)
    fields.password = `A page password needs at least ${PAGE_PASSWORD_MIN} characters.`;
  if (patch.hiddenFromNav !== undefined) set.hiddenFromNav = patch.hiddenFromNav;
  if (patch.seoHidden !== undefined) set.seoHidden = patch.seoHidden;
  throwFieldErrors(fields);
  if (patch.password !== undefined)
    set.passwordHash = patch.password === null ? null : await hashPassword(patch.password);

  return db.transaction(async (tx) => {
    const page = await collectionOf(tx, websiteId, pageId);
    if (patch.urlSlug !== undefined) {
      const slug = checkSlug(patch.urlSlug);
      if (slug !== page.urlSlug) {
        const [clash] = await tx
          .select({ id: collections.id })
          .from(collections)
          .where(and(eq(collections.websiteId, websiteId), eq(collections.urlSlug, slug)));
        if (clash) {
          const m = `Another page already uses the URL /${slug}.`;
          throw new ApiError(409, "conflict", m, { urlSlug: m });
        }
        set.urlSlug = slug;
        // The old address (and its items' addresses) answer 301 to the new ones.
        await recordMove(tx, websiteId, `/${page.urlSlug}`, `/${slug}`, true);
      }
    }
    if (patch.folderBehavior !== undefined) {
      if (page.kind !== "folder")
        throw badRequest("Only folders have a folder behaviour.", { folderBehavior: "Not a folder" });
      if (!(folderBehaviors as readonly string[]).includes(patch.folderBehavior))
        throw badRequest("A folder shows an index, redirects to its first page, or does nothing.", {
          folderBehavior: `One of ${folderBehaviors.join(", ")}`,
        });
      set.folderBehavior = patch.folderBehavior;
    }
    if (patch.options !== undefined) {
      try {
        set.options = {
          ...page.options,
          ...validateFields(page.id, COLLECTION_OPTION_FIELDS[page.kind] ?? [], patch.options),
        };
      } catch (e) {
        if (e instanceof LayoutError) throw badRequest(e.message, { options: e.message });
        throw e;
      }
    }
    if (patch.isHome === true && !page.isHome) {
      if (page.kind !== "page")
        throw badRequest("Only a layout page can be the home page.", { isHome: "Not a page" });
      await tx
        .update(collections)
        .set({ isHome: false })
        .where(and(eq(collections.websiteId, websiteId), eq(collections.isHome, true)));
      set.isHome = true;
    } else if (patch.isHome === false && page.isHome) {
      throw badRequest("A site needs a home page: make another page the home page instead.", {
        isHome: "Required",
      });
    }
    if (!Object.keys(set).length) return pageJson(page);
    const [row] = await tx
      .update(collections)
      .set({ ...set, updatedAt: sql`now()` })
      .where(siteRowWhere(collections, websiteId, pageId))
      .returning();
    await recordVersion(tx, websiteId, { type: "page", id: pageId }, "save");
    return pageJson(row!);
  });
}

interface TreeEntry {
  id: string;
  folderId: string | null;
}

/** Orders the whole navigation at once: every page of the site, in order, with its folder. */
export async function reorderPages(db: Db, websiteId: string, entries: TreeEntry[]): Promise<PageJson[]> {
  await db.transaction(async (tx) => {
    const rows = await tx.select().from(collections).where(eq(collections.websiteId, websiteId));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const ids = new Set(entries.map((e) => e.id));
    if (ids.size !== entries.length || ids.size !== rows.length || entries.some((e) => !byId.has(e.id)))
      throw badRequest("Send every page of the site exactly once, in the new order.");
    for (const e of entries) {
      if (!e.folderId) continue;
      const folder = byId.get(e.folderId);
      if (folder?.kind !== "folder") throw badRequest("Pages can only go inside a folder.");
      if (byId.get(e.id)!.kind === "folder") throw badRequest("A folder cannot go inside another folder.");
    }
    for (const [i, e] of entries.entries()) {
      const r = byId.get(e.id)!;
      if (r.ordering === i && (r.folderId ?? null) === (e.folderId ?? null)) continue;
      await tx
        .update(collections)
        .set({ ordering: i, folderId: e.folderId ?? null })
        .where(siteRowWhere(collections, websiteId, e.id));
    }
    await recordVersion(tx, websiteId, { type: "navigation", id: websiteId }, "save");
  });
  return pageTree(db, websiteId);
}

export async function deletePage(db: Db, websiteId: string, pageId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const page = await collectionOf(tx, websiteId, pageId);
    if (page.isHome)
      throw conflict("The home page cannot be deleted. Make another page the home page first.");
    if (page.kind === "folder") {
      // The folder's pages move to the top level of the navigation rather than disappearing.
      await tx
        .update(collections)
        .set({ folderId: null })
        .where(and(eq(collections.websiteId, websiteId), eq(collections.folderId, pageId)));
    }
    await recordVersion(tx, websiteId, { type: "page", id: pageId }, "delete");
    await moveToTrash(
      tx,
      websiteId,
      page.kind === "page" || page.kind === "folder" ? "page" : "collection",
      pageId,
    );
    await tx.delete(collections).where(siteRowWhere(collections, websiteId, pageId));
  });
}

// ─── Layouts ────────────────────────────────────────────────────────────────────────────────

function layoutJson(page: Collection) {
  const published = (page.layout ?? { rows: [] }) as Layout;
  const draft = (page.draftLayout ?? null) as Layout | null;
  return {
    page: pageJson(page),
    layout: published,
    draft,
    blockCount: countBlocks(draft ?? published),
  };
}

export async function pageLayout(db: Db, websiteId: string, pageId: string) {
  const page = await collectionOf(db, websiteId, pageId);
  if (page.kind !== "page") throw badRequest("Only layout pages have blocks.");
  return layoutJson(page);
}

/** Every id the layout names must be a row of this website. */
async function checkRefs(tx: Tx, websiteId: string, refs: LayoutRefs): Promise<void> {
  const missing = async (
    table: typeof media | typeof forms | typeof collections | typeof contentItems,
    ids: Set<string>,
    what: string,
  ) => {
    if (!ids.size) return;
    const rows = await tx
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.websiteId, websiteId), inArray(table.id, [...ids])));
    if (rows.length !== ids.size) throw badRequest(`The layout refers to ${what} that is not on this site.`);
  };
  await missing(media, refs.media, "an image");
  await missing(forms, refs.forms, "a form");
  await missing(collections, refs.collections, "a collection");
  await missing(contentItems, refs.products, "a product");
}

function parseLayout(input: unknown, opts: { draft?: boolean } = {}) {
  try {
    return validateLayout(input, opts);
  } catch (e) {
    if (e instanceof LayoutError) throw badRequest(e.message, e.field ? { [e.field]: e.message } : undefined);
    throw e;
  }
}

/** Blocks whose feature the site's plan does not enable cannot be added (SPEC §6). */
async function checkFeatures(db: Conn, websiteId: string, layout: Layout): Promise<void> {
  const gated = layout.rows
    .flatMap((r) => r.columns.flatMap((c) => c.blocks))
    .map((b) => blockTypeByName.get(b.type)!)
    .filter((d) => d.feature !== undefined);
  if (!gated.length) return;
  const enabled = await enabledFeatures(db, websiteId);
  const locked = gated.find((d) => !enabled.has(d.feature!));
  if (locked)
    throw badRequest(`The ${locked.label} block needs a plan with the ${locked.featureName} feature.`);
}

/** Autosave: replaces the page's draft (the published layout is untouched until Publish). */
export async function saveDraft(db: Db, websiteId: string, pageId: string, input: unknown) {
  const { layout, refs } = parseLayout(input, { draft: true });
  return db.transaction(async (tx) => {
    const page = await collectionOf(tx, websiteId, pageId);
    if (page.kind !== "page") throw badRequest("Only layout pages have blocks.");
    await checkRefs(tx, websiteId, refs);
    await checkFeatures(tx, websiteId, layout);
    const [row] = await tx
      .update(collections)
      .set({ draftLayout: layout, updatedAt: sql`now()` })
      .where(siteRowWhere(collections, websiteId, pageId))
      .returning();
    await recordVersion(tx, websiteId, { type: "page", id: pageId }, "draft");
    return layoutJson(row!);
  });
}

/** Publish: the draft (or the layout sent) becomes the live layout; cached pages are invalidated. */
export async function publishPage(db: Db, websiteId: string, pageId: string, input?: unknown) {
  const parsed = input === undefined ? undefined : parseLayout(input);
  return db.transaction(async (tx) => {
    const page = await collectionOf(tx, websiteId, pageId);
    if (page.kind !== "page") throw badRequest("Only layout pages have blocks.");
    let layout: Layout;
    if (parsed) {
      await checkRefs(tx, websiteId, parsed.refs);
      layout = parsed.layout;
    } else if (page.draftLayout) {
      // A draft saved before a block type or a limit changed is checked again.
      const again = parseLayout(page.draftLayout);
      await checkRefs(tx, websiteId, again.refs);
      layout = again.layout;
    } else {
      layout = (page.layout ?? { rows: [] }) as Layout;
    }
    await checkFeatures(tx, websiteId, layout);
    const [row] = await tx
      .update(collections)
      .set({ layout, draftLayout: null, updatedAt: sql`now()` })
      .where(siteRowWhere(collections, websiteId, pageId))
      .returning();
    await tx
      .update(websites)
      .set({ contentVersion: sql`${websites.contentVersion} + 1`, updatedAt: sql`now()` })
      .where(eq(websites.id, websiteId));
    await recordVersion(tx, websiteId, { type: "page", id: pageId }, "publish");
    return layoutJson(row!);
  });
}

export async function discardDraft(db: Db, websiteId: string, pageId: string) {
  return db.transaction(async (tx) => {
    await collectionOf(tx, websiteId, pageId);
    const [row] = await tx
      .update(collections)
      .set({ draftLayout: null })
      .where(siteRowWhere(collections, websiteId, pageId))
      .returning();
    await recordVersion(tx, websiteId, { type: "page", id: pageId }, "save", {
      summary: "Discarded the draft",
    });
    return layoutJson(row!);
  });
}

// ─── Block types by plan ────────────────────────────────────────────────────────────────────

/**
 * Features the website may use (SPEC §4): its feature set's features; on a trial, only those in
 * every plan of the website product line.
 */
async function enabledFeatures(db: Conn, websiteId: string): Promise<Set<number>> {
  const [site] = await db
    .select({ featureSetId: websites.featureSetId, siteStatus: websites.siteStatus })
    .from(websites)
    .where(eq(websites.id, websiteId));
  if (!site?.featureSetId) return new Set();
  const sets = await db.select().from(featureSets).where(eq(featureSets.productLine, "website"));
  const own = sets.find((s) => s.id === site.featureSetId);
  if (!own) return new Set();
  let enabled = new Set(own.enabledFeatures);
  if (site.siteStatus === SiteStatus.TRIAL) {
    enabled = new Set([...enabled].filter((f) => sets.every((s) => s.enabledFeatures.includes(f))));
  }
  return enabled;
}

export async function blockTypes(db: Db, websiteId: string) {
  return blockTypesFor(await enabledFeatures(db, websiteId));
}
