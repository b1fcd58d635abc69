/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of a build folder (JS, CSS,
 * HTML, SVG, JSON, XML, TXT), at the highest levels: built once, served by @fastify/static's
 * `preCompressed` without compressing anything per request. Files that compress by less than
 * 5% are left alone.
 */
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|xml|txt)$/;

export function precompressDir(dir) {
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const body = readFileSync(file);
    const br = zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    const gz = zlib.gzipSync(body, { level: 9 });
    for (const [ext, out] of [
      [".br", br],
      [".gz", gz],
    ]) {
      if (out.length < body.length * 0.95) writeFileSync(file + ext, out);
      else rmSync(file + ext, { force: true });
    }
    files++;
  }
  return files;
}
