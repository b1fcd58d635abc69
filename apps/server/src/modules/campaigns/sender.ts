/**
 * Sending campaigns through the job queue. A recurring job (`campaigns.dispatch`, one pending at
 * a time, so one process sends at a time whatever their number) starts the campaigns that are
 * due, copies each one's audience into campaign_recipients page by page, then claims recipients
 * like jobs (FOR UPDATE SKIP LOCKED, a lease) and sends each their own copy through SMTP_URL at
 * EMAIL_RATE_PER_MINUTE. Each copy has one Message-ID for every attempt (`copyMessageId`); its row
 * is marked in flight (the attempt's time) before it is sent and recorded as sent once the server
 * has accepted it. A process that dies mid-campaign leaves its claims to expire; the next run takes
 * them up, and sends a copy left in flight again under the same Message-ID (the receiving mail
 * system keeps one). A permanent refusal (5xx) marks the address, and later campaigns skip it.
 */
import { hostname } from "node:os";
import { and, asc, eq, inArray, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { campaignLinks, campaignRecipients, campaigns, emailSuppressions } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { newId } from "../../lib/ids.js";
import { senderAddress } from "../email/service.js";
import { unsubscribeHeaders } from "../email/layout.js";
import { registerRecurringJob } from "../jobs/service.js";
import { siteBaseUrl, websiteById } from "../sites/service.js";
import { rowsOf } from "../../db/rows.js";
import { materialisePage } from "./audience.js";
import { recipientToken, UNSUBSCRIBE_PATH } from "./links.js";
import { type RenderedCampaign, personalise, renderCampaign } from "./render.js";
import { audienceOf, type CampaignRow } from "./service.js";
import { CampaignSmtp } from "./smtp.js";

export const DISPATCH_JOB = "campaigns.dispatch";
/** A claimed recipient not recorded within this time is claimed again (its process died). */
export const RECIPIENT_LEASE_MS = 20_000;
/** A temporary failure is tried again after this long, this many times in all. */
const RETRY_AFTER_MS = 60_000;
const MAX_ATTEMPTS = 5;
/** Recipients claimed at once. */
const CLAIM_BATCH = 25;

const worker = `${hostname()}:${process.pid}:${newId().slice(0, 6)}`;

/** Paces sends at the operator's rate (per process; the dispatch job runs in one process at a time). */
class Pace {
  private next = 0;
  constructor(private readonly perMinute: number) {}
  async wait(): Promise<void> {
    const gap = 60_000 / this.perMinute;
    const now = Date.now();
    if (this.next > now) await new Promise((r) => setTimeout(r, this.next - now));
    this.next = Math.max(now, this.next) + gap;
  }
}

const smtps = new Map<string, CampaignSmtp>();
const paces = new Map<number, Pace>();

/** Starts the scheduled campaigns whose time has come. */
async function startDue(db: Db, now: Date): Promise<void> {
  await db
    .update(campaigns)
    .set({ status: "sending", startedAt: now, updatedAt: now })
    .where(and(eq(campaigns.status, "scheduled"), lte(campaigns.scheduledAt, now)));
}

/** Copies the campaign's audience into its recipients, a page per transaction, and its links. */
async function materialise(deps: Deps, c: CampaignRow, rendered: RenderedCampaign): Promise<void> {
  const { db, clock } = deps;
  let after = c.materialisedAfter;
  const condition = await audienceOf(db, c.websiteId, c.audience, clock.now());
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const page = await materialisePage(tx, { websiteId: c.websiteId, campaignId: c.id, condition, after });
      after = page.last;
      if (page.done && rendered.links.length) {
        await tx
          .insert(campaignLinks)
          .values(rendered.links.map((url, position) => ({ campaignId: c.id, position, url })))
          .onConflictDoNothing();
      }
      await tx
        .update(campaigns)
        .set({ materialisedAfter: after, materialised: page.done })
        .where(eq(campaigns.id, c.id));
      return page.done;
    });
    if (done) return;
  }
}

type Claimed = { id: number; email: string };

async function claim(deps: Deps, campaignId: string): Promise<Claimed[]> {
  const now = deps.clock.now();
  const leaseEnd = new Date(now.getTime() - RECIPIENT_LEASE_MS).toISOString();
  const retryEnd = new Date(now.getTime() - RETRY_AFTER_MS).toISOString();
  return deps.db.transaction(async (tx) => {
    const due = rowsOf<{ id: number }>(
      await tx.execute(sql`
        select id from campaign_recipients
        where campaign_id = ${campaignId}
          and ((status = 'pending' and (locked_at is null or locked_at < ${retryEnd}::timestamptz))
            or (status = 'sending' and locked_at < ${leaseEnd}::timestamptz))
        order by id limit ${CLAIM_BATCH}
        for update skip locked`),
    );
    if (!due.length) return [];
    return tx
      .update(campaignRecipients)
      .set({
        status: "sending",
        lockedAt: now,
        lockedBy: worker,
        attempts: sql`${campaignRecipients.attempts} + 1`,
      })
      .where(
        inArray(
          campaignRecipients.id,
          due.map((d) => Number(d.id)),
        ),
      )
      .returning({ id: campaignRecipients.id, email: campaignRecipients.email })
      .then((rows) => rows.sort((a, b) => a.id - b.id));
  });
}

/** Addresses of the batch that may not be sent to: refused for good, or unsubscribed since it started. */
async function suppressed(db: Db, c: CampaignRow, emails: string[]): Promise<Set<string>> {
  if (!emails.length) return new Set();
  const rows = await db
    .select({
      email: emailSuppressions.email,
      reason: emailSuppressions.reason,
      at: emailSuppressions.createdAt,
    })
    .from(emailSuppressions)
    .where(and(eq(emailSuppressions.websiteId, c.websiteId), inArray(emailSuppressions.email, emails)));
  return new Set(
    rows
      .filter((r) => r.reason === "refused" || !c.startedAt || r.at.getTime() >= c.startedAt.getTime())
      .map((r) => r.email),
  );
}

/**
 * The Message-ID of one recipient's copy of a campaign: the same on every attempt, so a copy sent
 * again after a crash is recognised by the receiving mail system as the one it may already hold.
 */
export function copyMessageId(campaignId: string, recipientId: number, senderAddress: string): string {
  const domain = senderAddress.split("@")[1] || "localhost";
  return `<campaign.${campaignId}.${recipientId}@${domain}>`;
}

/**
 * Marks a claimed copy in flight just before it is sent (its attempt time, a fresh lease), while
 * this worker still holds it and the campaign still sends; answers whether to send it. A copy
 * cancelled or taken over by another process since the claim is not started.
 */
async function startAttempt(deps: Deps, c: CampaignRow, r: Claimed): Promise<boolean> {
  const started = await deps.db
    .update(campaignRecipients)
    .set({ lockedAt: deps.clock.now() })
    .where(
      and(
        eq(campaignRecipients.id, r.id),
        eq(campaignRecipients.status, "sending"),
        eq(campaignRecipients.lockedBy, worker),
        sql`exists (select 1 from campaigns where id = ${c.id} and status = 'sending')`,
      ),
    )
    .returning({ id: campaignRecipients.id });
  return started.length === 1;
}

/**
 * Records a copy the server accepted as sent. It was delivered, so it is recorded whatever
 * happened to the row meanwhile (a cancel that came while it was on its way included).
 */
async function recordSent(deps: Deps, r: Claimed): Promise<void> {
  await deps.db
    .update(campaignRecipients)
    .set({ status: "sent", sentAt: deps.clock.now(), lockedAt: null, lastError: null })
    .where(and(eq(campaignRecipients.id, r.id), ne(campaignRecipients.status, "sent")));
}

async function finishIfDone(deps: Deps, c: CampaignRow): Promise<boolean> {
  const left = rowsOf<{ n: number }>(
    await deps.db.execute(
      sql`select count(*)::int as n from campaign_recipients where campaign_id = ${c.id} and status in ('pending', 'sending')`,
    ),
  )[0];
  if (Number(left?.n ?? 0) > 0) return false;
  const now = deps.clock.now();
  await deps.db
    .update(campaigns)
    .set({ status: "sent", finishedAt: now, updatedAt: now })
    .where(and(eq(campaigns.id, c.id), eq(campaigns.status, "sending")));
  return true;
}

const renderedCache = new Map<string, { stamp: number; rendered: RenderedCampaign }>();

async function renderedOf(deps: Deps, c: CampaignRow, origin: string): Promise<RenderedCampaign> {
  const stamp = c.updatedAt.getTime();
  const hit = renderedCache.get(c.id);
  if (hit && hit.stamp === stamp) return hit.rendered;
  const site = (await websiteById(deps.db, c.websiteId))!;
  const rendered = await renderCampaign(deps.db, site, origin, c);
  if (renderedCache.size > 20) renderedCache.clear();
  renderedCache.set(c.id, { stamp, rendered });
  return rendered;
}

/**
 * Works on the campaigns that are sending for up to `sliceMs`: answers how many copies it sent.
 * Safe to run in several processes at once (claims never overlap).
 */
export async function dispatchCampaigns(deps: Deps, sliceMs = 10_000): Promise<number> {
  const { db, config, clock } = deps;
  const until = Date.now() + sliceMs;
  await startDue(db, clock.now());
  const sending = await db
    .select()
    .from(campaigns)
    .where(eq(campaigns.status, "sending"))
    .orderBy(asc(campaigns.startedAt), asc(campaigns.id));
  let sentCount = 0;
  if (!config.smtpUrl) return 0;
  let smtp = smtps.get(config.smtpUrl);
  if (!smtp) {
    smtp = new CampaignSmtp(config.smtpUrl);
    smtps.set(config.smtpUrl, smtp);
  }
  let pace = paces.get(config.emailRatePerMinute);
  if (!pace) {
    pace = new Pace(config.emailRatePerMinute);
    paces.set(config.emailRatePerMinute, pace);
  }
  for (const c of sending) {
    const site = await websiteById(db, c.websiteId);
    if (!site) continue;
    const origin = siteBaseUrl(site, config.publicUrl);
    const rendered = await renderedOf(deps, c, origin);
    if (!c.materialised) await materialise(deps, c, rendered);
    const from = { name: c.fromName || site.title, address: senderAddress(config) };
    while (Date.now() < until) {
      const [current] = await db
        .select({ status: campaigns.status })
        .from(campaigns)
        .where(eq(campaigns.id, c.id));
      if (current?.status !== "sending") break;
      const batch = await claim(deps, c.id);
      if (!batch.length) {
        await finishIfDone(deps, c);
        break;
      }
      const skip = await suppressed(
        db,
        c,
        batch.map((r) => r.email),
      );
      for (const r of batch) {
        if (skip.has(r.email)) {
          await db
            .update(campaignRecipients)
            .set({ status: "skipped", lockedAt: null, lastError: "refused or unsubscribed" })
            .where(eq(campaignRecipients.id, r.id));
          continue;
        }
        await pace.wait();
        if (!(await startAttempt(deps, c, r))) continue;
        const token = await recipientToken(config.dataDir, r.id);
        const copy = personalise(rendered, token);
        const outcome = await smtp.send({
          from,
          to: r.email,
          replyTo: c.replyTo ?? undefined,
          subject: c.subject,
          ...copy,
          headers: unsubscribeHeaders(`${origin}${UNSUBSCRIBE_PATH}${token}`),
          messageId: copyMessageId(c.id, r.id, from.address),
        });
        if (outcome.kind === "sent") {
          await recordSent(deps, r);
          sentCount++;
        } else if (outcome.kind === "refused") {
          await db.transaction(async (tx) => {
            await tx
              .update(campaignRecipients)
              .set({ status: "refused", lockedAt: null, lastError: outcome.message })
              .where(eq(campaignRecipients.id, r.id));
            await tx
              .insert(emailSuppressions)
              .values({ websiteId: c.websiteId, email: r.email, reason: "refused", detail: outcome.message })
              .onConflictDoUpdate({
                target: [emailSuppressions.websiteId, emailSuppressions.email],
                set: { reason: "refused", detail: outcome.message },
              });
          });
        } else if (outcome.kind === "retry") {
          const [row] = await db
            .select({ attempts: campaignRecipients.attempts })
            .from(campaignRecipients)
            .where(eq(campaignRecipients.id, r.id));
          await db
            .update(campaignRecipients)
            .set({
              status: (row?.attempts ?? 0) >= MAX_ATTEMPTS ? "failed" : "pending",
              lockedAt: clock.now(),
              lastError: outcome.message,
            })
            .where(and(eq(campaignRecipients.id, r.id), eq(campaignRecipients.lockedBy, worker)));
        }
      }
    }
    if (Date.now() >= until) break;
  }
  // The connection is held only while copies are still to go: a round that finished every campaign
  // says QUIT, rather than leave the mail server an idle connection to time out.
  if (Date.now() < until) {
    smtp.close();
    smtps.delete(config.smtpUrl);
  }
  return sentCount;
}

registerRecurringJob(DISPATCH_JOB, 2_000, async (deps) => {
  await dispatchCampaigns(deps);
});
