/**
 * What a version holds for each kind of entity, read in the saving transaction, and how a version is
 * written back. The content is plain JSON of the entity's own columns: a page's settings and its
 * published and draft layouts; an item's fields; a product's fields, images and variants (but not
 * their stock, which is inventory); the design; a template override; the navigation; the settings.
 */
import { and, asc, eq, getTableColumns, inArray, ne } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Tx } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import {
  collections,
  contentItems,
  media,
  productVariants,
  siteDesigns,
  templateOverrides,
  websiteSettings,
  websites,
} from "../../db/schema.js";
import { badRequest } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";

export const ENTITY_TYPES = [
  "page",
  "item",
  "product",
  "design",
  "template",
  "navigation",
  "settings",
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
export type Content = Record<string, unknown>;

/** The types whose id is the site's own id (one per site). */
export const SITE_WIDE: readonly EntityType[] = ["design", "navigation", "settings"];

/** A row as JSON (times as ISO strings), without the columns named. */
export function rowJson(row: Record<string, unknown>, omit: string[]): Content {
  const out: Content = {};
  for (const [k, v] of Object.entries(row)) {
    if (omit.includes(k)) continue;
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

/** JSON of a row back into column values of `table` (ISO strings into times; unknown keys dropped). */
export function rowValues(table: PgTable, json: Content, omit: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) {
    if (!(key in json) || omit.includes(key)) continue;
    const v = json[key];
    out[key] = col.columnType === "PgTimestamp" && typeof v === "string" ? new Date(v) : v;
  }
  return out;
}

const ROW_KEYS = ["id", "websiteId", "createdAt", "updatedAt"];
const PAGE_OMIT = [
  ...ROW_KEYS,
  "passwordHash",
  "ordering",
  "folderId",
  "isHome",
  "kind",
  "layout",
  "draftLayout",
];
const ITEM_OMIT = [...ROW_KEYS, "collectionId", "recordType", "likeCount", "ordering", "isSample"];
const VARIANT_OMIT = ["websiteId", "itemId", "qtyInStock", "createdAt", "updatedAt"];
const SETTINGS_OMIT = ["websiteId", "captchaSecretKey", "updatedAt", "setupGuideDismissed"];
const DESIGN_OMIT = ["websiteId", "updatedAt"];

async function pageContent(tx: Tx, websiteId: string, id: string): Promise<Content | null> {
  const [p] = await tx
    .select()
    .from(collections)
    .where(and(eq(collections.websiteId, websiteId), eq(collections.id, id)));
  if (!p) return null;
  return { ...rowJson(p, PAGE_OMIT), kind: p.kind, layout: p.layout ?? null, draft: p.draftLayout ?? null };
}

async function itemContent(tx: Tx, websiteId: string, id: string, product: boolean): Promise<Content | null> {
  const [i] = await tx
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.id, id)));
  if (!i || (i.recordType === RecordType.STORE_ITEM) !== product) return null;
  const out = rowJson(i, ITEM_OMIT);
  if (!product) return out;
  const variants = await tx
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.websiteId, websiteId), eq(productVariants.itemId, id)))
    .orderBy(asc(productVariants.ordering));
  return { ...out, variants: variants.map((v) => rowJson(v, VARIANT_OMIT)) };
}

async function designContent(tx: Tx, websiteId: string): Promise<Content | null> {
  const [site] = await tx.select({ theme: websites.theme }).from(websites).where(eq(websites.id, websiteId));
  if (!site) return null;
  const [d] = await tx.select().from(siteDesigns).where(eq(siteDesigns.websiteId, websiteId));
  return {
    theme: site.theme,
    ...(d
      ? rowJson(d, DESIGN_OMIT)
      : {
          styles: {},
          customCss: "",
          logoMediaId: null,
          logoAlt: "",
          logoMaxHeight: 48,
          siteIconMediaId: null,
          socialImageMediaId: null,
        }),
  };
}

async function navigationContent(tx: Tx, websiteId: string): Promise<Content> {
  const rows = await tx
    .select({
      id: collections.id,
      title: collections.title,
      folderId: collections.folderId,
      hiddenFromNav: collections.hiddenFromNav,
    })
    .from(collections)
    .where(eq(collections.websiteId, websiteId))
    .orderBy(asc(collections.ordering), asc(collections.id));
  return { pages: rows };
}

async function settingsContent(tx: Tx, websiteId: string): Promise<Content | null> {
  const [site] = await tx
    .select({
      title: websites.title,
      tagline: websites.tagline,
      timeZone: websites.timeZone,
      locale: websites.locale,
    })
    .from(websites)
    .where(eq(websites.id, websiteId));
  if (!site) return null;
  const [s] = await tx.select().from(websiteSettings).where(eq(websiteSettings.websiteId, websiteId));
  return { ...site, ...(s ? rowJson(s, SETTINGS_OMIT) : {}) };
}

/** The entity's content now, in the transaction; null when it does not exist. */
export async function snapshot(
  tx: Tx,
  websiteId: string,
  type: EntityType,
  id: string,
): Promise<Content | null> {
  switch (type) {
    case "page":
      return pageContent(tx, websiteId, id);
    case "item":
      return itemContent(tx, websiteId, id, false);
    case "product":
      return itemContent(tx, websiteId, id, true);
    case "design":
      return designContent(tx, websiteId);
    case "navigation":
      return navigationContent(tx, websiteId);
    case "settings":
      return settingsContent(tx, websiteId);
    case "template": {
      const [t] = await tx
        .select({ source: templateOverrides.source })
        .from(templateOverrides)
        .where(and(eq(templateOverrides.websiteId, websiteId), eq(templateOverrides.name, id)));
      return { name: id, source: t?.source ?? null };
    }
  }
}

/** A page title or item title for the history's headings. */
export function titleOf(type: EntityType, content: Content | null): string {
  if (type === "template") return String(content?.name ?? "");
  return typeof content?.title === "string" ? content.title : "";
}

/** Media ids among `ids` that are still in the site (a version may name an image since deleted). */
async function liveMedia(tx: Tx, websiteId: string, ids: unknown[]): Promise<Set<string>> {
  const wanted = ids.filter((v): v is string => typeof v === "string" && v !== "");
  if (!wanted.length) return new Set();
  const rows = await tx
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.websiteId, websiteId), inArray(media.id, wanted)));
  return new Set(rows.map((r) => r.id));
}

const GONE = "It has been deleted since: restore it from the trash first.";

async function restorePage(tx: Tx, websiteId: string, id: string, c: Content, publish: boolean) {
  const [now] = await tx
    .select()
    .from(collections)
    .where(and(eq(collections.websiteId, websiteId), eq(collections.id, id)));
  if (!now) throw badRequest(GONE);
  const values = rowValues(collections, c, [...PAGE_OMIT, "urlSlug"]);
  if (typeof c.urlSlug === "string" && c.urlSlug !== now.urlSlug) {
    const [clash] = await tx
      .select({ id: collections.id })
      .from(collections)
      .where(
        and(eq(collections.websiteId, websiteId), eq(collections.urlSlug, c.urlSlug), ne(collections.id, id)),
      );
    if (!clash) values.urlSlug = c.urlSlug;
  }
  if (now.kind === "page") {
    const layout = c.draft ?? c.layout ?? { rows: [] };
    if (publish) Object.assign(values, { layout, draftLayout: null });
    else values.draftLayout = layout;
  }
  await tx
    .update(collections)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(collections.websiteId, websiteId), eq(collections.id, id)));
}

async function restoreItem(tx: Tx, websiteId: string, id: string, c: Content, product: boolean) {
  const [now] = await tx
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.id, id)));
  if (!now) throw badRequest(GONE);
  const values = rowValues(contentItems, c, [...ITEM_OMIT, "urlId"]);
  const imageIds = (c.imageIds as string[] | undefined) ?? [];
  const variants = product ? ((c.variants as Content[] | undefined) ?? []) : [];
  const live = await liveMedia(tx, websiteId, [
    c.mainImageId,
    ...imageIds,
    ...variants.map((v) => v.mainImageId),
  ]);
  values.mainImageId = typeof c.mainImageId === "string" && live.has(c.mainImageId) ? c.mainImageId : null;
  values.imageIds = imageIds.filter((m) => live.has(m));
  if (typeof c.urlId === "string" && c.urlId !== now.urlId) {
    const [clash] = await tx
      .select({ id: contentItems.id })
      .from(contentItems)
      .where(
        and(
          eq(contentItems.collectionId, now.collectionId),
          eq(contentItems.urlId, c.urlId),
          ne(contentItems.id, id),
        ),
      );
    if (!clash) values.urlId = c.urlId;
  }
  await tx
    .update(contentItems)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.id, id)));
  if (product) await restoreVariants(tx, websiteId, id, variants, live);
}

/** The product's variants as in the version; stock stays what it is now (new variants start at 0). */
async function restoreVariants(
  tx: Tx,
  websiteId: string,
  itemId: string,
  wanted: Content[],
  live: Set<string>,
) {
  const now = await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(and(eq(productVariants.websiteId, websiteId), eq(productVariants.itemId, itemId)));
  const keep = new Set(wanted.map((v) => String(v.id)));
  const gone = now.filter((v) => !keep.has(v.id)).map((v) => v.id);
  if (gone.length) await tx.delete(productVariants).where(inArray(productVariants.id, gone));
  const existing = new Set(now.map((v) => v.id));
  for (const v of wanted) {
    const values = rowValues(productVariants, v, VARIANT_OMIT);
    values.mainImageId = typeof v.mainImageId === "string" && live.has(v.mainImageId) ? v.mainImageId : null;
    const id = String(v.id);
    const [skuClash] = await tx
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(
        and(
          eq(productVariants.websiteId, websiteId),
          eq(productVariants.sku, String(v.sku)),
          ne(productVariants.id, id),
        ),
      );
    if (skuClash) values.sku = `${String(v.sku)}-${newId().slice(0, 4)}`;
    if (existing.has(id)) {
      delete values.id;
      await tx
        .update(productVariants)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(productVariants.id, id));
    } else {
      await tx
        .insert(productVariants)
        .values({ ...(values as typeof productVariants.$inferInsert), id, websiteId, itemId, qtyInStock: 0 });
    }
  }
}

async function restoreDesign(tx: Tx, websiteId: string, c: Content) {
  const live = await liveMedia(tx, websiteId, [c.logoMediaId, c.siteIconMediaId, c.socialImageMediaId]);
  const values = rowValues(siteDesigns, c, DESIGN_OMIT);
  for (const k of ["logoMediaId", "siteIconMediaId", "socialImageMediaId"] as const)
    values[k] = typeof c[k] === "string" && live.has(c[k] as string) ? c[k] : null;
  const set = { ...values, updatedAt: new Date() } as Partial<typeof siteDesigns.$inferInsert>;
  await tx
    .insert(siteDesigns)
    .values({ ...set, websiteId })
    .onConflictDoUpdate({ target: siteDesigns.websiteId, set });
  if (typeof c.theme === "string")
    await tx
      .update(websites)
      .set({ theme: c.theme, updatedAt: new Date() })
      .where(eq(websites.id, websiteId));
}

async function restoreNavigation(tx: Tx, websiteId: string, c: Content) {
  const wanted = (c.pages as { id: string; folderId: string | null; hiddenFromNav: boolean }[]) ?? [];
  const rows = await tx.select().from(collections).where(eq(collections.websiteId, websiteId));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const order = wanted.filter((p) => byId.has(p.id));
  const placed = new Set(order.map((p) => p.id));
  // Pages made since keep their place after the ones the version knew.
  const later = rows
    .filter((r) => !placed.has(r.id))
    .sort((a, b) => a.ordering - b.ordering)
    .map((r) => ({ id: r.id, folderId: r.folderId, hiddenFromNav: r.hiddenFromNav }));
  for (const [i, p] of [...order, ...later].entries()) {
    const folder = p.folderId && byId.get(p.folderId)?.kind === "folder" ? p.folderId : null;
    await tx
      .update(collections)
      .set({ ordering: i, folderId: folder, hiddenFromNav: p.hiddenFromNav })
      .where(and(eq(collections.websiteId, websiteId), eq(collections.id, p.id)));
  }
}

async function restoreSettings(tx: Tx, websiteId: string, c: Content) {
  const site = rowValues(websites, c);
  const own = { title: site.title, tagline: site.tagline, timeZone: site.timeZone, locale: site.locale };
  await tx
    .update(websites)
    .set({ ...(own as Partial<typeof websites.$inferInsert>), updatedAt: new Date() })
    .where(eq(websites.id, websiteId));
  const values = rowValues(websiteSettings, c, SETTINGS_OMIT) as Partial<typeof websiteSettings.$inferInsert>;
  if (Object.keys(values).length)
    await tx.update(websiteSettings).set(values).where(eq(websiteSettings.websiteId, websiteId));
}

/** Writes a version's content back as the entity's current state (in the restore's transaction). */
export async function writeBack(
  tx: Tx,
  websiteId: string,
  type: EntityType,
  id: string,
  c: Content,
  publish: boolean,
): Promise<void> {
  switch (type) {
    case "page":
      return restorePage(tx, websiteId, id, c, publish);
    case "item":
      return restoreItem(tx, websiteId, id, c, false);
    case "product":
      return restoreItem(tx, websiteId, id, c, true);
    case "design":
      return restoreDesign(tx, websiteId, c);
    case "navigation":
      return restoreNavigation(tx, websiteId, c);
    case "settings":
      return restoreSettings(tx, websiteId, c);
    case "template": {
      const where = and(eq(templateOverrides.websiteId, websiteId), eq(templateOverrides.name, id));
      if (typeof c.source !== "string") {
        await tx.delete(templateOverrides).where(where);
        return;
      }
      await tx
        .insert(templateOverrides)
        .values({ websiteId, name: id, source: c.source })
        .onConflictDoUpdate({
          target: [templateOverrides.websiteId, templateOverrides.name],
          set: { source: c.source, updatedAt: new Date() },
        });
    }
  }
}
