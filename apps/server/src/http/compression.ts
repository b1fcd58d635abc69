/**
 * Compression of what we answer: Brotli or gzip as the request's `Accept-Encoding` allows.
 *
 * - Every compressible answer (HTML, JSON, CSS, JS, SVG, XML) is compressed on the fly by
 *   @fastify/compress (`registerCompression`), with a fast Brotli level.
 * - Bodies answered many times (warm pages, theme stylesheets, hashed assets) are compressed once
 *   at a high level and kept (`Precompressed`), with their ETag, so a hit costs no compression.
 * - Built files on disk (the storefront and dashboard bundles) are compressed at build time
 *   (scripts/precompress.mjs) and served by @fastify/static's `preCompressed`.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type Encoding = "br" | "gzip";

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: ["br", "gzip"],
    threshold: 1024,
    brotliOptions: {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
      },
    },
    zlibOptions: { level: 6 },
  });
}

/**
 * The encoding to answer with: Brotli when accepted, else gzip, else none. A coding listed with
 * `q=0` is refused (RFC 9110 §12.5.3).
 */
export function negotiate(acceptEncoding: string | string[] | undefined): Encoding | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : (acceptEncoding ?? "");
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const allows = (coding: string) => (accepted.get(coding) ?? accepted.get("*") ?? 0) > 0;
  if (allows("br")) return "br";
  if (allows("gzip")) return "gzip";
  return undefined;
}

/** A body kept with its Brotli and gzip forms (the same buffer when not compressed) and its ETag. */
export interface Precompressed {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

export async function precompress(body: string | Buffer): Promise<Precompressed> {
  const identity = typeof body === "string" ? Buffer.from(body) : body;
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: 10,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip(identity, { level: 9 }),
  ]);
  return { identity, br, gzip: gz, etag: etagOf(identity) };
}

/** A validator of a body: its SHA-1, base64url; weak, as it stands for every encoding of the body. */
export function etagOf(body: Buffer | string): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}

/** Whether the request's `If-None-Match` names this ETag (weak comparison, as for GET). */
function matchesEtag(request: FastifyRequest, etag: string): boolean {
  return matchesEtagHeader(request.headers["if-none-match"], etag);
}

/** Whether an `If-None-Match` header names this ETag. */
export function matchesEtagHeader(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === bare);
}

/** The form of a kept body to send for an `Accept-Encoding` header, with its content coding (none for the plain body). */
function encodedForm(
  body: Precompressed,
  acceptEncoding: string | string[] | undefined,
): { encoding: Encoding | undefined; bytes: Buffer } {
  const encoding = body.br === body.identity ? undefined : negotiate(acceptEncoding);
  return { encoding, bytes: encoding === "br" ? body.br : encoding === "gzip" ? body.gzip : body.identity };
}

/**
 * Answers a kept body: 304 when the client holds it already (for a 200 answer), else the best encoding it accepts
 * (never compressed again by @fastify/compress, which leaves encoded answers alone).
 */
export function sendPrecompressed(request: FastifyRequest, reply: FastifyReply, body: Precompressed) {
  reply.header("etag", body.etag).header("vary", "Accept-Encoding");
  if (reply.statusCode === 200 && matchesEtag(request, body.etag)) {
    reply.removeHeader("content-type");
    return reply.status(304).send();
  }
  const { encoding, bytes } = encodedForm(body, request.headers["accept-encoding"]);
  if (!encoding) return reply.send(bytes);
  return reply.header("content-encoding", encoding).send(bytes);
}
