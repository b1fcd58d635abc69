/**
 * What a recipient does with their copy: unsubscribes (one click, RFC 8058), opens it (the
 * pixel, tracked campaigns only) or follows a link (the signed redirect, tracked campaigns only).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  campaignLinks,
  campaignRecipients,
  campaigns,
  emailSuppressions,
  mailingListSubscribers,
} from "../../db/schema.js";

async function recipientAt(db: Db, websiteId: string, recipientId: number) {
  const [row] = await db
    .select({ r: campaignRecipients, tracking: campaigns.tracking })
    .from(campaignRecipients)
    .innerJoin(campaigns, eq(campaigns.id, campaignRecipients.campaignId))
    .where(and(eq(campaignRecipients.id, recipientId), eq(campaignRecipients.websiteId, websiteId)));
  return row;
}

/** Takes the recipient off the site's mailing list for good (until they sign up again). */
export async function unsubscribeRecipient(db: Db, websiteId: string, recipientId: number, now: Date) {
  const found = await recipientAt(db, websiteId, recipientId);
  if (!found) return false;
  await db.transaction(async (tx) => {
    await tx
      .update(campaignRecipients)
      .set({ unsubscribedAt: now })
      .where(and(eq(campaignRecipients.id, recipientId), isNull(campaignRecipients.unsubscribedAt)));
    await tx
      .delete(mailingListSubscribers)
      .where(
        and(eq(mailingListSubscribers.websiteId, websiteId), eq(mailingListSubscribers.email, found.r.email)),
      );
    await tx
      .insert(emailSuppressions)
      .values({ websiteId, email: found.r.email, reason: "unsubscribed", createdAt: now })
      .onConflictDoNothing();
  });
  return true;
}

export async function recordOpen(db: Db, websiteId: string, recipientId: number, now: Date) {
  const found = await recipientAt(db, websiteId, recipientId);
  if (!found?.tracking) return;
  await db
    .update(campaignRecipients)
    .set({ openedAt: now })
    .where(and(eq(campaignRecipients.id, recipientId), isNull(campaignRecipients.openedAt)));
}

/** The link's address when the recipient's campaign has it; counts the click (and the open). */
export async function recordClick(
  db: Db,
  websiteId: string,
  recipientId: number,
  position: number,
  now: Date,
): Promise<string | undefined> {
  const found = await recipientAt(db, websiteId, recipientId);
  if (!found?.tracking) return undefined;
  return db.transaction(async (tx) => {
    const [link] = await tx
      .update(campaignLinks)
      .set({ clicks: sql`${campaignLinks.clicks} + 1` })
      .where(and(eq(campaignLinks.campaignId, found.r.campaignId), eq(campaignLinks.position, position)))
      .returning({ url: campaignLinks.url });
    if (!link) return undefined;
    await tx
      .update(campaignRecipients)
      .set({
        clickedAt: sql`coalesce(${campaignRecipients.clickedAt}, ${now.toISOString()}::timestamptz)`,
        openedAt: sql`coalesce(${campaignRecipients.openedAt}, ${now.toISOString()}::timestamptz)`,
      })
      .where(eq(campaignRecipients.id, recipientId));
    return link.url;
  });
}
