/**
 * Sending webhooks. The `webhooks` event consumer runs after an event's transaction commits (on
 * any process, from the job queue): it freezes the body once and makes one message per
 * subscription that wants the event, each with its first attempt queued. An attempt POSTs the
 * body signed the Standard Webhooks way; a 2xx within 10 s is delivered, anything else is tried
 * again after 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h, for 3 days from the event, with the
 * same `webhook-id`. A subscription that has failed for 3 days is paused and its owners emailed.
 */
import { WEBHOOK_TOPICS } from "@atelier/owner-api";
import { createHmac } from "node:crypto";
import { and, arrayContains, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiled } from "../../db/compiled.js";
import {
  accounts,
  memberships,
  webhookDeliveries,
  webhookMessages,
  webhooks,
  websites,
} from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { DAY_MS } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import { OutboundRefused, outboundRequest } from "../../lib/outbound/request.js";
import { queueEmail } from "../email/service.js";
import { type DomainEvent, SYSTEM, recordEvent, registerEventConsumer } from "../events/service.js";
import { enqueueJob, registerJobHandler } from "../jobs/service.js";
import { registerHousekeeping } from "../jobs/plugin.js";
import { eventData, webhookBody } from "./payloads.js";
import { decryptSecret, secretBytes } from "./secrets.js";
import { outboundPolicy, pruneDeliveryLog, webhookRow } from "./service.js";

const ATTEMPT_JOB = "webhook.attempt";
export const TIMEOUT_MS = 10_000;
/** The answer's body kept in the log. */
export const EXCERPT_BYTES = 2048;
/** The wait before attempt n + 1 after attempt n failed; the last one repeats. */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000];
/** Retries stop (and a subscription failing all along is paused) this long after the event. */
export const GIVE_UP_AFTER_MS = 3 * DAY_MS;
export const TEST_EVENT = "webhook.test";

type WebhookRow = typeof webhooks.$inferSelect;
type MessageRow = typeof webhookMessages.$inferSelect;

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret, space separated. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets
    .map(
      (s) =>
        `v1,${createHmac("sha256", secretBytes(s)).update(`${id}.${timestamp}.${body}`).digest("base64")}`,
    )
    .join(" ");
}

/** The secrets that sign now: the current one, and the previous one during its day of overlap. */
async function signingSecrets(deps: Deps, w: WebhookRow): Promise<string[]> {
  const secrets = [await decryptSecret(deps.config.dataDir, w.secret)];
  if (w.previousSecret && w.previousSecretUntil && w.previousSecretUntil > deps.clock.now())
    secrets.push(await decryptSecret(deps.config.dataDir, w.previousSecret));
  return secrets;
}

/** The wait after a failed attempt `n` (1-based). */
export function retryDelay(attempt: number): number {
  return RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1]!;
}

/** Makes a message of an event for one subscription and queues its first attempt, in `tx`. */
async function addMessage(tx: Db | Tx, w: WebhookRow, event: DomainEvent, body: string, runAt: Date) {
  const id = newId();
  await tx.insert(webhookMessages).values({
    id,
    websiteId: w.websiteId,
    webhookId: w.id,
    eventId: event.publicId,
    eventType: event.type,
    body,
    createdAt: runAt,
  });
  await enqueueJob(tx, ATTEMPT_JOB, { messageId: id }, { runAt });
}

/** The active subscriptions that want each event of a claimed batch, read in one query. */
const subscribersOf = new WeakMap<DomainEvent, WebhookRow[]>();

const activeWebhooksOfSites = compiled("webhooks_active_of_sites", (db) =>
  db
    .select()
    .from(webhooks)
    .where(
      and(sql`${webhooks.websiteId} = any(${sql.placeholder("sites")}::text[])`, eq(webhooks.active, true)),
    ),
);

async function prepareFanOut(deps: Deps, batch: DomainEvent[]): Promise<void> {
  const sites = [...new Set(batch.map((e) => e.websiteId).filter((id): id is string => !!id))];
  if (!sites.length) return;
  const active = await activeWebhooksOfSites(deps.db, { sites });
  for (const event of batch)
    subscribersOf.set(
      event,
      active.filter((w) => w.websiteId === event.websiteId && w.topics.includes(event.type)),
    );
}

/** The consumer: the event's body, frozen, for every active subscription of its site that wants it. */
async function fanOut(deps: Deps, event: DomainEvent): Promise<void> {
  if (!event.websiteId) return;
  const subscribed =
    subscribersOf.get(event) ??
    (await deps.db
      .select()
      .from(webhooks)
      .where(
        and(
          eq(webhooks.websiteId, event.websiteId),
          eq(webhooks.active, true),
          arrayContains(webhooks.topics, [event.type]),
        ),
      ));
  if (!subscribed.length) return;
  const body = webhookBody(event, await eventData(deps.db, event));
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    for (const w of subscribed) {
      // A retried fan-out (its job failed after this commit) must not send twice.
      const [done] = await tx
        .select({ id: webhookMessages.id })
        .from(webhookMessages)
        .where(and(eq(webhookMessages.webhookId, w.id), eq(webhookMessages.eventId, event.publicId)));
      if (!done) await addMessage(tx, w, event, body, now);
    }
  });
}

// An event is queued for fan-out only when its site has an active subscription to its type when
// it is recorded (a subscription made later hears of later events only).
registerEventConsumer("webhooks", {
  types: [...WEBHOOK_TOPICS],
  handle: fanOut,
  prepare: prepareFanOut,
  wantedWhen: (websiteId, type) =>
    sql`exists (select from webhooks w where w.website_id = ${websiteId} and w.active and ${type} = any(w.topics))`,
});

interface AttemptResult {
  status: number | null;
  latencyMs: number;
  excerpt: string;
}

/** One POST of a message, whatever happens: an HTTP status, or null and why there was none. */
async function post(deps: Deps, w: WebhookRow, m: MessageRow): Promise<AttemptResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const res = await outboundRequest(w.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "Atelier-Webhooks/1",
        "webhook-id": m.eventId,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatureHeader(await signingSecrets(deps, w), m.eventId, timestamp, m.body),
      },
      body: m.body,
      timeoutMs: TIMEOUT_MS,
      maxBytes: EXCERPT_BYTES,
      overflow: "truncate",
      maxRedirects: 0,
      ...outboundPolicy(deps.config),
    });
    return { status: res.status, latencyMs: latency(), excerpt: res.body.toString("utf8") };
  } catch (err) {
    const why =
      err instanceof OutboundRefused
        ? err.message
        : `No answer: ${err instanceof Error ? err.message : String(err)}`;
    return { status: null, latencyMs: latency(), excerpt: why.slice(0, EXCERPT_BYTES) };
  }
}

/** Pauses a subscription that has failed for 3 days and emails the site's owners, in one transaction. */
async function disable(deps: Deps, w: WebhookRow): Promise<void> {
  const reason = "Deliveries failed for 3 days.";
  await deps.db.transaction(async (tx) => {
    const [paused] = await tx
      .update(webhooks)
      .set({ active: false, disabledReason: reason, updatedAt: deps.clock.now() })
      .where(and(eq(webhooks.id, w.id), eq(webhooks.active, true)))
      .returning();
    if (!paused) return;
    const [site] = await tx.select().from(websites).where(eq(websites.id, w.websiteId));
    const owners = await tx
      .select({ email: accounts.email })
      .from(memberships)
      .innerJoin(accounts, eq(accounts.id, memberships.accountId))
      .where(and(eq(memberships.websiteId, w.websiteId), eq(memberships.owner, true)));
    for (const { email } of owners) {
      await queueEmail(tx, deps.config, {
        websiteId: w.websiteId,
        to: email,
        subject: `A webhook of ${site?.title ?? "your site"} was paused`,
        text: [
          `Deliveries to ${w.url} have failed for 3 days, so Atelier paused this webhook.`,
          "",
          "Fix the endpoint, then resume the webhook in Settings → Developers → Webhooks; you can",
          "redeliver the missed events from its delivery log.",
        ].join("\n"),
      });
    }
  });
}

/** Runs one attempt of a message: logs it, then marks it delivered, schedules the next, or gives up. */
async function attempt(deps: Deps, payload: Record<string, unknown>): Promise<void> {
  const { db, clock } = deps;
  const [m] = await db
    .select()
    .from(webhookMessages)
    .where(eq(webhookMessages.id, String(payload.messageId)));
  if (!m || m.status !== "pending") return;
  const [w] = await db.select().from(webhooks).where(eq(webhooks.id, m.webhookId));
  if (!w) return;
  // A paused subscription gets no retries (its owner redelivers from the log); tests go through.
  if (!w.active && m.eventType !== TEST_EVENT && !payload.manual) {
    await db.update(webhookMessages).set({ status: "failed" }).where(eq(webhookMessages.id, m.id));
    return;
  }
  const at = clock.now();
  const result = await post(deps, w, m);
  const number = m.attempts + 1;
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const now = clock.now();
  const giveUp = !ok && (payload.manual || now.getTime() >= m.createdAt.getTime() + GIVE_UP_AFTER_MS);
  await db.transaction(async (tx) => {
    await tx.insert(webhookDeliveries).values({
      id: newId(),
      websiteId: m.websiteId,
      webhookId: w.id,
      messageId: m.id,
      attempt: number,
      at,
      status: result.status,
      latencyMs: result.latencyMs,
      responseExcerpt: result.excerpt,
    });
    await tx
      .update(webhookMessages)
      .set({ attempts: number, status: ok ? "delivered" : giveUp ? "failed" : "pending" })
      .where(eq(webhookMessages.id, m.id));
    await tx
      .update(webhooks)
      .set({ failingSince: ok ? null : sql`coalesce(${webhooks.failingSince}, ${at})` })
      .where(eq(webhooks.id, w.id));
    if (!ok && !giveUp) {
      const deadline = m.createdAt.getTime() + GIVE_UP_AFTER_MS;
      const next = new Date(Math.min(now.getTime() + retryDelay(number), deadline));
      await enqueueJob(tx, ATTEMPT_JOB, { messageId: m.id }, { runAt: next });
    }
  });
  if (giveUp && !payload.manual) {
    const [fresh] = await db.select().from(webhooks).where(eq(webhooks.id, w.id));
    if (fresh?.failingSince && now.getTime() - fresh.failingSince.getTime() >= GIVE_UP_AFTER_MS)
      await disable(deps, fresh);
  }
}

registerJobHandler(ATTEMPT_JOB, attempt);

/** Sends a message of a logged delivery once more, now (a manual attempt: no retries follow). */
export async function redeliver(deps: Deps, messageId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.update(webhookMessages).set({ status: "pending" }).where(eq(webhookMessages.id, messageId));
    await enqueueJob(tx, ATTEMPT_JOB, { messageId, manual: true }, { runAt: deps.clock.now() });
  });
}

/** A `webhook.test` event sent to this subscription only (even paused), logged like any other. */
export async function sendTestEvent(
  deps: Deps,
  websiteId: string,
  webhookId: string,
): Promise<{ eventId: string }> {
  const w = await webhookRow(deps.db, websiteId, webhookId);
  return deps.db.transaction(async (tx) => {
    const event = await recordEvent(tx, {
      websiteId,
      type: TEST_EVENT,
      entity: { type: "webhook", id: w.id },
      actor: SYSTEM,
    });
    const data = { webhookId: w.id, message: "This is a test event from Atelier." };
    await addMessage(tx, w, event, webhookBody(event, data), deps.clock.now());
    return { eventId: event.publicId };
  });
}

registerHousekeeping("webhook-deliveries", (deps) => pruneDeliveryLog(deps.db, deps.clock.now()));
