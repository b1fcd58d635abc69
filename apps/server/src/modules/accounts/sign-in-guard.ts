/**
 * Guessing limits per account: wrong passwords (and wrong codes) for one email address are
 * counted in a row. The first few are free; from the fifth on, each further try has to wait
 * longer (30 s, 1 min, 2 min… up to 1 hour), and at the twentieth the account's email is told.
 * The count is kept for unknown addresses too, so the answers never tell who has an account.
 * A sign-in that succeeds, or a password reset, clears it; a day without a wrong try forgets it.
 * (The per-address limit, ten sign-ins a minute from one client, is the route's rate limit.)
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { accounts, ownerSignInFailures } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { ApiError } from "../../http/errors.js";
import { DAY_MS } from "../../lib/clock.js";
import { manyWrongPasswordsNotice, sendSecurityEmail } from "./security-emails.js";

/** Wrong tries allowed before each further one has to wait. */
export const FREE_WRONG_TRIES = 5;
/** At this many wrong tries in a row, the account's email is told. */
export const NOTIFY_AT_WRONG_TRIES = 20;
const FIRST_WAIT_SECONDS = 30;
const LONGEST_WAIT_SECONDS = 3600;
/** A run of wrong tries is forgotten this long after the last one. */
const FORGET_AFTER_MS = DAY_MS;

/** Seconds the next try waits after `failures` wrong ones in a row: 0 until FREE_WRONG_TRIES, then doubling. */
export function waitAfter(failures: number): number {
  if (failures < FREE_WRONG_TRIES) return 0;
  return Math.min(LONGEST_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** (failures - FREE_WRONG_TRIES));
}

function inWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export function tooManyWrongTries(retryAfterSeconds: number): ApiError {
  return new ApiError(
    429,
    "too_many_attempts",
    `Too many wrong passwords for this account. Please wait ${inWords(retryAfterSeconds)} and try again, or reset your password.`,
    undefined,
    { retryAfterSeconds },
  );
}

/** Throws 429 (with Retry-After) while the address must wait before its next try. */
export async function checkNotWaiting(deps: Pick<Deps, "db" | "clock">, email: string): Promise<void> {
  const [row] = await deps.db.select().from(ownerSignInFailures).where(eq(ownerSignInFailures.email, email));
  const now = deps.clock.now().getTime();
  if (!row?.retryAt || row.retryAt.getTime() <= now) return;
  throw tooManyWrongTries(Math.ceil((row.retryAt.getTime() - now) / 1000));
}

/** Counts one wrong try for the address; tells the account's email at the twentieth. */
export async function countWrongTry(deps: Deps, email: string): Promise<void> {
  const now = deps.clock.now();
  const t = ownerSignInFailures;
  const stale = sql`${t.lastFailureAt} <= ${new Date(now.getTime() - FORGET_AFTER_MS).toISOString()}::timestamptz`;
  const [row] = await deps.db
    .insert(t)
    .values({ email, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: t.email,
      set: {
        failures: sql`case when ${stale} then 1 else ${t.failures} + 1 end`,
        notifiedAt: sql`case when ${stale} then null else ${t.notifiedAt} end`,
        lastFailureAt: now,
      },
    })
    .returning({ failures: t.failures, notifiedAt: t.notifiedAt });
  const failures = row?.failures ?? 1;
  const wait = waitAfter(failures);
  const notify = failures >= NOTIFY_AT_WRONG_TRIES && !row?.notifiedAt;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(t)
      .set({
        retryAt: wait ? new Date(now.getTime() + wait * 1000) : null,
        ...(notify ? { notifiedAt: now } : {}),
      })
      .where(eq(t.email, email));
    if (!notify) return;
    const [account] = await tx
      .select({ email: accounts.email })
      .from(accounts)
      .where(eq(accounts.email, email));
    if (account) await sendSecurityEmail(tx, deps.config, account.email, manyWrongPasswordsNotice(failures));
  });
}

/** Forgets the address's wrong tries (a sign-in succeeded, or the password was reset). */
export async function clearWrongTries(db: Db, email: string): Promise<void> {
  await db.delete(ownerSignInFailures).where(eq(ownerSignInFailures.email, email));
}
