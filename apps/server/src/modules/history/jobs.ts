/**
 * Retention in the job queue: housekeeping (every few minutes, on every process) queues one
 * `history.prune` job when none is waiting; whichever process claims it prunes every site's history
 * and purges the trash.
 */
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { jobs } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { registerHousekeeping } from "../jobs/plugin.js";
import { enqueueJob, registerJobHandler } from "../jobs/service.js";
import { pruneHistory } from "./service.js";
import { purgeTrash } from "./trash.js";

export const PRUNE_JOB = "history.prune";

/** The retention of the operator's settings (HISTORY_KEEP_ALL_DAYS, HISTORY_KEEP_DAILY_DAYS). */
export function retentionOf(deps: Deps) {
  return { keepAllDays: deps.config.historyKeepAllDays, keepDailyDays: deps.config.historyKeepDailyDays };
}

/** Retention of the history, and the purge of what has been in the trash longer than TRASH_DAYS. */
registerJobHandler(PRUNE_JOB, async (deps) => {
  await pruneHistory(deps.db, deps.clock.now(), retentionOf(deps));
  await purgeTrash(deps);
});

/** Queues the prune unless one is already waiting (several processes may ask at once: one runs). */
export async function queuePrune(deps: Deps): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${PRUNE_JOB}))`);
    const [waiting] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, PRUNE_JOB), isNull(jobs.doneAt), lt(jobs.attempts, jobs.maxAttempts)))
      .limit(1);
    if (!waiting) await enqueueJob(tx, PRUNE_JOB, {}, { runAt: deps.clock.now() });
  });
}

registerHousekeeping("history", queuePrune);
