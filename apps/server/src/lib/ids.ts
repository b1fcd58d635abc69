import { createHash, randomBytes } from "node:crypto";

/** What every id is: 24 lowercase hex characters. */
export const ID_PATTERN = "^[a-f0-9]{24}$";
const ID = new RegExp(ID_PATTERN);

export function isId(value: unknown): value is string {
  return typeof value === "string" && ID.test(value);
}

/** A new id. */
export function newId(): string {
  return randomBytes(12).toString("hex");
}

/** A random secret for cookies and keys (URL-safe). */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Tokens are stored only as their SHA-256. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
