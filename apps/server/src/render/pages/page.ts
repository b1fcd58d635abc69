/** Regular pages: layout pages (2), the cover page (splash, 3) and folders. */
import { PageType } from "../../db/enums.js";
import { type Collection, mediaByIds } from "../../modules/content/service.js";
import { resolveLayout } from "../blocks.js";
import { collectionJson, imageJson } from "../serialize.js";
import { type Ctx, type Json, type PageResult, blockDeps } from "./shared.js";

/** A layout page (page type 2). */
export async function pageBody(ctx: Ctx, c: Collection): Promise<Json> {
  const source = ctx.req.editing?.preview && c.draftLayout ? c.draftLayout : c.layout;
  const layout = await resolveLayout(blockDeps(ctx), source);
  return {
    collection: collectionJson(c),
    pageTitle: c.isHome ? undefined : c.seoTitle || c.title,
    metaDescription: c.seoDescription || ctx.site.tagline,
    layout,
    isHome: c.isHome,
  };
}

/** A cover page (splash, page type 3): a full-bleed background and the home page's blocks over it. */
export async function splashBody(ctx: Ctx, home: Collection): Promise<Json> {
  const o = home.options ?? {};
  const bgId = typeof o.backgroundImageId === "string" ? o.backgroundImageId : undefined;
  const images = await mediaByIds(ctx.db, ctx.site.id, bgId ? [bgId] : []);
  const background = bgId ? imageJson(images.get(bgId)) : undefined;
  const body = await pageBody(ctx, home);
  const align = ["center", "left", "right"].includes(String(o.alignment)) ? String(o.alignment) : "center";
  return {
    ...body,
    cover: {
      headline: typeof o.headline === "string" ? o.headline : ctx.site.title,
      tagline: typeof o.tagline === "string" ? o.tagline : ctx.site.tagline,
      backgroundSource: background ? "upload" : "none",
      background,
      alignment: align,
      overlayOpacity: Math.min(0.9, Math.max(0, Number(o.overlayOpacity ?? 0.35) || 0)),
      buttons: (Array.isArray(o.buttons) ? o.buttons : [])
        .slice(0, 3)
        .map((b: Record<string, unknown>) => ({
          label: String(b?.label ?? "").slice(0, 80),
          href: String(b?.href ?? "#"),
        }))
        .filter((b: { label: string; href: string }) => b.label && /^(https?:|\/|#|mailto:)/.test(b.href)),
    },
  };
}

export async function folderPage(ctx: Ctx, folder: Collection): Promise<PageResult> {
  const children = ctx.all.filter((c) => c.folderId === folder.id && !c.hiddenFromNav);
  if (folder.folderBehavior === "redirect" && children[0]) {
    return { ...ctx.page(302, PageType.MAIN_CONTENT, "folder", {}), redirect: `/${children[0].urlSlug}` };
  }
  if (folder.folderBehavior === "none") return ctx.notFound();
  return ctx.page(200, PageType.MAIN_CONTENT, "folder", {
    collection: collectionJson(folder),
    pageTitle: folder.title,
    items: children.map((c) => ({ ...collectionJson(c), excerpt: c.description })),
  });
}
