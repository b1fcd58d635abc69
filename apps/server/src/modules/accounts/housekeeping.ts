/** Housekeeping of owner accounts: expired sessions, old emailed tokens and forgotten wrong-password counts go. */
import { lt } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { accountSessions, accountTokens, ownerSignInFailures } from "../../db/schema.js";
import { DAY_MS } from "../../lib/clock.js";

export async function pruneOwnerAccountRows(db: Db, now: Date): Promise<void> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  await db.delete(accountSessions).where(lt(accountSessions.expiresAt, now));
  await db.delete(accountTokens).where(lt(accountTokens.expiresAt, dayAgo));
  // A run of wrong tries is forgotten a day after the last one (sign-in-guard.ts), and its wait is long over.
  await db.delete(ownerSignInFailures).where(lt(ownerSignInFailures.lastFailureAt, dayAgo));
}
