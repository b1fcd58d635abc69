/**
 * An owner's signed-in devices: each session keeps the browser's User-Agent, the client's
 * address and when it was last used (written at most once a minute), so the account can list
 * them, sign one out or all but the current one; a sign-in from a browser, OS and address the
 * account has not used before is told to the account's email.
 */
import Bowser from "bowser";
import type { FastifyRequest } from "fastify";
import { and, desc, eq, gt, lt, ne } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { accountDevices, accountSessions } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { notFound } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { newDeviceNotice, sendSecurityEmail } from "./security-emails.js";

/** Owner sessions last 30 days. */
export const OWNER_SESSION_DAYS = 30;
/** A session's last-seen time is written at most this often. */
export const LAST_SEEN_EVERY_MS = 60_000;

/** Who is calling: the browser's User-Agent and the client's address (TRUST_PROXY decides which). */
export interface Client {
  userAgent: string;
  ip: string;
}

/** The caller of a request: its User-Agent and its address (`request.ip`, under TRUST_PROXY). */
export function clientOf(request: FastifyRequest): Client {
  const ua = request.headers["user-agent"];
  return { userAgent: typeof ua === "string" ? ua : "", ip: request.ip };
}

/** The browser and OS a User-Agent names, in words ("Chrome", "macOS"). */
export function deviceOf(userAgent: string): { browser: string; os: string } {
  const parsed = userAgent.trim() ? Bowser.parse(userAgent.slice(0, 512)) : undefined;
  const os = parsed?.os.name ? [parsed.os.name, parsed.os.versionName].filter(Boolean).join(" ") : "";
  return { browser: parsed?.browser.name || "Unknown browser", os: os || "Unknown system" };
}

/** Opens a session for the account; answers its token (stored only hashed) and id. */
export async function openOwnerSession(
  db: Db | Tx,
  clock: Clock,
  accountId: string,
  client: Client,
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = newToken();
  const id = newId();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + OWNER_SESSION_DAYS * 86400_000);
  await db.insert(accountSessions).values({
    id,
    accountId,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt,
    userAgent: client.userAgent.slice(0, 512),
    ip: client.ip,
    lastSeenAt: now,
  });
  return { id, token, expiresAt };
}

/**
 * Remembers the device of a sign-in; a device new to an account that has used others before is
 * told to the account's email (the first device of an account is only remembered).
 */
export async function noteDevice(deps: Deps, account: { id: string; email: string }, client: Client) {
  const { browser, os } = deviceOf(client.userAgent);
  const fingerprint = `${browser}|${os}|${client.ip}`;
  await deps.db.transaction(async (tx) => {
    const known = await tx
      .select({ fingerprint: accountDevices.fingerprint })
      .from(accountDevices)
      .where(eq(accountDevices.accountId, account.id));
    if (known.some((d) => d.fingerprint === fingerprint)) return;
    await tx.insert(accountDevices).values({ accountId: account.id, fingerprint }).onConflictDoNothing();
    if (!known.length) return;
    const notice = newDeviceNotice(`${browser} on ${os}`, client.ip || "unknown", deps.clock.now());
    await sendSecurityEmail(tx, deps.config, account.email, notice);
  });
}

/** Writes the session's last-seen time when the one kept is more than a minute old. */
export async function touchSession(db: Db, clock: Clock, session: { id: string; lastSeenAt: Date }) {
  const now = clock.now();
  if (now.getTime() - session.lastSeenAt.getTime() < LAST_SEEN_EVERY_MS) return;
  await db
    .update(accountSessions)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(accountSessions.id, session.id),
        lt(accountSessions.lastSeenAt, new Date(now.getTime() - LAST_SEEN_EVERY_MS)),
      ),
    );
}

/** `GET /api/owner/account/sessions`: the account's live sessions, the most recently used first. */
export async function listSessions(db: Db, clock: Clock, accountId: string, currentId: string) {
  const rows = await db
    .select()
    .from(accountSessions)
    .where(and(eq(accountSessions.accountId, accountId), gt(accountSessions.expiresAt, clock.now())))
    .orderBy(desc(accountSessions.lastSeenAt), desc(accountSessions.id));
  return rows.map((s) => ({
    id: s.id,
    ...deviceOf(s.userAgent),
    ip: s.ip,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    current: s.id === currentId,
  }));
}

/** `DELETE /api/owner/account/sessions/:id`: signs one of the account's sessions out. */
export async function endSession(db: Db, accountId: string, id: string): Promise<void> {
  const gone = await db
    .delete(accountSessions)
    .where(and(eq(accountSessions.id, id), eq(accountSessions.accountId, accountId)))
    .returning({ id: accountSessions.id });
  if (!gone.length) throw notFound("That session is already signed out.");
}

/** Signs out every session of the account but `keepId` (none when it is undefined); answers how many. */
export async function endOtherSessions(db: Db | Tx, accountId: string, keepId?: string): Promise<number> {
  const gone = await db
    .delete(accountSessions)
    .where(and(eq(accountSessions.accountId, accountId), keepId ? ne(accountSessions.id, keepId) : undefined))
    .returning({ id: accountSessions.id });
  return gone.length;
}
