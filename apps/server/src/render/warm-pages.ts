/**
 * Warm published pages, answered in front of Fastify (http/front-door.ts): the page cache's most
 * frequent answer, a returning visitor's view of a page it already holds, without Fastify's
 * routing, hooks and reply objects. It answers exactly as the cache-hit branch of
 * render/routes.ts does (same headers, bytes, 304s, metrics and log lines); anything else — a
 * query string, a first visit (no crumb yet), a cart, the editing cookies, an unknown or expired
 * site, a page not yet kept compressed, a 404 that a URL mapping may redirect — goes to Fastify.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { type ProxyTrust, clientAddress } from "../http/client-address.js";
import { type Encoding, type Precompressed, matchesEtagHeader, negotiate } from "../http/compression.js";
import { CRUMB_COOKIE, isSaneCrumb } from "../http/crumb.js";
import type { FastPath } from "../http/front-door.js";
import { requestIdOf } from "../http/request-id.js";
import { HSTS, isHttps } from "../http/hsts.js";
import { SECURITY_HEADERS } from "../http/security-headers.js";
import { CART_COOKIE } from "../modules/cart/routes.js";
import { editingCookiesIn } from "../modules/pages/preview.js";
import { type Website, canonicalRedirect, hostName } from "../modules/sites/service.js";
import type { PageCache, SiteVersions } from "./cache.js";
import { answeredFromCache, offlineForVisitors, pathKey, warmHit } from "./page-hits.js";

interface WarmPageDeps {
  versions: SiteVersions<Website>;
  cache: PageCache;
  /** The published pages' Content-Security-Policy. */
  csp: string;
  log: FastifyBaseLogger;
  parseCookie: (header: string) => Record<string, string | undefined>;
  recordRequest: (method: string, route: string, status: number, seconds: number) => void;
  /** The proxies trusted to name the client (TRUST_PROXY), as Fastify's `request.ip` trusts them. */
  trust: ProxyTrust | false;
  /** PUBLIC_URL: a request on another name of a site goes on to Fastify, which redirects it. */
  publicUrl: string;
}

/** Whether the logger writes `info` lines (Fastify's pino logger can say). */
function writesInfo(log: FastifyBaseLogger): boolean {
  return (log as Partial<{ isLevelEnabled(level: string): boolean }>).isLevelEnabled?.("info") ?? true;
}

/** At most this many Cookie and Accept-Encoding headers are remembered with their verdicts. */
const REMEMBERED = 2000;

/** A Map that forgets everything when full: enough for headers a few visitors send again and again. */
function remembered<V>(compute: (key: string) => V): (key: string) => V {
  const map = new Map<string, V>();
  return (key) => {
    let v = map.get(key);
    if (v === undefined) {
      v = compute(key);
      if (map.size >= REMEMBERED) map.clear();
      map.set(key, v);
    }
    return v;
  };
}

export function warmPages(d: WarmPageDeps): FastPath {
  /** What every warm answer says, whatever the page. */
  const common = Object.freeze({
    ...SECURITY_HEADERS,
    "cache-control": "no-cache",
    "x-page-cache": "hit",
    "content-security-policy": d.csp,
    vary: "Accept-Encoding",
  });
  /** Whether a visitor with these cookies may get a warm page (a sane crumb, no cart, not editing). */
  const warmCookies = remembered((header) => {
    const cookies = d.parseCookie(header);
    return (
      isSaneCrumb(cookies[CRUMB_COOKIE]) &&
      !cookies[CART_COOKIE] &&
      answeredFromCache({ editing: editingCookiesIn(cookies) })
    );
  });
  const hostNameOf = remembered(hostName);
  const encodingOf = remembered((header) => negotiate(header) ?? null);
  /** The kept headers of each body and encoding: only the request id changes from one answer to the next. */
  const kept = new WeakMap<Precompressed, Map<string | null, Record<string, string>>>();
  const headersFor = (body: Precompressed, encoding: Encoding | null, bytes: Buffer) => {
    let forms = kept.get(body);
    if (!forms) {
      forms = new Map();
      kept.set(body, forms);
    }
    let headers = forms.get(encoding);
    if (!headers) {
      headers = { ...common, etag: body.etag, "content-type": "text/html; charset=utf-8" };
      if (encoding) headers["content-encoding"] = encoding;
      headers["content-length"] = String(bytes.length);
      forms.set(encoding, headers);
    }
    return headers;
  };
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const started = performance.now();
    const url = req.url ?? "";
    if (req.method !== "GET" || url.includes("?") || url.startsWith("/api/")) return false;
    const cookieHeader = req.headers.cookie;
    if (!cookieHeader || !warmCookies(cookieHeader)) return false;
    const site = d.versions.host(hostNameOf(req.headers.host ?? ""));
    if (!site || offlineForVisitors(site)) return false;
    if (canonicalRedirect(site, req.headers.host, d.publicUrl)) return false;
    const hsts = isHttps(req, undefined, d.trust) ? { "strict-transport-security": HSTS } : {};
    const version = d.versions.version(site.id);
    if (version === undefined) return false;
    const body = warmHit(d.cache, pathKey(site.id, url), version);
    if (!body) return false;

    const reqId = requestIdOf(req);
    const logs = writesInfo(d.log);
    if (logs) {
      const request = {
        method: "GET",
        url,
        headers: req.headers,
        host: req.headers.host,
        ip: clientAddress(req, d.trust),
        socket: req.socket,
      };
      d.log.info({ reqId, req: request }, "incoming request");
    }
    let status = 200;
    if (matchesEtagHeader(req.headers["if-none-match"], body.etag)) {
      status = 304;
      res.writeHead(status, { ...common, ...hsts, "x-request-id": reqId, etag: body.etag });
      res.end();
    } else {
      const accept = req.headers["accept-encoding"];
      const encoding = body.br === body.identity ? null : encodingOf(accept ?? "");
      const bytes = encoding === "br" ? body.br : encoding === "gzip" ? body.gzip : body.identity;
      res.writeHead(status, { "x-request-id": reqId, ...hsts, ...headersFor(body, encoding, bytes) });
      res.end(bytes);
    }
    const elapsed = performance.now() - started;
    d.recordRequest("GET", url === "/" ? "/" : "/*", status, elapsed / 1000);
    if (logs) d.log.info({ reqId, res: { statusCode: status }, responseTime: elapsed }, "request completed");
    return true;
  };
}
