/**
 * Campaigns: drafts the owner writes, checked before they are kept (a subject, an audience with
 * people in it, images from the media library, products of the store), sent now or at a time,
 * cancelled while they send, and their report. One transaction per call.
 */
import { isValidEmail } from "@atelier/forms";
import { and, count, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import {
  type StoredAudience,
  type StoredCampaignBlock,
  type StoredSegmentRule,
  campaignLinks,
  campaignRecipients,
  campaignSettings,
  campaigns,
  forms,
  media,
  segments,
} from "../../db/schema.js";
import { badRequest, conflict, notFound, throwFieldErrors } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { productsByIds } from "../catalog/service.js";
import { rowsOf } from "../../db/rows.js";
import { audienceCondition, countAudience } from "./audience.js";

export type CampaignRow = typeof campaigns.$inferSelect;
export type SegmentRow = typeof segments.$inferSelect;

export const SUBJECT_MAX = 200;
export const NO_SUBJECT = "Give the campaign a subject.";
export const EMPTY_AUDIENCE = "No one who agreed to get emails is in this audience yet.";
export const NO_SEGMENT = "Choose a segment of this site.";
export const PAST_TIME = "Choose a time in the future.";
export const NOT_IN_MEDIA = "Choose an image from the media library.";
export const NO_PRODUCT = "Choose a product of this store.";
export const BAD_REPLY_TO = "Enter a valid reply-to email address.";
export const BAD_URL =
  "Enter a link that starts with https:// or http://, or a path on the site such as /shop.";

export interface CampaignInput {
  subject: string;
  previewText?: string;
  fromName?: string;
  replyTo?: string | null;
  audience: StoredAudience;
  blocks: StoredCampaignBlock[];
  tracking?: boolean;
}

const okUrl = (url: string) => /^https?:\/\/[^\s]+$/i.test(url) || /^\/(?!\/)[^\s]*$/.test(url);

async function segmentRule(db: Db | Tx, websiteId: string, segmentId: string | undefined) {
  if (!segmentId) return undefined;
  const [row] = await db
    .select()
    .from(segments)
    .where(and(eq(segments.websiteId, websiteId), eq(segments.id, segmentId)));
  return row?.rule;
}

/** How many people an audience reaches now. */
export async function audienceCount(
  db: Db | Tx,
  websiteId: string,
  audience: StoredAudience,
  now: Date,
): Promise<number> {
  const rule = audience.kind === "segment" ? await segmentRule(db, websiteId, audience.segmentId) : undefined;
  if (audience.kind === "segment" && !rule)
    throw badRequest(NO_SEGMENT, { "audience.segmentId": NO_SEGMENT });
  return countAudience(db, audienceCondition(websiteId, audience, rule, now));
}

/** The SQL condition of a campaign's audience (for sending). */
export async function audienceOf(db: Db | Tx, websiteId: string, audience: StoredAudience, now: Date) {
  const rule = audience.kind === "segment" ? await segmentRule(db, websiteId, audience.segmentId) : undefined;
  return audienceCondition(websiteId, audience, rule, now);
}

/** Checks a campaign; throws a 400 naming each bad field. */
async function checkCampaign(db: Db | Tx, websiteId: string, input: CampaignInput, now: Date): Promise<void> {
  const fields: Record<string, string> = {};
  if (!input.subject.trim()) fields.subject = NO_SUBJECT;
  if (input.replyTo && !isValidEmail(input.replyTo.trim())) fields.replyTo = BAD_REPLY_TO;
  if (input.audience.kind === "segment") {
    if (!(await segmentRule(db, websiteId, input.audience.segmentId)))
      fields["audience.segmentId"] = NO_SEGMENT;
  }
  if (!fields["audience.segmentId"] && (await audienceCount(db, websiteId, input.audience, now)) === 0)
    fields.audience = EMPTY_AUDIENCE;
  const mediaIds = input.blocks.flatMap((b) => (b.type === "image" ? [b.mediaId] : []));
  const found = mediaIds.length
    ? new Set(
        (
          await db
            .select({ id: media.id })
            .from(media)
            .where(and(eq(media.websiteId, websiteId), inArray(media.id, mediaIds)))
        ).map((m) => m.id),
      )
    : new Set<string>();
  const productIds = input.blocks.flatMap((b) =>
    b.type === "product" ? [b.productId] : b.type === "products" ? b.productIds : [],
  );
  const products = await productsByIds(db as Db, websiteId, productIds);
  input.blocks.forEach((b, i) => {
    if (b.type === "image") {
      if (!found.has(b.mediaId)) fields[`blocks.${i}.mediaId`] = NOT_IN_MEDIA;
      if (b.url && !okUrl(b.url)) fields[`blocks.${i}.url`] = BAD_URL;
    } else if (b.type === "button" && !okUrl(b.url)) fields[`blocks.${i}.url`] = BAD_URL;
    else if (b.type === "product" && !products.has(b.productId)) fields[`blocks.${i}.productId`] = NO_PRODUCT;
    else if (b.type === "products" && b.productIds.some((id) => !products.has(id)))
      fields[`blocks.${i}.productIds`] = NO_PRODUCT;
  });
  throwFieldErrors(fields);
}

function values(input: CampaignInput) {
  return {
    subject: input.subject.trim(),
    previewText: (input.previewText ?? "").trim(),
    fromName: (input.fromName ?? "").trim(),
    replyTo: input.replyTo?.trim() || null,
    audience: input.audience.kind === "segment" ? input.audience : { kind: input.audience.kind },
    blocks: input.blocks,
    tracking: input.tracking ?? false,
  };
}

export async function createCampaign(db: Db, websiteId: string, input: CampaignInput, now: Date) {
  return db.transaction(async (tx) => {
    await checkCampaign(tx, websiteId, input, now);
    const [row] = await tx
      .insert(campaigns)
      .values({ id: newId(), websiteId, ...values(input), createdAt: now, updatedAt: now })
      .returning();
    return row!;
  });
}

export async function campaignOf(db: Db | Tx, websiteId: string, id: string): Promise<CampaignRow> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.websiteId, websiteId), eq(campaigns.id, id)));
  if (!row) throw notFound("There is no such campaign.");
  return row;
}

export async function listCampaigns(db: Db, websiteId: string) {
  return db
    .select()
    .from(campaigns)
    .where(eq(campaigns.websiteId, websiteId))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(500);
}

const EDITABLE = new Set(["draft", "scheduled"]);

export async function updateCampaign(
  db: Db,
  websiteId: string,
  id: string,
  patch: Partial<CampaignInput>,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const row = await campaignOf(tx, websiteId, id);
    if (!EDITABLE.has(row.status)) throw conflict("A campaign that was sent cannot be changed.");
    const input: CampaignInput = {
      subject: patch.subject ?? row.subject,
      previewText: patch.previewText ?? row.previewText,
      fromName: patch.fromName ?? row.fromName,
      replyTo: patch.replyTo === undefined ? row.replyTo : patch.replyTo,
      audience: patch.audience ?? row.audience,
      blocks: patch.blocks ?? row.blocks,
      tracking: patch.tracking ?? row.tracking,
    };
    await checkCampaign(tx, websiteId, input, now);
    const [updated] = await tx
      .update(campaigns)
      .set({ ...values(input), updatedAt: now })
      .where(eq(campaigns.id, id))
      .returning();
    return updated!;
  });
}

export async function deleteCampaign(db: Db, websiteId: string, id: string) {
  await db.transaction(async (tx) => {
    const row = await campaignOf(tx, websiteId, id);
    if (row.status === "sending") throw conflict("Cancel the campaign before deleting it.");
    await tx.delete(campaigns).where(eq(campaigns.id, row.id));
  });
}

/** Sends now (`at` unset) or schedules; the dispatcher does the rest. */
export async function sendCampaign(db: Db, websiteId: string, id: string, at: Date | undefined, now: Date) {
  return db.transaction(async (tx) => {
    const row = await campaignOf(tx, websiteId, id);
    if (!EDITABLE.has(row.status)) throw conflict("This campaign was sent already.");
    if (at && at.getTime() <= now.getTime()) throw badRequest(PAST_TIME, { at: PAST_TIME });
    await checkCampaign(tx, websiteId, row, now);
    const [updated] = await tx
      .update(campaigns)
      .set(
        at
          ? { status: "scheduled", scheduledAt: at, updatedAt: now }
          : { status: "sending", scheduledAt: now, startedAt: now, updatedAt: now },
      )
      .where(eq(campaigns.id, id))
      .returning();
    return updated!;
  });
}

/** Stops a scheduled or sending campaign: no one else gets it (a copy on its way finishes). */
export async function cancelCampaign(db: Db, websiteId: string, id: string, now: Date) {
  return db.transaction(async (tx) => {
    const row = await campaignOf(tx, websiteId, id);
    if (row.status !== "scheduled" && row.status !== "sending")
      throw conflict("Only a scheduled or sending campaign can be cancelled.");
    await tx
      .update(campaignRecipients)
      .set({ status: "skipped", lastError: "cancelled" })
      .where(
        and(
          eq(campaignRecipients.campaignId, id),
          inArray(campaignRecipients.status, ["pending", "sending"]),
        ),
      );
    const [updated] = await tx
      .update(campaigns)
      .set({ status: "cancelled", finishedAt: now, updatedAt: now })
      .where(eq(campaigns.id, id))
      .returning();
    return updated!;
  });
}

/** Orders placed within this long after a recipient's first click count as the campaign's. */
export const ATTRIBUTION_MS = 7 * 86_400_000;

export async function campaignReport(db: Db, websiteId: string, id: string) {
  const row = await campaignOf(db, websiteId, id);
  const r = campaignRecipients;
  const n = (cond: ReturnType<typeof eq> | undefined) =>
    db
      .select({ n: count() })
      .from(r)
      .where(and(eq(r.campaignId, row.id), cond))
      .then((x) => Number(x[0]?.n ?? 0));
  const [recipients, sent, refused, unsubscribed, opened, clicked] = await Promise.all([
    n(undefined),
    n(eq(r.status, "sent")),
    n(eq(r.status, "refused")),
    n(isNotNull(r.unsubscribedAt)),
    n(isNotNull(r.openedAt)),
    n(isNotNull(r.clickedAt)),
  ]);
  const sales = rowsOf<{ orders: number; revenue: number }>(
    await db.execute(sql`
      select count(*)::int as orders, coalesce(sum(o.grand_total_cents - o.refunded_cents), 0)::int as revenue
      from orders o
      where o.website_id = ${websiteId} and o.status <> 'pending'
        and exists (select 1 from campaign_recipients cr where cr.campaign_id = ${row.id}
          and cr.clicked_at is not null and cr.email = lower(o.email)
          and o.created_at >= cr.clicked_at
          and o.created_at < cr.clicked_at + ${`${ATTRIBUTION_MS / 1000} seconds`}::interval)`),
  )[0];
  const links = await db
    .select({ url: campaignLinks.url, clicks: sql<number>`sum(${campaignLinks.clicks})::int` })
    .from(campaignLinks)
    .where(eq(campaignLinks.campaignId, row.id))
    .groupBy(campaignLinks.url)
    .orderBy(sql`min(${campaignLinks.position})`);
  return {
    recipients,
    sent,
    refused,
    unsubscribed,
    opened,
    clicked,
    orders: Number(sales?.orders ?? 0),
    revenueCents: Number(sales?.revenue ?? 0),
    links: links.map((l) => ({ url: l.url, clicks: Number(l.clicks) })),
  };
}

// ─── Segments ────────────────────────────────────────────────────────────────────────────────

export const NO_FORM = "Choose a form of this site.";

export async function createSegment(db: Db, websiteId: string, name: string, rule: StoredSegmentRule) {
  return db.transaction(async (tx) => {
    const fields: Record<string, string> = {};
    if (!name.trim()) fields.name = "Give the segment a name.";
    if (rule.kind === "bought_product" && !(await productsByIds(tx as Db, websiteId, [rule.productId])).size)
      fields["rule.productId"] = NO_PRODUCT;
    if (rule.kind === "bought_category" && !rule.category.trim())
      fields["rule.category"] = "Choose a category.";
    if (rule.kind === "signed_up_through_form") {
      const [form] = await tx
        .select({ id: forms.id })
        .from(forms)
        .where(and(eq(forms.websiteId, websiteId), eq(forms.id, rule.formId)));
      if (!form) fields["rule.formId"] = NO_FORM;
    }
    throwFieldErrors(fields);
    const [row] = await tx
      .insert(segments)
      .values({ id: newId(), websiteId, name: name.trim(), rule })
      .returning();
    return row!;
  });
}

export async function listSegments(db: Db, websiteId: string) {
  return db.select().from(segments).where(eq(segments.websiteId, websiteId)).orderBy(segments.createdAt);
}

// ─── Settings ────────────────────────────────────────────────────────────────────────────────

export async function saveCampaignSettings(db: Db, websiteId: string, postalAddress: string, now: Date) {
  await db
    .insert(campaignSettings)
    .values({ websiteId, postalAddress, updatedAt: now })
    .onConflictDoUpdate({ target: campaignSettings.websiteId, set: { postalAddress, updatedAt: now } });
}
