/** Types and helpers the page-type modules share (SPEC §2 page types). */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import { contentItems } from "../../db/schema.js";
import { variantsOf } from "../../modules/catalog/service.js";
import {
  type Collection,
  type ContentItem,
  commentCounts,
  mediaByIds,
} from "../../modules/content/service.js";
import type { EditingMode } from "../../modules/pages/preview.js";
import type { Website, settingsOf } from "../../modules/sites/service.js";
import type { Visitor } from "../access.js";
import type { VersionView } from "../version-view.js";
import { itemJson } from "../serialize.js";

export interface PageRequest {
  path: string;
  query: Record<string, string | undefined>;
  now: Date;
  publicUrl: string;
  visitor: Visitor;
  /** The owner's editing mode (preview drafts, override passwords, editing frame, safe mode). */
  editing?: EditingMode;
  /**
   * The site's content version read before this request read anything else: the site-wide
   * data (collections, settings, features) is then reused from earlier requests at that version.
   */
  version?: number;
  /** An older version of a page or post to show instead of its current content (History). */
  versionView?: VersionView;
}

export interface PageResult {
  status: number;
  pageType: number;
  /** The theme template that renders the page's main content. */
  template: string;
  context: Record<string, unknown>;
  /** The same for every visitor: may be cached per site and path. */
  cacheable: boolean;
  /** Answer with a redirect instead (folders that redirect to their first page). */
  redirect?: string;
}

export type Json = Record<string, unknown>;

export interface Ctx {
  db: Db;
  site: Website;
  req: PageRequest;
  all: Collection[];
  currency: string;
  features: Set<number>;
  settings: Awaited<ReturnType<typeof settingsOf>>;
  page(status: number, pageType: number, template: string, rest: Json, cacheable?: boolean): PageResult;
  notFound(): PageResult;
  state: { private: boolean };
  /** Published items of a collection in its order (cached for the content version). */
  rowsOf(c: Collection): Promise<ContentItem[]>;
  /** The JSON of these items (cached for the content version). */
  jsonOf(c: Collection, rows: ContentItem[]): Promise<Json[]>;
}

export function blocksOf(layout: unknown): { type: string; formId?: string }[] {
  const rows = (
    layout as { rows?: { columns?: { blocks?: { type: string; formId?: string }[] }[] }[] } | null
  )?.rows;
  return (rows ?? []).flatMap((r) => (r.columns ?? []).flatMap((c) => c.blocks ?? []));
}

export function blockDeps(ctx: Ctx) {
  return {
    safeMode: Boolean(ctx.req.editing?.disableUserScripts),
    editingFrame: Boolean(ctx.req.editing?.expandedFrame),
    db: ctx.db,
    websiteId: ctx.site.id,
    collections: ctx.all,
    features: ctx.features,
    summaryItems: async (target: Collection, limit: number) => {
      let rows = await ctx.rowsOf(target);
      if (target.kind === "blog") rows = rows.filter((i) => !i.publishOn || i.publishOn <= ctx.req.now);
      if (target.kind === "events")
        rows = rows.filter((i) => (i.endDate ?? i.startDate ?? ctx.req.now) >= ctx.req.now);
      return ctx.jsonOf(target, rows.slice(0, limit));
    },
    productItems: async (ids: string[]) => {
      const rows = await ctx.db
        .select()
        .from(contentItems)
        .where(
          and(
            eq(contentItems.websiteId, ctx.site.id),
            inArray(contentItems.id, ids),
            eq(contentItems.recordType, RecordType.STORE_ITEM),
            eq(contentItems.status, "published"),
          ),
        );
      const out = new Map<string, unknown>();
      for (const r of rows) {
        const c = ctx.all.find((x) => x.id === r.collectionId);
        if (!c) continue;
        const [json] = await ctx.jsonOf(c, [r]);
        out.set(r.id, json);
      }
      return out;
    },
  };
}

export async function itemsJson(
  db: Db,
  websiteId: string,
  collection: Collection,
  rows: ContentItem[],
  currency: string,
): Promise<Json[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const products = rows.filter((r) => r.recordType === RecordType.STORE_ITEM).map((r) => r.id);
  const [variants, counts] = await Promise.all([
    variantsOf(db, websiteId, products),
    commentCounts(db, websiteId, ids),
  ]);
  const mediaIds = rows.flatMap((r) => [r.mainImageId ?? "", ...r.imageIds]);
  for (const list of variants.values()) for (const v of list) if (v.mainImageId) mediaIds.push(v.mainImageId);
  const images = await mediaByIds(db, websiteId, mediaIds);
  return rows.map(
    (r) =>
      itemJson(collection, r, {
        images,
        currency,
        variants: variants.get(r.id),
        commentCount: counts.get(r.id) ?? 0,
      }) as Json,
  );
}

/** A system page: its page type, template and title, and whether it is the same for every visitor. */
export interface SystemPage {
  pageType: number;
  template: string;
  title: string;
  cacheable?: boolean;
}
