/**
 * Signed links: the order pages a buyer reaches after paying and the download links of
 * digital products carry an HMAC of what they grant, made with a secret kept in
 * DATA_DIR/secrets (created once, shared by every process that shares DATA_DIR). Processes on
 * several machines share LINK_SIGNING_SECRET instead, so a link one signs another accepts.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

const secrets = new Map<string, Promise<Buffer>>();

async function loadOrCreate(file: string): Promise<Buffer> {
  try {
    return Buffer.from((await readFile(file, "utf8")).trim(), "base64url");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(tmp, randomBytes(32).toString("base64url"), { mode: 0o600, flush: true });
  try {
    // Only the first process to get here creates it; everyone then reads the same secret.
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    await unlink(tmp).catch(() => {});
  }
  return Buffer.from((await readFile(file, "utf8")).trim(), "base64url");
}

/** The signing secret: LINK_SIGNING_SECRET when set, else the one of the data folder. */
function signingSecret(dataDir: string): Promise<Buffer> {
  const shared = process.env.LINK_SIGNING_SECRET;
  if (shared) {
    if (shared.length < 32) throw new Error("LINK_SIGNING_SECRET must be at least 32 characters");
    return Promise.resolve(Buffer.from(shared));
  }
  const file = path.join(dataDir, "secrets", "link-signing.key");
  let p = secrets.get(file);
  if (!p) {
    p = loadOrCreate(file);
    secrets.set(file, p);
    p.catch(() => secrets.delete(file));
  }
  return p;
}

/**
 * The server's own secret (LINK_SIGNING_SECRET or the data folder's), for other modules that
 * derive a key from it (webhook secrets are encrypted at rest with one).
 */
export const serverSecret = signingSecret;

async function sign(dataDir: string, message: string): Promise<string> {
  return createHmac("sha256", await signingSecret(dataDir))
    .update(message)
    .digest("base64url");
}

async function verify(dataDir: string, message: string, signature: unknown): Promise<boolean> {
  if (typeof signature !== "string" || signature.length > 100) return false;
  const expected = Buffer.from(await sign(dataDir, message));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The token that lets a buyer see their order (confirmation page and its API). */
export const orderToken = (dataDir: string, orderId: string) => sign(dataDir, `order:${orderId}`);
export const verifyOrderToken = (dataDir: string, orderId: string, token: unknown) =>
  verify(dataDir, `order:${orderId}`, token);

export const subscriptionToken = (dataDir: string, id: string) => sign(dataDir, `subscription:${id}`);
export const verifySubscriptionToken = (dataDir: string, id: string, token: unknown) =>
  verify(dataDir, `subscription:${id}`, token);

/** Digital downloads: a link to one order line, valid until `expires` (epoch ms). */
export const downloadSignature = (dataDir: string, orderId: string, lineId: string, expires: number) =>
  sign(dataDir, `download:${orderId}:${lineId}:${expires}`);
export const verifyDownload = (
  dataDir: string,
  orderId: string,
  lineId: string,
  expires: number,
  sig: unknown,
) => verify(dataDir, `download:${orderId}:${lineId}:${expires}`, sig);
