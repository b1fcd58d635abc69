import { createHash, randomBytes } from "node:crypto";

/** What every id is: 24 lowercase hex characters. */
export const ID_PATTERN = "^[a-f0-9]{24}$";
const ID = new RegExp(ID_PATTERN);

export function isId(value: unknown): value is string {
  return typeof value === "string" && ID.test(value);
}

/**
 * Random bytes served from a pool filled 4 KB at a time (as crypto.randomUUID does): one call
 * into OpenSSL per hundreds of ids instead of one per id, on paths that make several per request.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function pooledRandom(bytes: number): Buffer {
  if (bytes > POOL_BYTES) return randomBytes(bytes);
  if (poolOffset + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const out = pool.subarray(poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return out;
}

/** A new id. */
export function newId(): string {
  return pooledRandom(12).toString("hex");
}

/** A random secret for cookies and keys (URL-safe). */
export function newToken(bytes = 32): string {
  return pooledRandom(bytes).toString("base64url");
}

/** Tokens are stored only as their SHA-256. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
