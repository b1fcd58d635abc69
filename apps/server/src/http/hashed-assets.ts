/**
 * Assets served from memory under a content-hashed name, `/assets/h/<name>.<hash>.<ext>`, cached
 * by browsers for a year (`immutable`): a changed file gets a new name, so nothing goes stale.
 * Text assets are kept with their Brotli and gzip forms (compressed once, in the background).
 * Theme stylesheets register the fonts and images they reference here (themes.ts), so a new
 * theme or font file is picked up without any list to keep.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { type Precompressed, etagOf, precompress, sendPrecompressed } from "./compression.js";
import { noSuchFile } from "./errors.js";

export const IMMUTABLE = "public, max-age=31536000, immutable";

const TYPES: Record<string, { type: string; text: boolean }> = {
  ".css": { type: "text/css; charset=utf-8", text: true },
  ".js": { type: "text/javascript; charset=utf-8", text: true },
  ".svg": { type: "image/svg+xml", text: true },
  ".woff2": { type: "font/woff2", text: false },
  ".woff": { type: "font/woff", text: false },
  ".ttf": { type: "font/ttf", text: true },
  ".png": { type: "image/png", text: false },
  ".jpg": { type: "image/jpeg", text: false },
  ".webp": { type: "image/webp", text: false },
};

interface Asset {
  type: string;
  body: Precompressed;
}

export function contentHash(body: Buffer | string): string {
  return createHash("sha256").update(body).digest("hex").slice(0, 12);
}

export class HashedAssets {
  private readonly assets = new Map<string, Asset>();
  private readonly pending: Promise<unknown>[] = [];

  static typeOf(file: string): string | undefined {
    return TYPES[path.extname(file).toLowerCase()]?.type;
  }

  /** Keeps a file's bytes and answers the hashed URL it is served at. */
  add(fileName: string, body: Buffer): string {
    const ext = path.extname(fileName).toLowerCase();
    const known = TYPES[ext];
    if (!known) throw new Error(`no content type known for ${fileName}`);
    const base = path.basename(fileName, path.extname(fileName)).replace(/[^\w-]+/g, "-");
    const file = `${base}.${contentHash(body)}${ext}`;
    if (!this.assets.has(file)) {
      const asset: Asset = {
        type: known.type,
        body: { identity: body, br: body, gzip: body, etag: etagOf(body) },
      };
      this.assets.set(file, asset);
      // Until compressed, text assets go out as they are (@fastify/compress compresses them then).
      if (known.text) this.pending.push(precompress(body).then((c) => (asset.body = c)));
    }
    return `/assets/h/${file}`;
  }

  /** Resolves when every text asset has its compressed forms. */
  async ready(): Promise<void> {
    await Promise.all(this.pending);
  }

  register(app: FastifyInstance): void {
    app.get(
      "/assets/h/:file",
      { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 200 }) }) } },
      async (request, reply) => {
        const asset = this.assets.get((request.params as { file: string }).file);
        if (!asset) throw noSuchFile();
        reply.type(asset.type).header("cache-control", IMMUTABLE);
        return sendPrecompressed(request, reply, asset.body);
      },
    );
  }
}
