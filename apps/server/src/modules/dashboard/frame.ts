/**
 * The editing frame: any page of one of the owner's sites, shown on the dashboard's own origin at
 * /config/frame/<siteId>/<path> (so the editor can draw block overlays on it), its links rewritten
 * to stay in the frame.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../http/errors.js";
import { ROLE_REFUSED, requireSite } from "../owner-sites/access.js";
import { EXPANDED_FRAME_COOKIE } from "../pages/preview.js";

/** The frame prefix of a site: every page of the site is at /config/frame/<siteId>/<path>. */
const framePrefix = (siteId: string) => `/config/frame/${siteId}`;

/**
 * Rewrites the root-relative URLs of a rendered page (links, images, srcsets, form actions,
 * CSS urls) to go through the frame, except the shared assets and the API.
 */
export function rewriteForFrame(html: string, siteId: string): string {
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

/** Answers `/config/frame/:siteId/<rest>`: the site's page at `<rest>`, to its owner only. */
export async function serveFrame(request: FastifyRequest, reply: FastifyReply) {
  try {
    await requireSite(request);
  } catch (err) {
    const status = err instanceof ApiError ? err.statusCode : 404;
    return reply
      .status(status)
      .type("text/html; charset=utf-8")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not available</title></head><body style="font-family:system-ui;margin:2rem"><p>${
          status === 401
            ? "Please log in to the dashboard to edit this site."
            : status === 403
              ? ROLE_REFUSED
              : "There is no such site."
        }</p></body></html>`,
      );
  }
  const site = request.site!;
  const rest = (request.params as { "*"?: string })["*"] ?? "";
  const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
  const cookies = { ...request.cookies, [EXPANDED_FRAME_COOKIE]: "1" } as Record<string, string>;
  const res = await request.server.inject({
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
}
