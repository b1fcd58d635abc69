/**
 * The dashboard's files: the React app built into apps/dashboard/dist, served at /config with a
 * fallback to index.html for its client routes. Hashed assets are cached for good; the page never.
 */
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyReply, FastifyRequest } from "fastify";
import { DASHBOARD_CSP } from "../../http/csp.js";
import { ensureCrumb } from "../../http/crumb.js";

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

/** Answers `/config/<rest>`: a built file, else the app's page (its client routes). */
export async function serveDashboard(request: FastifyRequest, reply: FastifyReply) {
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
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return "";
  }
}
