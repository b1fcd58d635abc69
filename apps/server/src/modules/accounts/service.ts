import { isValidEmail } from "@atelier/forms";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { accountSessions, accounts, memberships, websites } from "../../db/schema.js";
import { ApiError, badRequest, conflict } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { normalizeEmail } from "../../lib/email.js";
import type { Deps } from "../../http/deps.js";
import { hashToken, newId } from "../../lib/ids.js";
import { MIN_PASSWORD_LENGTH, hashPassword, verifyPassword } from "../../lib/passwords.js";
import { type Client, openOwnerSession, noteDevice } from "./sessions.js";
import { checkNotWaiting, clearWrongTries, countWrongTry } from "./sign-in-guard.js";
import { MSG_WRONG_CODE, twoFactorEnabled, useSecondFactor } from "./two-factor.js";

export { OWNER_SESSION_DAYS } from "./sessions.js";

export interface OwnerAccount {
  id: string;
  email: string;
  displayName: string;
}

const INVALID_CREDENTIALS = "The email or password is incorrect.";

export async function signUp(
  db: Db,
  input: { email: string; password: string; displayName?: string },
): Promise<OwnerAccount> {
  const email = normalizeEmail(input.email);
  const fields: Record<string, string> = {};
  if (!isValidEmail(email)) fields.email = "Email is invalid";
  if (input.password.length < MIN_PASSWORD_LENGTH)
    fields.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (Object.keys(fields).length) throw badRequest("Please correct the highlighted fields.", fields);
  const passwordHash = await hashPassword(input.password);
  const displayName = input.displayName?.trim() || email.split("@")[0]!;
  const id = newId();
  const inserted = await db
    .insert(accounts)
    .values({ id, email, passwordHash, displayName })
    .onConflictDoNothing()
    .returning({ id: accounts.id });
  if (!inserted.length) throw conflict("An account with this email already exists.");
  return { id, email, displayName };
}

/** A hash to check against when the address is unknown, so both cases take the same time. */
let decoyHash: Promise<string> | undefined;

const MSG_CODE_NEEDED =
  "Two-step verification is on for this account. Type the 6-digit code from your authenticator app, or one of your recovery codes.";

/**
 * `POST /api/owner/session`: checks the password (and, when two-step verification is on, the
 * code), within the account's guessing limits (sign-in-guard.ts); opens a session for the client
 * and tells the account of a new device. Answers the session token (stored only hashed).
 */
export async function logIn(
  deps: Deps,
  input: { email: string; password: string; code?: string },
  client: Client,
): Promise<{ account: OwnerAccount; token: string; expiresAt: Date }> {
  const { db, clock } = deps;
  const email = normalizeEmail(input.email);
  await checkNotWaiting(deps, email);
  const [row] = await db.select().from(accounts).where(eq(accounts.email, email));
  decoyHash ??= hashPassword("decoy password for unknown addresses");
  const matches = await verifyPassword(row?.passwordHash ?? (await decoyHash), input.password);
  if (!row || !matches) {
    await countWrongTry(deps, email);
    throw new ApiError(401, "invalid_credentials", INVALID_CREDENTIALS);
  }
  if (await twoFactorEnabled(db, row.id)) {
    if (!input.code?.trim()) throw new ApiError(401, "two_factor_required", MSG_CODE_NEEDED);
    if (!(await useSecondFactor(db, clock, row.id, input.code))) {
      await countWrongTry(deps, email);
      throw new ApiError(401, "invalid_code", MSG_WRONG_CODE, { code: MSG_WRONG_CODE });
    }
  }
  await clearWrongTries(db, email);
  const account = { id: row.id, email: row.email, displayName: row.displayName };
  const session = await openOwnerSession(db, clock, row.id, client);
  await noteDevice(deps, account, client);
  return { account, token: session.token, expiresAt: session.expiresAt };
}

export async function logOut(db: Db, token: string): Promise<void> {
  await db.delete(accountSessions).where(eq(accountSessions.tokenHash, hashToken(token)));
}

/** The live session a token names, with its account. */
export async function sessionForToken(db: Db, clock: Clock, token: string) {
  const [row] = await db
    .select({
      account: { id: accounts.id, email: accounts.email, displayName: accounts.displayName },
      session: { id: accountSessions.id, lastSeenAt: accountSessions.lastSeenAt },
    })
    .from(accountSessions)
    .innerJoin(accounts, eq(accounts.id, accountSessions.accountId))
    .where(and(eq(accountSessions.tokenHash, hashToken(token)), gt(accountSessions.expiresAt, clock.now())));
  return row;
}

export async function accountForSession(
  db: Db,
  clock: Clock,
  token: string,
): Promise<OwnerAccount | undefined> {
  return (await sessionForToken(db, clock, token))?.account;
}

export async function websitesOf(db: Db, accountId: string) {
  return db
    .select({
      id: websites.id,
      identifier: websites.identifier,
      title: websites.title,
      role: sql<string>`case when ${memberships.owner} then 'owner' else 'member' end`,
    })
    .from(memberships)
    .innerJoin(websites, eq(websites.id, memberships.websiteId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(asc(websites.createdAt), asc(websites.id));
}
