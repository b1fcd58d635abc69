/**
 * Background work (emails, notifications, housekeeping) as rows of the `jobs` table. Any server
 * process may run jobs: each claims due rows with `FOR UPDATE SKIP LOCKED`, so two processes
 * never run the same job, on PGlite and on PostgreSQL alike. A claimed job that is not finished
 * within the lease (its process died) becomes due again.
 */
import { type Placeholder, and, asc, desc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiled } from "../../db/compiled.js";
import { jobs } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import type { Clock } from "../../lib/clock.js";

export type Job = typeof jobs.$inferSelect;
type JobHandler = (deps: Deps, payload: Record<string, unknown>, job: Job) => Promise<void>;

/** A claimed job not finished within this time is claimed again by someone else. */
export const JOB_LEASE_MS = 5 * 60_000;
/** Retry delays grow with each attempt: 30 s, 2 min, 8 min, … capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(3_600_000, 30_000 * 4 ** Math.max(0, attempts - 1));
}

const handlers = new Map<string, JobHandler>();

/** Modules register the handler of each job kind they enqueue (once, at import). */
export function registerJobHandler(kind: string, handler: JobHandler): void {
  handlers.set(kind, handler);
}

type BatchHook = (deps: Deps, jobs: Job[]) => Promise<void>;
const batchHooks = new Map<string, BatchHook>();

/**
 * A look at all the claimed jobs of a batch whose kind starts with `kindPrefix`, before any of
 * them runs (e.g. to read what they need in one query rather than one per job). When it fails,
 * those jobs fail (and are retried as any failed job).
 */
export function registerJobBatchHook(kindPrefix: string, hook: BatchHook): void {
  batchHooks.set(kindPrefix, hook);
}

const recurring = new Map<string, number>();

/**
 * A job that runs again and again, every `everyMs` (by the injected clock): one row of it is
 * pending at a time, whichever processes schedule it (see scheduleRecurringJobs). Its handler
 * must be safe to run on any process; only one runs a given occurrence.
 */
export function registerRecurringJob(kind: string, everyMs: number, handler: JobHandler): void {
  registerJobHandler(kind, handler);
  recurring.set(kind, everyMs);
}

/** Whether a job of this kind is waiting or running (attempts left, not done). */
function pendingOf(db: Db | Tx, kind: string) {
  return db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, kind), isNull(jobs.doneAt), lt(jobs.attempts, jobs.maxAttempts)))
    .limit(1);
}

/**
 * Queues the next occurrence of every recurring job that has none pending: due `everyMs` after
 * the last one was due (at once when that is past, or when it never ran). Several processes may
 * call it together: a transaction-scoped advisory lock per kind makes one of them insert it.
 */
export async function scheduleRecurringJobs(db: Db, clock: Clock): Promise<void> {
  for (const [kind, everyMs] of recurring) {
    if ((await pendingOf(db, kind)).length) continue;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`jobs:${kind}`}))`);
      if ((await pendingOf(tx, kind)).length) return;
      const [last] = await tx
        .select({ runAt: jobs.runAt })
        .from(jobs)
        .where(eq(jobs.kind, kind))
        .orderBy(desc(jobs.runAt))
        .limit(1);
      const now = clock.now();
      const next = last ? new Date(last.runAt.getTime() + everyMs) : now;
      await tx.insert(jobs).values({ kind, payload: {}, runAt: next < now ? now : next, maxAttempts: 1 });
    });
  }
}

/** Adds a job; pass the caller's transaction so the job exists only if the caller's work commits. */
export async function enqueueJob(
  db: Db | Tx,
  kind: string,
  payload: Record<string, unknown>,
  opts: { runAt?: Date; maxAttempts?: number } = {},
): Promise<number> {
  const values = { kind, payload, runAt: opts.runAt?.toISOString() ?? null };
  const [row] = opts.maxAttempts
    ? await insertJobWithMaxAttempts(db, { ...values, maxAttempts: opts.maxAttempts })
    : await insertJob(db, values);
  return row!.id;
}

/**
 * A job's insert: due at `runAt`, or (null) now. The database keeps microseconds and a JS clock
 * milliseconds: a job due "now" must not look a fraction of a millisecond in the future to a
 * claimer reading the clock just after.
 */
const jobInsert = (db: Db, maxAttempts?: Placeholder) =>
  db
    .insert(jobs)
    .values({
      kind: sql.placeholder("kind"),
      payload: sql.placeholder("payload"),
      runAt: sql`coalesce(${sql.placeholder("runAt")}::timestamptz, date_trunc('milliseconds', now()))`,
      ...(maxAttempts ? { maxAttempts } : {}),
    })
    .returning({ id: jobs.id });
const insertJob = compiled("jobs_enqueue", (db) => jobInsert(db));
const insertJobWithMaxAttempts = compiled("jobs_enqueue_max_attempts", (db) =>
  jobInsert(db, sql.placeholder("maxAttempts")),
);

/**
 * Claims up to `limit` due jobs for `worker`: due, unfinished, attempts left, not leased by another.
 * One statement: the rows are locked (skipping those another claimer holds) and leased together.
 */
export async function claimJobs(db: Db, clock: Clock, worker: string, limit = 10): Promise<Job[]> {
  const now = clock.now();
  const leaseEnd = new Date(now.getTime() - JOB_LEASE_MS);
  const claimed = await claimDueJobs(db, {
    now: now.toISOString(),
    leaseEnd: leaseEnd.toISOString(),
    worker,
    limit,
  });
  return claimed.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
}

/** A timestamp placeholder (its value an ISO string), usable in `.set()` too. */
const timestampParam = (name: string) => sql<Date>`${sql.placeholder(name)}::timestamptz`;

const claimDueJobs = compiled("jobs_claim", (db) => {
  const now = timestampParam("now");
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        isNull(jobs.doneAt),
        lte(jobs.runAt, now),
        lt(jobs.attempts, jobs.maxAttempts),
        or(isNull(jobs.lockedAt), lt(jobs.lockedAt, timestampParam("leaseEnd"))),
      ),
    )
    .orderBy(asc(jobs.runAt), asc(jobs.id))
    .limit(sql.placeholder("limit"))
    .for("update", { skipLocked: true });
  return db
    .update(jobs)
    .set({ lockedAt: now, lockedBy: sql`${sql.placeholder("worker")}`, attempts: sql`${jobs.attempts} + 1` })
    .where(inArray(jobs.id, due))
    .returning();
});

export async function completeJob(db: Db, clock: Clock, id: number): Promise<void> {
  await completeJobs(db, clock, [id]);
}

/** Marks finished jobs done, in one statement. */
export async function completeJobs(db: Db, clock: Clock, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await markJobsDone(db, { now: clock.now().toISOString(), ids });
}

const markJobsDone = compiled("jobs_complete", (db) =>
  db
    .update(jobs)
    .set({ doneAt: timestampParam("now"), lockedAt: null, lockedBy: null })
    .where(sql`${jobs.id} = any(${sql.placeholder("ids")}::bigint[])`),
);

/** Records a failure; the job runs again after a delay while attempts are left. */
async function failJob(db: Db, clock: Clock, job: Job, error: string): Promise<void> {
  await db
    .update(jobs)
    .set({
      lockedAt: null,
      lockedBy: null,
      lastError: error.slice(0, 2000),
      runAt: new Date(clock.now().getTime() + retryDelayMs(job.attempts)),
    })
    .where(eq(jobs.id, job.id));
}

interface RunResult {
  ran: number;
  failed: number;
}

/**
 * Claims and runs due jobs until none is left (or `maxJobs` ran). The jobs of a batch that
 * succeeded are marked done together after it: one that finished just before a crash runs again
 * after the lease, as any job may (handlers are safe to run twice).
 */
export async function runDueJobs(deps: Deps, worker: string, maxJobs = 100): Promise<RunResult> {
  const result: RunResult = { ran: 0, failed: 0 };
  while (result.ran + result.failed < maxJobs) {
    const batch = await claimJobs(
      deps.db,
      deps.clock,
      worker,
      Math.min(10, maxJobs - result.ran - result.failed),
    );
    if (!batch.length) break;
    const hookErrors = new Map<Job, unknown>();
    for (const [prefix, hook] of batchHooks) {
      const mine = batch.filter((job) => job.kind.startsWith(prefix));
      if (!mine.length) continue;
      try {
        await hook(deps, mine);
      } catch (err) {
        for (const job of mine) hookErrors.set(job, err);
      }
    }
    const done: number[] = [];
    for (const job of batch) {
      const handler = handlers.get(job.kind);
      try {
        if (hookErrors.has(job)) throw hookErrors.get(job);
        if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
        await handler(deps, job.payload, job);
        done.push(job.id);
      } catch (err) {
        await failJob(deps.db, deps.clock, job, err instanceof Error ? err.message : String(err));
        result.failed++;
      }
    }
    await completeJobs(deps.db, deps.clock, done);
    result.ran += done.length;
  }
  return result;
}

/** Finished jobs older than `before` are deleted (housekeeping). */
export async function pruneJobs(db: Db, before: Date): Promise<void> {
  await db.delete(jobs).where(and(lt(jobs.doneAt, before)));
}
