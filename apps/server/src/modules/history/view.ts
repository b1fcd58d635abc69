/**
 * What the storefront needs to show an older version of a page or post (render/version-view.ts):
 * the page's or post's row as it was in the version, and its address on the site.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import { collections, contentItems } from "../../db/schema.js";
import { badRequest, notFound } from "../../http/errors.js";
import type { VersionView } from "../../render/version-view.js";
import { type Content, rowValues } from "./entities.js";
import type { EntityRef } from "./service.js";

const GONE = "It has been deleted since: restore it from the trash to see its versions on the site.";

/** The version's row laid over the current one, and the path the storefront renders it at. */
export async function versionView(
  db: Db,
  websiteId: string,
  e: EntityRef,
  content: Content,
): Promise<{ view: VersionView; path: string }> {
  if (e.type === "page") {
    const [now] = await db
      .select()
      .from(collections)
      .where(and(eq(collections.websiteId, websiteId), eq(collections.id, e.id)));
    if (!now) throw notFound(GONE);
    const then = rowValues(collections, content, [
      "id",
      "websiteId",
      "kind",
      "isHome",
      "folderId",
      "ordering",
    ]);
    // The page as its editor showed it at that moment: the draft when there was one.
    const layout = (content.draft ?? content.layout ?? now.layout) as typeof now.layout;
    const collection = { ...now, ...then, passwordHash: now.passwordHash, layout, draftLayout: null };
    return {
      view: { websiteId, collection },
      path: collection.isHome ? "/" : `/${encodeURIComponent(collection.urlSlug)}`,
    };
  }
  if (e.type === "item") {
    const [now] = await db
      .select()
      .from(contentItems)
      .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.id, e.id)));
    if (!now || now.recordType === RecordType.STORE_ITEM) throw notFound(GONE);
    const [c] = await db
      .select()
      .from(collections)
      .where(and(eq(collections.websiteId, websiteId), eq(collections.id, now.collectionId)));
    if (!c) throw notFound(GONE);
    const then = rowValues(contentItems, content, ["id", "websiteId", "collectionId", "recordType"]);
    const item = { ...now, ...then, status: "published" } as typeof now;
    return {
      view: { websiteId, item },
      path: `/${encodeURIComponent(c.urlSlug)}/${encodeURIComponent(item.urlId)}`,
    };
  }
  throw badRequest("Only a version of a page or post can be shown on the site.", {
    versionId: "Not a page or post",
  });
}
