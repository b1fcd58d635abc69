/**
 * Path to page: resolves a request path of a website to its page type (SPEC §2), its HTTP
 * status, the theme template that renders it, and the JSON context (which `?format=json`
 * answers). The context of each page type is built in pages/.
 */
import type { Db } from "../db/client.js";
import { PageType, WebsiteType } from "../db/enums.js";
import { safeDecode } from "../lib/safe-decode.js";
import { type Collection, type ContentItem, itemsOf } from "../modules/content/service.js";
import type { Website } from "../modules/sites/service.js";
import { accountPage } from "./account-pages.js";
import { albumPage, blogPage, eventsPage, galleryPage, productsPage } from "./pages/collection-lists.js";
import { itemPage } from "./pages/items.js";
import { folderPage, pageBody, splashBody } from "./pages/page.js";
import { type Ctx, type Json, type PageRequest, type PageResult, itemsJson } from "./pages/shared.js";
import { censusProps, siteContext } from "./pages/site-context.js";
import { type CollectionItems, siteData } from "./pages/site-data.js";
import { SYSTEM_PAGES, accessGate, systemPage } from "./pages/system-pages.js";
import { htmlToText } from "./sanitize.js";
import { withViewedItem, withViewedPage } from "./version-view.js";

export type { PageResult } from "./pages/shared.js";
export { siteDataCache } from "./pages/site-data.js";

/** The page at a collection's own address, by its kind (a regular page aside). */
const LIST_PAGES = new Map<string, (ctx: Ctx, c: Collection) => Promise<PageResult>>([
  ["folder", folderPage],
  ["products", productsPage],
  ["blog", blogPage],
  ["events", eventsPage],
  ["gallery", galleryPage],
  ["album", albumPage],
]);

export async function buildPageContext(db: Db, stored: Website, req: PageRequest): Promise<PageResult> {
  // The tagline is plain text wherever a page uses it (rows written before this rule included).
  const site = { ...stored, tagline: htmlToText(stored.tagline) };
  const data = await siteData(db, site, req.version);
  const { settings, features } = data;
  const view = req.versionView;
  const all = withViewedPage(data.all, view);
  const currency = settings.store.currency;
  const segments = req.path.split("/").filter(Boolean).map(safeDecode);
  const { base, isCommerce, markActive } = siteContext(site, all, settings, features, req);
  // Pages behind a password or a member area differ per visitor: never cached.
  const state = { private: false };
  const page = (
    status: number,
    pageType: number,
    template: string,
    rest: Json,
    cacheable = (status === 200 || status === 404) && !state.private,
  ): PageResult => ({
    status,
    pageType,
    template,
    cacheable,
    context: {
      ...base,
      pageType,
      // SPEC §2: no cart pill on cart and checkout pages.
      showCartPill:
        isCommerce &&
        ![PageType.SHOW_CART, PageType.CHECKOUT, PageType.COMMERCE_CART_V2].includes(
          pageType as 200 | 201 | 205,
        ),
      ...rest,
      census: censusProps(site.id, pageType, rest, settings.site),
    },
  });
  const notFound = () =>
    page(404, PageType.NOT_FOUND, "not-found", { pageTitle: "Page Not Found", notFound: { path: req.path } });
  const items = data.items;
  const load = (c: Collection): Promise<CollectionItems> => {
    let p = items.get(c.id);
    if (!p) {
      p = (async () => {
        const rows = withViewedItem(await itemsOf(db, site.id, c), c, view);
        const json = await itemsJson(db, site.id, c, rows, currency);
        return { rows, byId: new Map(json.map((j) => [j.id as string, j])) };
      })();
      items.set(c.id, p);
      p.catch(() => items.delete(c.id));
    }
    return p;
  };
  const rowsOf = async (c: Collection) => (await load(c)).rows;
  const jsonOf = async (c: Collection, rows: ContentItem[]): Promise<Json[]> => {
    const { byId } = await load(c);
    // The viewed post's JSON is made from its version, never taken from a cache of the current one.
    const missing = rows.filter((r) => !byId.has(r.id) || r.id === view?.item?.id);
    const extra = missing.length ? await itemsJson(db, site.id, c, missing, currency) : [];
    const extraById = new Map(extra.map((j) => [j.id as string, j]));
    return rows.map((r) => extraById.get(r.id) ?? byId.get(r.id)!);
  };
  const ctx: Ctx = {
    db,
    site,
    req,
    all,
    currency,
    features,
    settings,
    page,
    notFound,
    state,
    rowsOf,
    jsonOf,
  };

  // The home page (a cover page site's home is its splash page).
  if (segments.length === 0) {
    const home = all.find((c) => c.isHome);
    if (!home) return notFound();
    const gate = await accessGate(ctx, home);
    if (gate) return gate;
    if (site.websiteType === WebsiteType.COVER_PAGE) {
      return page(200, PageType.SPLASH, "splash", await splashBody(ctx, home));
    }
    return page(200, PageType.PAGE, "page", await pageBody(ctx, home));
  }
  const system = SYSTEM_PAGES[segments.join("/")];
  if (system) return systemPage(ctx, system);
  const account = accountPage(segments);
  if (account) return page(200, PageType.PAGE, "system", account, false);

  const [first, ...rest] = segments as [string, ...string[]];
  const collection = all.find((c) => c.urlSlug === first && !c.isHome);
  if (!collection) return notFound();
  markActive(`/${collection.urlSlug}`);
  const gate = await accessGate(ctx, collection);
  if (gate) return gate;

  if (rest.length === 0) {
    if (collection.kind === "page") return page(200, PageType.PAGE, "page", await pageBody(ctx, collection));
    const listPage = LIST_PAGES.get(collection.kind);
    return listPage ? listPage(ctx, collection) : notFound();
  }
  const slug =
    collection.kind === "products"
      ? rest[0] === "p" && rest.length === 2
        ? rest[1]
        : undefined
      : rest.length === 1 && ["blog", "events", "gallery", "album"].includes(collection.kind)
        ? rest[0]
        : undefined;
  if (!slug) return notFound();
  const item = (await ctx.rowsOf(collection)).find((i) => i.urlId === slug);
  const scheduled = collection.kind === "blog" && item?.publishOn && item.publishOn > req.now;
  if (!item || (scheduled && item.id !== view?.item?.id)) return notFound();
  return itemPage(ctx, collection, item);
}
