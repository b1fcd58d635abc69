/**
 * The owner dashboard: the React app built into apps/dashboard/dist, served at /config with a
 * fallback to index.html for its client routes; and the editing frame, which shows any of the
 * owner's sites on the dashboard's own origin (so the editor can draw block overlays on it).
 */
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { DASHBOARD_CSP } from "../../http/csp.js";
import { ensureCrumb } from "../../http/crumb.js";
import { ApiError } from "../../http/errors.js";
import { catalogAdminRoutes } from "../catalog/admin-routes.js";
import { contentAdminRoutes } from "../content-admin/routes.js";
import { requireSite } from "../owner-sites/access.js";
import { ownerSiteRoutes } from "../owner-sites/routes.js";
import { pageRoutes } from "../pages/routes.js";
import { storeSettingsRoutes } from "../store-settings/routes.js";
import { EXPANDED_FRAME_COOKIE } from "../pages/preview.js";

const dashboardDist = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../dashboard/dist",
);

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".webp": "image/webp",
  ".txt": "text/plain; charset=utf-8",
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body style="font-family:system-ui;margin:3rem"><h1>The dashboard is not built yet</h1>
<p>Run <code>npm run build -w apps/dashboard</code> (or <code>npm start</code>, which builds it) and reload.</p></body></html>`;

/** The frame prefix of a site: every page of the site is at /config/frame/<siteId>/<path>. */
const framePrefix = (siteId: string) => `/config/frame/${siteId}`;

/**
 * Rewrites the root-relative URLs of a rendered page (links, images, srcsets, form actions,
 * CSS urls) to go through the frame, except the shared assets and the API.
 */
function rewriteForFrame(html: string, siteId: string): string {
  const prefix = framePrefix(siteId);
  const local = (url: string) =>
    url.startsWith("/") && !url.startsWith("//") && !/^\/(assets|api|config)(\/|$)/.test(url)
      ? prefix + url
      : url;
  return html
    .replace(
      /(\s(?:href|src|action|poster|data-src)\s*=\s*)(["'])([^"']*)\2/gi,
      (_m, attr, q, url) => `${attr}${q}${local(url)}${q}`,
    )
    .replace(/(\s(?:srcset|imagesrcset)\s*=\s*)(["'])([^"']*)\2/gi, (_m, attr, q, list: string) => {
      const rewritten = list
        .split(",")
        .map((part) => {
          const [url = "", ...rest] = part.trim().split(/\s+/);
          return [local(url), ...rest].join(" ");
        })
        .join(", ");
      return `${attr}${q}${rewritten}${q}`;
    })
    .replace(/url\((["']?)(\/[^)"']*)\1\)/g, (_m, q, url) => `url(${q}${local(url)}${q})`);
}

/** The dashboard and the owner API it talks to (one registration in app.ts). */
export const dashboardRoutes: FastifyPluginAsync = async (app) => {
  await app.register(ownerSiteRoutes);
  await app.register(pageRoutes);
  await app.register(catalogAdminRoutes);
  await app.register(contentAdminRoutes);
  await app.register(storeSettingsRoutes);

  const serveApp = async (request: FastifyRequest, reply: FastifyReply) => {
    const index = path.join(dashboardDist, "index.html");
    if (!existsSync(index)) return reply.status(404).type("text/html; charset=utf-8").send(NOT_BUILT);
    const rest = (request.params as { "*"?: string })["*"] ?? "";
    const wanted = path.normalize(path.join(dashboardDist, decodeSafe(rest)));
    if (rest && wanted.startsWith(dashboardDist + path.sep) && path.extname(wanted)) {
      const info = await stat(wanted).catch(() => undefined);
      if (info?.isFile()) {
        const hashed = /-[A-Za-z0-9_-]{8,}\.\w+$/.test(wanted);
        return reply
          .type(TYPES[path.extname(wanted)] ?? "application/octet-stream")
          .header("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache")
          .send(await readFile(wanted));
      }
      if (rest.startsWith("assets/")) return reply.status(404).type("text/plain").send("Not found");
    }
    // The dashboard's calls send the crumb back: the page that loads it sets one.
    ensureCrumb(request, reply);
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("x-frame-options", "SAMEORIGIN")
      .header("content-security-policy", DASHBOARD_CSP)
      .send(await readFile(index));
  };
  app.get("/config", { schema: { hide: true } }, serveApp);
  app.get("/config/*", { schema: { hide: true } }, serveApp);

  const frame = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await requireSite(request);
    } catch (err) {
      const status = err instanceof ApiError ? err.statusCode : 404;
      return reply
        .status(status)
        .type("text/html; charset=utf-8")
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not available</title></head><body style="font-family:system-ui;margin:2rem"><p>${
            status === 401 ? "Please log in to the dashboard to edit this site." : "There is no such site."
          }</p></body></html>`,
        );
    }
    const site = request.site!;
    const rest = (request.params as { "*"?: string })["*"] ?? "";
    const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
    const cookies = { ...request.cookies, [EXPANDED_FRAME_COOKIE]: "1" } as Record<string, string>;
    const res = await app.inject({
      method: "GET",
      url: `/${rest}${query}`,
      headers: {
        host: `${site.identifier}.localhost`,
        cookie: Object.entries(cookies)
          .filter(([, v]) => typeof v === "string")
          .map(([k, v]) => `${k}=${v}`)
          .join("; "),
        "user-agent": request.headers["user-agent"] ?? "",
        accept: request.headers.accept ?? "*/*",
      },
    });
    const type = String(res.headers["content-type"] ?? "application/octet-stream");
    reply.status(res.statusCode).type(type).header("cache-control", "no-store");
    // The page's own policy, with the nonce its scripts carry.
    const csp = res.headers["content-security-policy"];
    if (typeof csp === "string") reply.header("content-security-policy", csp);
    const setCookies = [res.headers["set-cookie"]].flat().filter((c): c is string => typeof c === "string");
    if (setCookies.length) reply.header("set-cookie", setCookies);
    const location = res.headers.location;
    if (typeof location === "string")
      reply.header("location", location.startsWith("/") ? framePrefix(site.id) + location : location);
    if (type.startsWith("text/html")) return reply.send(rewriteForFrame(res.body, site.id));
    return reply.send(res.rawPayload);
  };
  const FrameParams = Type.Object({ siteId: Type.String({ maxLength: 100 }), "*": Type.String() });
  app.get(
    "/config/frame/:siteId",
    { schema: { hide: true, params: Type.Object({ siteId: Type.String({ maxLength: 100 }) }) } },
    frame,
  );
  app.get("/config/frame/:siteId/*", { schema: { hide: true, params: FrameParams } }, frame);
};

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return "";
  }
}
