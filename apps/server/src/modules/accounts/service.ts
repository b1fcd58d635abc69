import { isValidEmail } from "@atelier/forms";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { accountSessions, accounts, memberships, websites } from "../../db/schema.js";
import { ApiError, badRequest, conflict } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { normalizeEmail } from "../../lib/email.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { MIN_PASSWORD_LENGTH, hashPassword, verifyPassword } from "../../lib/passwords.js";

/** Owner sessions last 30 days. */
export const OWNER_SESSION_DAYS = 30;

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

/** Checks the password and opens a session; answers the session token (stored only hashed). */
export async function logIn(
  db: Db,
  clock: Clock,
  input: { email: string; password: string },
): Promise<{ account: OwnerAccount; token: string; expiresAt: Date }> {
  const email = normalizeEmail(input.email);
  const [row] = await db.select().from(accounts).where(eq(accounts.email, email));
  if (!row || !(await verifyPassword(row.passwordHash, input.password))) {
    throw new ApiError(401, "invalid_credentials", INVALID_CREDENTIALS);
  }
  const token = newToken();
  const expiresAt = new Date(clock.now().getTime() + OWNER_SESSION_DAYS * 86400_000);
  await db
    .insert(accountSessions)
    .values({ id: newId(), accountId: row.id, tokenHash: hashToken(token), expiresAt });
  return { account: { id: row.id, email: row.email, displayName: row.displayName }, token, expiresAt };
}

export async function logOut(db: Db, token: string): Promise<void> {
  await db.delete(accountSessions).where(eq(accountSessions.tokenHash, hashToken(token)));
}

export async function accountForSession(
  db: Db,
  clock: Clock,
  token: string,
): Promise<OwnerAccount | undefined> {
  const [row] = await db
    .select({ id: accounts.id, email: accounts.email, displayName: accounts.displayName })
    .from(accountSessions)
    .innerJoin(accounts, eq(accounts.id, accountSessions.accountId))
    .where(and(eq(accountSessions.tokenHash, hashToken(token)), gt(accountSessions.expiresAt, clock.now())));
  return row;
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
