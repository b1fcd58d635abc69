/**
 * Webhook signing secrets. The server must sign with them, so they cannot be stored hashed:
 * they are encrypted at rest with AES-256-GCM under a key derived (HKDF) from the server's own
 * secret, the one that signs links (LINK_SIGNING_SECRET, or DATA_DIR/secrets). A database copy
 * alone does not reveal them; changing LINK_SIGNING_SECRET makes them unreadable (rotate them).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { serverSecret } from "../checkout/signing.js";

const PREFIX = "whsec_";
const FORMAT = "v1";

async function keyOf(dataDir: string): Promise<Buffer> {
  return Buffer.from(hkdfSync("sha256", await serverSecret(dataDir), "", "atelier webhook secrets", 32));
}

/** A new secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

/** The secret's key bytes, which HMAC signs with. */
export function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.slice(PREFIX.length), "base64");
}

export async function encryptSecret(dataDir: string, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await keyOf(dataDir), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [FORMAT, iv, sealed, cipher.getAuthTag()]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export async function decryptSecret(dataDir: string, stored: string): Promise<string> {
  const [format, iv, sealed, tag] = stored.split(".");
  if (format !== FORMAT || !iv || !sealed || !tag) throw new Error("unreadable webhook secret");
  const decipher = createDecipheriv("aes-256-gcm", await keyOf(dataDir), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString(
    "utf8",
  );
}
