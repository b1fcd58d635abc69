/**
 * Domain events: the transactional outbox of DESIGN.md. A change that matters outside its module
 * calls `recordEvent` with the transaction of the change; the event row and one job per
 * interested consumer commit with it, or not at all. Consumers (webhooks, the activity log,
 * analytics rollups, abandoned-checkout recovery) register once, at import, and are run by the
 * job queue on any process, each retried on its own.
 */
import { type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiled, compiledSql } from "../../db/compiled.js";
import { events } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { newId } from "../../lib/ids.js";
import { type Job, registerJobBatchHook, registerJobHandler } from "../jobs/service.js";
import { requestActor } from "../activity/recording.js";

/** Who made a change: a dashboard account, an API key, a site user, a visitor or the system itself. */
export interface Actor {
  type: "account" | "api_key" | "site_user" | "visitor" | "system";
  id: string | null;
}

export const SYSTEM: Actor = { type: "system", id: null };

export interface NewEvent {
  websiteId: string | null;
  /** `<entity>.<verb>`, e.g. order.created, product.updated, member.added */
  type: string;
  entity: { type: string; id: string | null };
  actor: Actor;
  /** Small and free of secrets: consumers that need the entity read it by its id. */
  payload?: Record<string, unknown>;
}

export type DomainEvent = typeof events.$inferSelect;

type Consumer = {
  /** Which event types it wants: exact types, `order.*` prefixes, or `*`. */
  types: string[];
  handle(deps: Deps, event: DomainEvent): Promise<void>;
  /**
   * Optional: one look at all the events of a claimed batch before they are handled (to read in
   * one query what `handle` would read per event); `handle` must still work without it.
   */
  prepare?(deps: Deps, events: DomainEvent[]): Promise<void>;
  /**
   * Optional: an SQL condition on the event's site and type, tested by the statement that
   * records the event, that the consumer has anything to do for it; no job is queued when it is
   * false (webhooks: an active subscription to the type, so a site without one queues nothing).
   */
  wantedWhen?(websiteId: SQL, type: SQL): SQL;
};

const consumers = new Map<string, Consumer>();
const JOB_PREFIX = "event:";

function wants(consumer: Consumer, type: string): boolean {
  return consumer.types.some(
    (t) => t === "*" || t === type || (t.endsWith(".*") && type.startsWith(t.slice(0, -1))),
  );
}

/** The events of a claimed batch's jobs, read in one query before the jobs run. */
const loaded = new WeakMap<Job, DomainEvent | undefined>();

const eventsByIds = compiled("events_by_ids", (db) =>
  db
    .select()
    .from(events)
    .where(sql`${events.id} = any(${sql.placeholder("ids")}::bigint[])`),
);

registerJobBatchHook(JOB_PREFIX, async (deps, batch) => {
  const ids = [...new Set(batch.map((job) => Number(job.payload.eventId)))];
  const rows = await eventsByIds(deps.db, { ids });
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const job of batch) loaded.set(job, byId.get(Number(job.payload.eventId)));
  for (const [name, consumer] of consumers) {
    if (!consumer.prepare) continue;
    const mine = batch
      .filter((job) => job.kind === `${JOB_PREFIX}${name}`)
      .map((job) => loaded.get(job))
      .filter((event): event is DomainEvent => !!event);
    // Only a shortcut: a consumer whose look fails reads what it needs itself, and fails alone.
    if (mine.length) await consumer.prepare(deps, mine).catch(() => {});
  }
});

/**
 * Registers a consumer (once, at import). Its handler runs in a job after the change commits;
 * a failure retries that consumer only, with the job queue's growing delays. Answers a function
 * that stops queueing events for it (for tests that register their own).
 */
export function registerEventConsumer(name: string, consumer: Consumer): () => void {
  consumers.set(name, consumer);
  registerJobHandler(`${JOB_PREFIX}${name}`, async (deps, _payload, job) => {
    // Read by the batch hook; none when the event is gone.
    const event = loaded.get(job);
    if (event) await consumer.handle(deps, event);
  });
  return () => consumers.delete(name);
}

function actorOf(event: NewEvent) {
  return event.actor.type === "system" ? (requestActor() ?? event.actor) : event.actor;
}

/**
 * Whether a job of `kind` is queued for an event of `type` on the site `websiteId` (all SQL):
 * the conditions of the consumers that have one (wantedWhen), as registered when the statement
 * is built.
 */
function jobWanted(kind: SQL, websiteId: SQL, type: SQL): SQL {
  const conditions = [...consumers]
    .filter(([, consumer]) => consumer.wantedWhen)
    .map(
      ([name, consumer]) =>
        sql`(${kind} <> ${`${JOB_PREFIX}${name}`} or ${consumer.wantedWhen!(websiteId, type)})`,
    );
  return conditions.length ? sql.join(conditions, sql` and `) : sql`true`;
}

/** The job kinds of the consumers that want events of a type. */
function kindsFor(type: string): string[] {
  return [...consumers]
    .filter(([, consumer]) => wants(consumer, type))
    .map(([name]) => `${JOB_PREFIX}${name}`);
}

/**
 * Appends an event in the caller's transaction and queues it for every consumer that wants it,
 * in one statement (the jobs are inserted from the event row, in a data-modifying CTE).
 * An event of the system made during an owner call carries the call's person or API key.
 */
export async function recordEvent(db: Db | Tx, event: NewEvent): Promise<DomainEvent> {
  const [inserted] = await insertEventAndJobs(db, eventValues(event));
  return inserted!;
}

/** The event's row and the job kinds of its consumers, as recordEvent and eventRowsJson write them. */
function eventValues(event: NewEvent) {
  const actor = actorOf(event);
  return {
    publicId: `evt_${newId()}`,
    websiteId: event.websiteId,
    type: event.type,
    entityType: event.entity.type,
    entityId: event.entity.id,
    actorType: actor.type,
    actorId: actor.id,
    payload: event.payload ?? {},
    kinds: kindsFor(event.type),
  };
}

/** The event row and one job per kind in `kinds` (none when it is empty), in one statement. */
const insertEventAndJobs = compiled("events_record", (db) => {
  const p = sql.placeholder;
  const row = db.$with("event_row").as(
    db
      .insert(events)
      .values({
        publicId: p("publicId"),
        websiteId: p("websiteId"),
        type: p("type"),
        entityType: p("entityType"),
        entityId: p("entityId"),
        actorType: p("actorType"),
        actorId: p("actorId"),
        payload: p("payload"),
      })
      .returning(),
  );
  // Due "now" truncated to milliseconds, as enqueueJob does (a JS clock must see it due).
  const queued = db.$with("queued", { id: sql<number>`id` }).as(
    sql`insert into jobs (kind, payload, run_at)
      select k.kind, jsonb_build_object('eventId', e.id), date_trunc('milliseconds', now())
      from event_row e, unnest(${p("kinds")}::text[]) as k(kind)
      where ${jobWanted(sql`k.kind`, sql`e.website_id`, sql`e.type`)}
      returning id`,
  );
  return db.with(row, queued).select().from(row);
});

/**
 * The CTEs that insert events given as a JSON array (`eventsJson`, see eventRowsJson) and one job
 * per kind each wants, for a statement that writes other rows too (checkout/reserve.ts), and only
 * `when` its condition holds (checkout/settle-paid.ts: when the order was paid).
 */
export function eventsInsertCtes(eventsJson: SQL | Placeholder, when: SQL = sql`true`): SQL {
  return sql`event_input as (
      select * from jsonb_to_recordset(${eventsJson}::jsonb) as x(public_id text,
        website_id text, type text, entity_type text, entity_id text, actor_type text, actor_id text,
        payload jsonb, kinds text[])
    ), event_rows as (
      insert into events (public_id, website_id, type, entity_type, entity_id, actor_type, actor_id, payload)
      select public_id, website_id, type, entity_type, entity_id, actor_type, actor_id, payload from event_input
      where ${when}
      returning id, public_id
    ), event_jobs as (
      insert into jobs (kind, payload, run_at)
      select k.kind, jsonb_build_object('eventId', e.id), date_trunc('milliseconds', now())
      from event_rows e join event_input x on x.public_id = e.public_id
        cross join lateral unnest(x.kinds) as k(kind)
      where ${jobWanted(sql`k.kind`, sql`x.website_id`, sql`x.type`)}
    )`;
}

/** Events (a JSON array) and one job per kind each wants, in one statement. */
const insertEventsAndJobs = compiledSql(
  "events_record_many",
  () => sql`with ${eventsInsertCtes(sql.placeholder("events"))} select count(*) from event_rows`,
);

/** Events as eventsInsertCtes takes them: a JSON array of their rows and their consumers' job kinds. */
export function eventRowsJson(list: readonly NewEvent[]): string {
  return JSON.stringify(
    list.map((event) => {
      const v = eventValues(event);
      return {
        public_id: v.publicId,
        website_id: v.websiteId,
        type: v.type,
        entity_type: v.entityType,
        entity_id: v.entityId,
        actor_type: v.actorType,
        actor_id: v.actorId,
        payload: v.payload,
        kinds: v.kinds,
      };
    }),
  );
}

/** recordEvent for several events at once, in one statement (an order's stock changes). */
export async function recordEvents(db: Db | Tx, list: readonly NewEvent[]): Promise<void> {
  if (list.length <= 1) {
    if (list[0]) await recordEvent(db, list[0]);
    return;
  }
  await insertEventsAndJobs(db, { events: eventRowsJson(list) });
}
