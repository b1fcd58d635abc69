/**
 * Published sites: every page path of the website the host names, rendered with the site's
 * JSON-T theme (or answered as its JSON context with `?format=json` / `?format=json-pretty`),
 * through the page cache; theme stylesheets; the lock screen's unlock call. Also registers the
 * media, content (likes) and search routes.
 */
import { htmlToText } from "./sanitize.js";
import { escapeHtml, loadLocale } from "@atelier/jsont";
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { and, eq } from "drizzle-orm";
import { proxyTrust } from "../http/client-address.js";
import { PageType } from "../db/enums.js";
import { collections } from "../db/schema.js";
import { ensureCrumb, requireCrumb } from "../http/crumb.js";
import { ApiError, errorBody, notFound } from "../http/errors.js";
import { verifyPassword } from "../lib/passwords.js";
import { CART_COOKIE } from "../modules/cart/routes.js";
import { cartQuantity } from "../modules/cart/service.js";
import { contentRoutes } from "../modules/content/routes.js";
import { mediaRoutes } from "../modules/media/routes.js";
import { completeMedia } from "../modules/media/service.js";
import { searchRoutes } from "../modules/search/routes.js";
import { NO_WEBSITE_HERE, type Website, knownWebsiteForHost, siteBaseUrl } from "../modules/sites/service.js";
import { unlockCookieName, unlockToken, visitorOf } from "./access.js";
import {
  NOT_EDITING,
  editingModeOf,
  hasEditingCookies,
  isEditing,
  ownsWebsite,
} from "../modules/pages/preview.js";
import { pageCsp } from "../http/csp.js";
import { type Precompressed, precompress, sendPrecompressed } from "../http/compression.js";
import { storefrontAssets } from "./storefront-assets.js";
import { prioritiseFirstImage } from "./first-image.js";
import { answeredFromCache, offlineForVisitors, pageKey } from "./page-hits.js";
import { warmPages } from "./warm-pages.js";
import { type CachedPage, PageCache } from "./cache.js";
import { LruMap } from "../lib/lru.js";
import { safeDecode } from "../lib/safe-decode.js";
import { feedUrlFor, robotsMetaFor, structuredDataFor } from "./structured-data.js";
import { blogRss, eventsIcal } from "../modules/seo/feeds.js";
import { collectionsOf } from "../modules/content/service.js";
import { memberRule } from "./access.js";
import { type Redirect, hasQueryRules, listRedirects, matchRedirect } from "../modules/redirects/service.js";
import { type DesignView, designView } from "../modules/design/service.js";

const FEED_FORMATS = new Set(["rss", "RSS", "ical", "ics"]);

import { type PageResult, buildPageContext, siteDataCache } from "./page-context.js";
import { type SiteTemplates, type Theme, Themes } from "./themes.js";
import { sitePopupsOf } from "../modules/site-popups/settings.js";
import { withSitePopups } from "../modules/site-popups/render.js";
import { SiteTemplateCache } from "./site-templates.js";
import { accountForSession } from "../modules/accounts/service.js";
import { OWNER_SESSION_COOKIE } from "../http/owner-auth.js";
import { type TemplateError, formatError } from "@atelier/jsont";
import { Id } from "../http/schemas.js";
import { versionViewOf } from "./version-view.js";

/** The editing frame's notice of what went wrong in the owner's own templates (never on the public site). */
function withErrorNotice(html: string, errors: TemplateError[], names: string[]): string {
  const items = errors
    .slice(0, 10)
    .map((e) => `<li>${escapeHtml(formatError(e))}</li>`)
    .join("");
  const notice = `<div role="alert" data-template-errors style="position:fixed;left:12px;right:12px;bottom:12px;z-index:2147483647;padding:12px 16px;border-radius:8px;background:#fff4f2;color:#8a1c10;border:1px solid #e8b4ab;font:14px/1.4 system-ui,sans-serif;box-shadow:0 4px 16px rgba(0,0,0,.15)"><strong>Your templates (${escapeHtml(names.join(", "))}) have errors here; visitors see the theme's version of this page.</strong><ul style="margin:6px 0 0;padding-left:20px">${items}</ul></div>`;
  const at = html.lastIndexOf("</body>");
  return at === -1 ? html + notice : html.slice(0, at) + notice + html.slice(at);
}

/** Where the visitor's cart count goes in a cached page (filled in for each answer). */
const QTY = "\uE000Q\uE001";
const LABEL = "\uE000L\uE001";
const SENTINELS = /\uE000([QL])\uE001/;
/** Cart counts whose filled-in, compressed page a cached page keeps (0 is most visitors'). */
const KEPT_COUNTS = 4;

/** The cart count as the header shows it: capped at 100, shown as 100+ (SPEC §2, §9). */
export function cartLabel(count: number): string {
  return count > 100 ? "100+" : String(Math.max(0, count));
}

function fill(parts: string[], count: number): string {
  let out = "";
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) out += parts[i];
    else out += parts[i] === "Q" ? String(count) : cartLabel(count);
  }
  return out;
}

/** A cached page filled in for a cart count, compressed once and kept for the next answers. */
function bodyFor(entry: CachedPage, count: number): Promise<Precompressed> {
  let body = entry.bodies.get(count);
  if (!body) {
    body = precompress(fill(entry.parts, count));
    if (entry.bodies.size < KEPT_COUNTS) {
      entry.bodies.set(count, body);
      body.then((done) => entry.ready.set(count, done)).catch(() => entry.bodies.delete(count));
    }
  }
  return body;
}

const PageQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union(["json", "json-pretty", "html", "rss", "RSS", "ical", "ics"].map((f) => Type.Literal(f))),
    ),
    page: Type.Optional(Type.String({ maxLength: 10 })),
    category: Type.Optional(Type.String({ maxLength: 200 })),
    tag: Type.Optional(Type.String({ maxLength: 200 })),
    author: Type.Optional(Type.String({ maxLength: 200 })),
    view: Type.Optional(Type.String({ maxLength: 20 })),
    month: Type.Optional(Type.String({ maxLength: 10 })),
    q: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: true },
);

const WRONG_PASSWORD = "That password is incorrect.";

function localPath(value: unknown): string {
  const s = typeof value === "string" ? value : "";
  return s.startsWith("/") && !s.startsWith("//") && !s.includes("\\") && s.length < 2000 ? s : "/";
}

export const siteRoutes: FastifyPluginAsync = async (app) => {
  const { db, config, clock } = app.deps;
  const themes = new Themes();
  themes.assets.register(app);
  const storefront = storefrontAssets();
  const csp = pageCsp(storefront.loaderHash);
  const withPageCsp = (reply: FastifyReply) => reply.header("content-security-policy", csp);
  /** Each theme's stylesheet, compressed once. */
  const stylesheets = new Map<string, Promise<Precompressed>>();
  const siteTemplates = new SiteTemplateCache();
  const versions = app.siteVersions;
  const cache = new PageCache(config.pageCacheEntries, config.pageCacheMb * 1024 * 1024, () =>
    clock.now().getTime(),
  );
  siteDataCache.resize(config.siteCacheEntries);
  app.pageCaches.push(cache);
  /** PAGE_CACHE=false builds and renders every page on every request (debugging, the cold benchmark). */
  const cacheEnabled = process.env.PAGE_CACHE !== "false";
  if (cacheEnabled) {
    app.frontDoor.use(
      warmPages({
        versions,
        cache,
        csp,
        log: app.log,
        parseCookie: app.parseCookie,
        recordRequest: app.recordRequest,
        trust: proxyTrust(config.trustProxy),
        publicUrl: config.publicUrl,
      }),
    );
  }
  const background = new AbortController();
  let completing: Promise<unknown> | undefined;

  app.addHook("onReady", async () => {
    // Images stored without colour data or variants (the demo's artwork) are completed in the background.
    completing = completeMedia(db, app.deps.media, { signal: background.signal }).catch((err) => {
      if (!background.signal.aborted) app.log.warn({ err }, "could not complete the media library");
    });
  });
  app.addHook("onClose", async () => {
    background.abort();
    await completing;
  });

  await app.register(mediaRoutes);
  await app.register(contentRoutes);
  await app.register(searchRoutes);

  app.get(
    "/assets/themes/:file",
    {
      schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 100 }) }) },
    },
    async (request, reply) => {
      const m = /^([a-z]+)\.([a-f0-9]{12})\.css$/.exec((request.params as { file: string }).file);
      const theme = m ? themes.get(m[1]!) : undefined;
      if (!theme) return reply.status(404).send(errorBody("not_found", "No such stylesheet."));
      let css = stylesheets.get(theme.name);
      if (!css) {
        css = precompress(theme.css);
        stylesheets.set(theme.name, css);
      }
      reply
        .type("text/css; charset=utf-8")
        .header(
          "cache-control",
          m![2] === theme.cssHash ? "public, max-age=31536000, immutable" : "public, max-age=60",
        );
      return sendPrecompressed(request, reply, await css);
    },
  );

  const siteOf = (hostHeader: string | undefined) => knownWebsiteForHost(versions, db, hostHeader);

  app.post(
    "/api/site/unlock",
    {
      preHandler: requireCrumb,
      config: { rateLimit: { max: 10, timeWindow: "1 minute" } },
      schema: {
        tags: ["site"],
        description: "Unlocks a password-protected page (the lock screen's form, page type 103).",
        body: Type.Object(
          {
            collectionId: Id,
            password: Type.String({ maxLength: 1024 }),
            redirect: Type.Optional(Type.String({ maxLength: 2000 })),
          },
          { additionalProperties: true },
        ),
        response: { 200: Type.Object({ ok: Type.Boolean(), redirect: Type.String() }) },
      },
    },
    async (request, reply) => {
      const body = request.body as { collectionId: string; password: string; redirect?: string };
      const isForm = String(request.headers["content-type"] ?? "").startsWith(
        "application/x-www-form-urlencoded",
      );
      const site = await siteOf(request.headers.host);
      if (!site) throw notFound(NO_WEBSITE_HERE);
      const [c] = await db
        .select()
        .from(collections)
        .where(and(eq(collections.websiteId, site.id), eq(collections.id, body.collectionId)));
      if (!c) throw new ApiError(404, "not_found", "No such page.");
      const redirect = localPath(body.redirect ?? (c.isHome ? "/" : `/${c.urlSlug}`));
      const ok = !c.passwordHash || (await verifyPassword(c.passwordHash, body.password));
      if (!ok) {
        if (isForm) return reply.redirect(`${redirect.split("?")[0]}?unlock=failed`, 303);
        throw new ApiError(401, "wrong_password", WRONG_PASSWORD, { password: WRONG_PASSWORD });
      }
      if (c.passwordHash) {
        reply.setCookie(unlockCookieName(c.id), unlockToken(c), {
          path: "/",
          httpOnly: true,
          sameSite: "lax",
          secure: config.publicUrl.startsWith("https:"),
          maxAge: 7 * 86400,
        });
      }
      if (isForm) return reply.redirect(redirect, 303);
      return { ok: true, redirect };
    },
  );

  function render(
    theme: Theme,
    result: PageResult,
    site: Website,
    extra: Record<string, unknown>,
    own?: { templates: SiteTemplates | undefined; editingFrame: boolean },
  ): string {
    const ctx = result.context as Record<string, unknown>;
    const origin = String((ctx.website as { baseUrl?: string } | undefined)?.baseUrl ?? config.publicUrl);
    const flag = (v: unknown, key: string) => Boolean((v as Record<string, unknown> | undefined)?.[key]);
    const hidden =
      flag(ctx.websiteSettings, "hideFromSearchEngines") ||
      flag(ctx.collection, "seoHidden") ||
      (result.pageType === PageType.CONTENT_ITEM && flag(ctx.item, "seoHidden"));
    const context = {
      ...result.context,
      ...extra,
      // Search engines' view of the page (HTML only: ?format=json stays the page's data).
      seo: {
        structuredData: structuredDataFor(result.pageType, ctx, origin),
        robots: robotsMetaFor(result.pageType, hidden),
        feedUrl: feedUrlFor(ctx),
      },
      theme: { name: theme.name, title: theme.title, cssUrl: theme.cssUrl, ...theme.settings },
      // A page without its own image shares the site's default social image.
      ogImage: ctx.ogImage ?? (extra.design as DesignView | undefined)?.socialImage,
      assets: { storefrontJs: storefront.entryUrl },
    };
    const editingFrame = own?.editingFrame ?? false;
    const opts = { locale: site.locale, now: clock.now().getTime() };
    let { html, errors } = themes.render(theme, result.template, context, opts, own?.templates);
    if (own?.templates && errors.length) {
      // The site's own templates must never take a page down: where they fail (a missing partial,
      // a formatter that throws) and the theme's version does not, visitors get the theme's
      // version and the log says why; the owner's editing frame shows the errors instead.
      const plain = themes.render(theme, result.template, context, opts);
      const known = new Set(plain.errors.map(formatError));
      const failures = errors.filter((e) => !known.has(formatError(e)));
      if (failures.length) {
        if (editingFrame) {
          html = withErrorNotice(html, failures, Object.keys(own.templates.overrides).sort());
        } else {
          app.log.warn(
            { websiteId: site.id, template: result.template, errors: failures.slice(0, 5).map(formatError) },
            "the site's template overrides failed; served the theme's version",
          );
          ({ html, errors } = plain);
        }
      }
    }
    if (errors.length) {
      app.log.warn(
        { theme: theme.name, template: result.template, errors: errors.slice(0, 5).map((e) => e.message) },
        "theme rendered with errors",
      );
    }
    return prioritiseFirstImage(html);
  }

  function errorPage(site: Website | undefined, request: FastifyRequest, reply: FastifyReply, err: unknown) {
    request.log.error({ err }, "page failed");
    reply.status(500).type("text/html; charset=utf-8").header("cache-control", "no-store");
    if (site) {
      try {
        const theme = themes.forSite(site);
        const html = render(
          theme,
          {
            status: 500,
            pageType: PageType.ERROR,
            template: "error",
            cacheable: false,
            context: {
              pageType: PageType.ERROR,
              pageTitle: "Something went wrong",
              website: { siteTitle: site.title, siteTagline: htmlToText(site.tagline), id: site.id },
              navigation: [],
              socialAccounts: [],
            },
          },
          site,
          { cart: { totalQuantity: 0, label: "0" } },
        );
        withPageCsp(reply);
        return reply.send(html);
      } catch {}
    }
    return reply.send(
      "<!doctype html><html lang=en><meta charset=utf-8><title>Something went wrong</title><h1>Something went wrong</h1><p>Please try again in a moment.</p></html>",
    );
  }

  /**
   * The templates of an owner's editing view: the site's overrides, and with the preview cookie
   * the owner's drafts over them (editingModeOf has checked the owner's membership).
   */
  async function editingTemplates(
    request: FastifyRequest,
    websiteId: string,
    preview: boolean,
    version: number,
  ) {
    const token = request.cookies[OWNER_SESSION_COOKIE];
    const owner = preview && token ? await accountForSession(db, clock, token) : undefined;
    if (!owner) return siteTemplates.published(db, websiteId, version);
    return siteTemplates.editing(db, websiteId, owner.id, clock.now());
  }

  const expiredPage = (title: string) =>
    `<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} is unavailable</title><style>body{font:16px/1.5 system-ui,sans-serif;color:#1d1b19;background:#f7f5f2;display:grid;place-items:center;min-height:100vh;margin:0;padding:24px;box-sizing:border-box;text-align:center}h1{font-size:1.6rem;margin:0 0 .5rem}p{color:#5f5a54;margin:0}</style><main><h1>This website is unavailable</h1><p>${escapeHtml(title)} is not online at the moment. If this is your site, <a href="/config/">log in</a> to renew it.</p></main></html>`;

  /** The URL mappings of each site, kept while its content version holds (a change bumps it). */
  const redirectRules = new LruMap<string, { version: number; rules: Redirect[]; withQuery: boolean }>(
    config.siteCacheEntries,
  );
  const redirectFor = async (site: Website, version: number, url: string, onlyQueryRules = false) => {
    let known = redirectRules.get(site.id);
    if (!known || known.version !== version) {
      const rules = await listRedirects(db, site.id);
      known = { version, rules, withQuery: hasQueryRules(rules) };
      redirectRules.set(site.id, known);
    }
    if (!known.rules.length || (onlyQueryRules && !known.withQuery)) return undefined;
    const [rawPath = "/", query] = url.split(/\?(.*)/s);
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, "") : rawPath;
    const hit = matchRedirect(known.rules, safeDecode(path), query);
    if (!hit || (onlyQueryRules && !hit.rule.fromPath.includes("?"))) return undefined;
    const carry = query && !hit.to.includes("?") && !hit.rule.fromPath.includes("?");
    const to = carry ? `${hit.to}?${query}` : hit.to;
    return { to, status: hit.rule.status === 302 ? 302 : 301 } as const;
  };

  /** `?format=rss` on a blog page or post, `?format=ical` on an events page or event. */
  const serveFeed = async (
    site: Website,
    urlPath: string,
    format: string,
    origin: string,
    reply: FastifyReply,
  ) => {
    const slug = decodeURIComponent(urlPath.split("/")[1] ?? "");
    const all = await collectionsOf(db, site.id);
    const c = all.find((x) => (slug ? x.urlSlug === slug : x.isHome));
    if (!c || c.passwordHash || memberRule(c).members) {
      return reply.status(404).send(errorBody("not_found", "There is no page at this address."));
    }
    const feedSite = {
      id: site.id,
      title: site.title,
      origin,
      language: site.locale || "en-US",
    };
    if (format === "rss") {
      if (c.kind !== "blog")
        return reply.status(400).send(errorBody("bad_request", "Only blog pages have an RSS feed."));
      return reply
        .type("application/rss+xml; charset=utf-8")
        .header("cache-control", "public, max-age=300")
        .send(await blogRss(db, feedSite, c, clock.now()));
    }
    if (c.kind !== "events")
      return reply.status(400).send(errorBody("bad_request", "Only events pages have a calendar feed."));
    return reply
      .type("text/calendar; charset=utf-8")
      .header("cache-control", "public, max-age=300")
      .header("content-disposition", `inline; filename="${c.urlSlug}.ics"`)
      .send(await eventsIcal(db, feedSite, c, clock.now()));
  };

  const servePage = async (request: FastifyRequest, reply: FastifyReply) => {
    const urlPath = request.url.split("?")[0] ?? "/";
    if (urlPath.startsWith("/api/")) {
      return reply.status(404).send(errorBody("not_found", `No such route: ${request.method} ${urlPath}`));
    }
    const query = request.query as Record<string, string | undefined>;
    let site: Website | undefined;
    try {
      site = await siteOf(request.headers.host);
      if (!site) {
        return reply
          .status(404)
          .type("text/html; charset=utf-8")
          .send(
            `<!doctype html><html lang=en><meta charset=utf-8><title>No site here</title><h1>${NO_WEBSITE_HERE}</h1></html>`,
          );
      }
      ensureCrumb(request, reply);
      // An expired site is offline for visitors; its owners still see it, to renew it.
      if (offlineForVisitors(site) && !(await ownsWebsite(request, site.id))) {
        return reply
          .status(503)
          .header("cache-control", "no-store")
          .type("text/html; charset=utf-8")
          .send(expiredPage(site.title));
      }
      const format = query.format;
      if (format && FEED_FORMATS.has(format))
        return serveFeed(site, urlPath, format.toLowerCase(), siteBaseUrl(site, config.publicUrl), reply);
      const version = versions.version(site.id) ?? versions.observe(site.id, site.contentVersion);
      // An old address with a query (WordPress's /?p=123) moves even where a page answers.
      if (request.url.includes("?")) {
        const moved = await redirectFor(site, version, request.url, true);
        if (moved) return reply.redirect(moved.to, moved.status);
      }
      const key = pageKey(site.id, urlPath, query);
      const cartToken = request.cookies[CART_COOKIE];
      const cartCount = async () => (cartToken ? await cartQuantity(db, site!.id, cartToken) : 0);
      reply.header("cache-control", "no-cache");

      // An older version of a page or post for the History panel: its owner route has checked the
      // member may read it; shown past any password, built afresh, never cached.
      const versionView = versionViewOf(request, site.id);
      const editing = versionView
        ? { ...NOT_EDITING, override: true }
        : hasEditingCookies(request)
          ? await editingModeOf(request, site.id)
          : NOT_EDITING;
      if (answeredFromCache({ format, editing: isEditing(editing) })) {
        const hit = cacheEnabled ? cache.get(key, version) : undefined;
        if (hit?.status === 404) {
          const moved = await redirectFor(site, version, request.url);
          if (moved) return reply.redirect(moved.to, moved.status);
        }
        if (hit) {
          reply.status(hit.status).type("text/html; charset=utf-8").header("x-page-cache", "hit");
          withPageCsp(reply);
          return sendPrecompressed(request, reply, await bodyFor(hit, await cartCount()));
        }
      }

      const now = clock.now();
      const visitor = await visitorOf(db, request, site.id, now, true);
      const result = await buildPageContext(db, site, {
        path: urlPath,
        query,
        now,
        publicUrl: config.publicUrl,
        visitor,
        editing,
        // With the page cache off, nothing is reused: every page is built as after a change. An
        // owner's editing view reads the site afresh too: an autosaved draft must show at once,
        // before the server has heard of the content version its save committed.
        version: cacheEnabled && !isEditing(editing) ? version : undefined,
        versionView,
      });
      if (result.redirect) return reply.redirect(result.redirect, result.status === 301 ? 301 : 302);
      // URL mappings answer before the 404.
      if (result.status === 404) {
        const moved = await redirectFor(site, version, request.url);
        if (moved) return reply.redirect(moved.to, moved.status);
      }
      if (result.context.lockScreen) {
        const crumb = ensureCrumb(request, reply);
        (result.context.lockScreen as Record<string, unknown>).action =
          `/api/site/unlock?crumb=${encodeURIComponent(crumb)}`;
      }
      reply.status(result.status);
      if (format === "json" || format === "json-pretty") {
        const count = await cartCount();
        const body = { ...result.context, cart: { totalQuantity: count, label: cartLabel(count) } };
        return reply
          .type("application/json; charset=utf-8")
          .send(format === "json" ? JSON.stringify(body) : JSON.stringify(body, null, 2));
      }
      const theme = themes.forSite(site);
      const own = {
        templates: isEditing(editing)
          ? await editingTemplates(request, site.id, editing.preview, version)
          : await siteTemplates.published(db, site.id, version),
        editingFrame: isEditing(editing),
      };
      const design = await designView(db, site, cacheEnabled && !isEditing(editing) ? version : undefined);
      // The CLDR formatters (money when useCLDRMoneyFormat is on, dates) need the locale's data.
      await loadLocale(site.locale || "en-US");
      reply.type("text/html; charset=utf-8").header("x-page-cache", "miss");
      // The announcement bar and the newsletter pop-up (modules/site-popups), in the HTML itself.
      const popups = await sitePopupsOf(db, site.id);
      const decorate = (page: string) =>
        withSitePopups(page, { ...popups, pageType: result.pageType, now, timeZone: site!.timeZone });
      if (!result.cacheable || isEditing(editing)) {
        const count = await cartCount();
        withPageCsp(reply);
        return reply.send(
          decorate(
            render(
              theme,
              result,
              site,
              { cart: { totalQuantity: count, label: cartLabel(count) }, design },
              own,
            ),
          ).html,
        );
      }
      const { html, changesAt } = decorate(
        render(theme, result, site, { cart: { totalQuantity: QTY, label: LABEL }, design }, own),
      );
      // Kept as text (UTF-16) and up to KEPT_COUNTS filled-in bodies, each with two compressed forms.
      const entry: CachedPage = {
        version,
        status: result.status,
        parts: html.split(SENTINELS),
        bodies: new Map(),
        ready: new Map(),
        bytes: html.length * 2 + KEPT_COUNTS * html.length * 1.6,
        expiresAt: changesAt,
      };
      withPageCsp(reply);
      // Without the cache nothing is kept, so the body is compressed once, at the fast level.
      if (!cacheEnabled) return reply.send(fill(entry.parts, await cartCount()));
      cache.set(key, entry);
      return sendPrecompressed(request, reply, await bodyFor(entry, await cartCount()));
    } catch (err) {
      return errorPage(site, request, reply, err);
    }
  };

  app.get("/", { schema: { hide: true, querystring: PageQuery } }, servePage);
  app.get("/*", { schema: { hide: true, querystring: PageQuery } }, servePage);
};
