/**
 * Webhook subscriptions of a website (at most MAX_WEBHOOKS): an https endpoint outside the
 * server's network, the topics it wants, a signing secret shown once (rotatable, the old one
 * signing beside the new one for a day), and the delivery log of the last 30 days.
 */
import {
  MAX_WEBHOOKS,
  WEBHOOK_TOPICS,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookTopic,
  type WebhookWithSecret,
} from "@atelier/owner-api";
import { and, asc, count, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { webhookDeliveries, webhookMessages, webhooks } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { badRequest, conflict, notFound } from "../../http/errors.js";
import { DAY_MS } from "../../lib/clock.js";
import { isId, newId } from "../../lib/ids.js";
import { checkOutboundUrl } from "../../lib/outbound/request.js";
import { cursorPage, decodeCursor, encodeCursor } from "../../lib/paging.js";
import { siteRowWhere } from "../../lib/site-rows.js";
import { encryptSecret, newWebhookSecret } from "./secrets.js";

export const MSG_NO_SUCH_WEBHOOK = "No such webhook.";
export const MSG_NO_SUCH_DELIVERY = "No such delivery.";
export const MSG_TOO_MANY = `A site can have at most ${MAX_WEBHOOKS} webhooks. Delete one you no longer use first.`;
export const MSG_NO_TOPICS = "Choose at least one event.";
/** The old secret keeps signing beside the new one this long after a rotation. */
export const ROTATION_OVERLAP_MS = DAY_MS;
/** The delivery log keeps this many days. */
export const DELIVERY_LOG_DAYS = 30;

type WebhookRow = typeof webhooks.$inferSelect;

export function webhookJson(w: WebhookRow, now: Date): Webhook {
  const overlap =
    w.previousSecretUntil && w.previousSecretUntil > now ? w.previousSecretUntil.getTime() : null;
  return {
    id: w.id,
    url: w.url,
    topics: w.topics as WebhookTopic[],
    description: w.description,
    active: w.active,
    disabledReason: w.disabledReason,
    createdOn: w.createdAt.getTime(),
    previousSecretUntil: overlap,
  };
}

/** The operator's outbound policy for webhooks (WEBHOOKS_ALLOW_HTTP, WEBHOOKS_ALLOW_PRIVATE). */
export function outboundPolicy(config: Config) {
  return { allowHttp: config.webhooksAllowHttp, allowPrivate: config.webhooksAllowPrivate };
}

async function checkUrl(config: Config, url: string): Promise<string> {
  const trimmed = url.trim();
  const problem = await checkOutboundUrl(trimmed, outboundPolicy(config));
  if (problem) throw badRequest(problem, { url: problem });
  return trimmed;
}

function checkTopics(topics: readonly string[]): WebhookTopic[] {
  const chosen = WEBHOOK_TOPICS.filter((t) => topics.includes(t));
  if (!chosen.length) throw badRequest(MSG_NO_TOPICS, { topics: MSG_NO_TOPICS });
  return chosen;
}

export async function webhookRow(db: Db, websiteId: string, id: string): Promise<WebhookRow> {
  const [row] = isId(id)
    ? await db
        .select()
        .from(webhooks)
        .where(siteRowWhere(webhooks, websiteId, id))
    : [];
  if (!row) throw notFound(MSG_NO_SUCH_WEBHOOK);
  return row;
}

export async function listWebhooks(deps: Deps, websiteId: string): Promise<Webhook[]> {
  const rows = await deps.db
    .select()
    .from(webhooks)
    .where(eq(webhooks.websiteId, websiteId))
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
  return rows.map((w) => webhookJson(w, deps.clock.now()));
}

export async function createWebhook(
  deps: Deps,
  websiteId: string,
  input: { url: string; topics: string[]; description?: string },
): Promise<WebhookWithSecret> {
  const url = await checkUrl(deps.config, input.url);
  const topics = checkTopics(input.topics);
  const secret = newWebhookSecret();
  const sealed = await encryptSecret(deps.config.dataDir, secret);
  return deps.db.transaction(async (tx) => {
    // Serializes the creations of one website so the limit holds under concurrent calls.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${websiteId}`}))`);
    const [n] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.websiteId, websiteId));
    if (Number(n?.n ?? 0) >= MAX_WEBHOOKS) throw conflict(MSG_TOO_MANY);
    const [row] = await tx
      .insert(webhooks)
      .values({
        id: newId(),
        websiteId,
        url,
        topics,
        description: input.description?.trim() ?? "",
        secret: sealed,
      })
      .returning();
    return { webhook: webhookJson(row!, deps.clock.now()), secret };
  });
}

export async function updateWebhook(
  deps: Deps,
  websiteId: string,
  id: string,
  patch: { url?: string; topics?: string[]; description?: string; active?: boolean },
): Promise<Webhook> {
  const current = await webhookRow(deps.db, websiteId, id);
  const set: Partial<typeof webhooks.$inferInsert> = { updatedAt: deps.clock.now() };
  if (patch.url !== undefined && patch.url.trim() !== current.url)
    set.url = await checkUrl(deps.config, patch.url);
  if (patch.topics !== undefined) set.topics = checkTopics(patch.topics);
  if (patch.description !== undefined) set.description = patch.description.trim();
  if (patch.active !== undefined) {
    set.active = patch.active;
    // Resuming starts the 3 days of patience afresh.
    if (patch.active) Object.assign(set, { disabledReason: null, failingSince: null });
  }
  const [row] = await deps.db
    .update(webhooks)
    .set(set)
    .where(siteRowWhere(webhooks, websiteId, id))
    .returning();
  if (!row) throw notFound(MSG_NO_SUCH_WEBHOOK);
  return webhookJson(row, deps.clock.now());
}

export async function deleteWebhook(db: Db, websiteId: string, id: string): Promise<void> {
  const gone = await db
    .delete(webhooks)
    .where(siteRowWhere(webhooks, websiteId, id))
    .returning({ id: webhooks.id });
  if (!gone.length) throw notFound(MSG_NO_SUCH_WEBHOOK);
}

/** A new secret; the one it replaces keeps signing beside it for ROTATION_OVERLAP_MS. */
export async function rotateSecret(deps: Deps, websiteId: string, id: string): Promise<WebhookWithSecret> {
  const current = await webhookRow(deps.db, websiteId, id);
  const secret = newWebhookSecret();
  const now = deps.clock.now();
  const [row] = await deps.db
    .update(webhooks)
    .set({
      secret: await encryptSecret(deps.config.dataDir, secret),
      previousSecret: current.secret,
      previousSecretUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      updatedAt: now,
    })
    .where(siteRowWhere(webhooks, websiteId, id))
    .returning();
  if (!row) throw notFound(MSG_NO_SUCH_WEBHOOK);
  return { webhook: webhookJson(row, now), secret };
}

// ─── The delivery log ────────────────────────────────────────────────────────────────────────

const isLogCursor = (p: unknown[]): p is [number, string] =>
  p.length === 2 && Number.isSafeInteger(p[0]) && isId(p[1]);

export async function listDeliveries(
  db: Db,
  websiteId: string,
  webhookId: string,
  cursor: string | undefined,
  limit = 50,
): Promise<WebhookDeliveryPage> {
  await webhookRow(db, websiteId, webhookId);
  const after = decodeCursor(cursor, isLogCursor);
  const atMs = sql`date_trunc('milliseconds', ${webhookDeliveries.at})`;
  const rows = await db
    .select({ d: webhookDeliveries, eventId: webhookMessages.eventId, type: webhookMessages.eventType })
    .from(webhookDeliveries)
    .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
    .where(
      and(
        eq(webhookDeliveries.websiteId, websiteId),
        eq(webhookDeliveries.webhookId, webhookId),
        after
          ? or(
              lt(atMs, new Date(after[0])),
              and(eq(atMs, new Date(after[0])), lt(webhookDeliveries.id, after[1])),
            )
          : undefined,
      ),
    )
    .orderBy(desc(atMs), desc(webhookDeliveries.id))
    .limit(limit + 1);
  const { page, last, hasNextPage } = cursorPage(rows, limit);
  return {
    deliveries: page.map(
      ({ d, eventId, type }): WebhookDelivery => ({
        id: d.id,
        eventId,
        type,
        attempt: d.attempt,
        at: d.at.getTime(),
        status: d.status,
        latencyMs: d.latencyMs,
        responseExcerpt: d.responseExcerpt,
      }),
    ),
    nextCursor: hasNextPage && last ? encodeCursor([last.d.at.getTime(), last.d.id]) : null,
  };
}

/** The message a logged attempt sent (of this site's webhook), for a redelivery. */
export async function messageOfDelivery(db: Db, websiteId: string, webhookId: string, deliveryId: string) {
  await webhookRow(db, websiteId, webhookId);
  const [row] = isId(deliveryId)
    ? await db
        .select({ messageId: webhookDeliveries.messageId })
        .from(webhookDeliveries)
        .where(
          and(
            siteRowWhere(webhookDeliveries, websiteId, deliveryId),
            eq(webhookDeliveries.webhookId, webhookId),
          ),
        )
    : [];
  if (!row) throw notFound(MSG_NO_SUCH_DELIVERY);
  return row.messageId;
}

/** Deletes the log (and the messages) older than DELIVERY_LOG_DAYS; housekeeping. */
export async function pruneDeliveryLog(db: Db, now: Date): Promise<void> {
  const before = new Date(now.getTime() - DELIVERY_LOG_DAYS * DAY_MS);
  await db.delete(webhookDeliveries).where(lt(webhookDeliveries.at, before));
  await db
    .delete(webhookMessages)
    .where(
      and(
        lt(webhookMessages.createdAt, before),
        sql`not exists (select 1 from ${webhookDeliveries} where ${webhookDeliveries.messageId} = ${webhookMessages.id})`,
      ),
    );
}
