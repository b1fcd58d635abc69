/**
 * Domain events: the transactional outbox of DESIGN.md. A change that matters outside its module
 * calls `recordEvent` with the transaction of the change; the event row and one job per
 * interested consumer commit with it, or not at all. Consumers (webhooks, the activity log,
 * analytics rollups, abandoned-checkout recovery) register once, at import, and are run by the
 * job queue on any process, each retried on its own.
 */
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { events } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { newId } from "../../lib/ids.js";
import { enqueueJob, registerJobHandler } from "../jobs/service.js";
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
};

const consumers = new Map<string, Consumer>();
const JOB_PREFIX = "event:";

function wants(consumer: Consumer, type: string): boolean {
  return consumer.types.some(
    (t) => t === "*" || t === type || (t.endsWith(".*") && type.startsWith(t.slice(0, -1))),
  );
}

/**
 * Registers a consumer (once, at import). Its handler runs in a job after the change commits;
 * a failure retries that consumer only, with the job queue's growing delays. Answers a function
 * that stops queueing events for it (for tests that register their own).
 */
export function registerEventConsumer(name: string, consumer: Consumer): () => void {
  consumers.set(name, consumer);
  registerJobHandler(`${JOB_PREFIX}${name}`, async (deps, payload) => {
    const [event] = await deps.db
      .select()
      .from(events)
      .where(eq(events.id, Number(payload.eventId)));
    if (event) await consumer.handle(deps, event);
  });
  return () => consumers.delete(name);
}

/**
 * Appends an event in the caller's transaction and queues it for every consumer that wants it.
 * An event of the system made during an owner call carries the call's person or API key.
 */
export async function recordEvent(db: Db | Tx, event: NewEvent): Promise<DomainEvent> {
  const actor = event.actor.type === "system" ? (requestActor() ?? event.actor) : event.actor;
  const [row] = await db
    .insert(events)
    .values({
      publicId: `evt_${newId()}`,
      websiteId: event.websiteId,
      type: event.type,
      entityType: event.entity.type,
      entityId: event.entity.id,
      actorType: actor.type,
      actorId: actor.id,
      payload: event.payload ?? {},
    })
    .returning();
  for (const [name, consumer] of consumers) {
    if (wants(consumer, event.type)) await enqueueJob(db, `${JOB_PREFIX}${name}`, { eventId: row!.id });
  }
  return row!;
}
