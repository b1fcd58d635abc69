/**
 * Signing up to a site's mailing list, with or without double opt-in. With it, the address is
 * kept as pending (not consented: campaigns never send to it) and gets a confirmation email in
 * the site's email layout with a signed link; opening the link confirms the subscription.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { isValidEmail } from "@atelier/forms";
import { and, eq } from "drizzle-orm";
import type { Config } from "../../config.js";
import type { Db, Tx } from "../../db/client.js";
import { mailingListSubscribers } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { clearUnsubscribe } from "../campaigns/consent.js";
import { serverSecret } from "../checkout/signing.js";
import { emailBrandOf, renderEmail } from "../email/layout.js";
import { queueEmail } from "../email/service.js";
import { type Website, siteBaseUrl } from "../sites/service.js";

/** What became of a sign-up: on the list and consented, waiting for the emailed link, or on it already. */
export type SignUpOutcome = "subscribed" | "pending" | "already";

/** The path of the confirmation link, before its token. */
export const CONFIRM_PATH = "/newsletter/confirm/";

async function sign(dataDir: string, message: string): Promise<string> {
  return createHmac("sha256", await serverSecret(dataDir))
    .update(message)
    .digest("base64url");
}

/** `<subscriber id>.<HMAC>`: confirms that subscriber. */
export async function confirmationToken(dataDir: string, subscriberId: string): Promise<string> {
  return `${subscriberId}.${await sign(dataDir, `confirm-subscription:${subscriberId}`)}`;
}

async function subscriberOfToken(dataDir: string, token: string): Promise<string | undefined> {
  const [id, sig, extra] = token.split(".");
  if (!id || !sig || extra !== undefined || id.length > 64) return undefined;
  const expected = Buffer.from(await sign(dataDir, `confirm-subscription:${id}`));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
}

/** Queues the confirmation email of a pending subscriber (in the caller's transaction). */
async function queueConfirmation(
  tx: Db | Tx,
  config: Config,
  site: Website,
  subscriber: { id: string; email: string },
): Promise<void> {
  const origin = siteBaseUrl(site, config.publicUrl);
  const url = `${origin}${CONFIRM_PATH}${await confirmationToken(config.dataDir, subscriber.id)}`;
  const subject = `Confirm your subscription to ${site.title}`;
  const brand = await emailBrandOf(tx as Db, site, origin);
  const { html, text } = renderEmail(brand, {
    preheader: "One click and you are on the list.",
    blocks: [
      { type: "heading", text: "Please confirm your subscription" },
      {
        type: "text",
        text: `Someone, probably you, asked to join the mailing list of ${site.title} with ${subscriber.email}. Confirm below and you will get our news.`,
      },
      { type: "button", text: "Confirm my subscription", url },
      { type: "text", text: "If it was not you, ignore this email: you will not be added." },
    ],
    footer: [`You get this email because ${subscriber.email} was entered on ${origin}.`],
  });
  await queueEmail(tx, config, {
    websiteId: site.id,
    to: subscriber.email,
    subject,
    text,
    html,
    fromName: site.title,
  });
}

/**
 * Adds an address to the mailing list (in the caller's transaction). With `doubleOptIn`, a new
 * address (or one still pending) is kept pending and emailed a confirmation link; an address
 * already confirmed stays as it is. A consent (the sign-up without double opt-in, the confirmation
 * with it) clears an earlier unsubscribe. Answers false for an address that is not an email.
 */
export async function signUpToMailingList(
  tx: Db | Tx,
  config: Config,
  input: { site: Website; email: string; source: string; doubleOptIn: boolean; now: Date },
): Promise<SignUpOutcome | undefined> {
  const address = input.email.trim().toLowerCase();
  if (!isValidEmail(address)) return undefined;
  const added = await tx
    .insert(mailingListSubscribers)
    .values({
      id: newId(),
      websiteId: input.site.id,
      email: address,
      source: input.source.slice(0, 100),
      confirmationPending: input.doubleOptIn,
      createdAt: input.now,
    })
    .onConflictDoNothing()
    .returning({ id: mailingListSubscribers.id });
  let pendingId = input.doubleOptIn ? added[0]?.id : undefined;
  if (!added.length) {
    const [known] = await tx
      .select({ id: mailingListSubscribers.id, pending: mailingListSubscribers.confirmationPending })
      .from(mailingListSubscribers)
      .where(
        and(eq(mailingListSubscribers.websiteId, input.site.id), eq(mailingListSubscribers.email, address)),
      );
    // Signing up again while pending sends the link again (it may have been lost).
    if (!known?.pending) {
      if (!input.doubleOptIn) await clearUnsubscribe(tx, input.site.id, address);
      return "already";
    }
    pendingId = known.id;
  }
  if (!pendingId) {
    await clearUnsubscribe(tx, input.site.id, address);
    return "subscribed";
  }
  await queueConfirmation(tx, config, input.site, { id: pendingId, email: address });
  return "pending";
}

/** Opens a confirmation link: the subscriber is consented from now on. Undefined for a bad link. */
export async function confirmSubscription(
  db: Db,
  dataDir: string,
  websiteId: string,
  token: string,
  now: Date,
): Promise<{ email: string } | undefined> {
  const id = await subscriberOfToken(dataDir, token);
  if (!id) return undefined;
  const [row] = await db
    .select()
    .from(mailingListSubscribers)
    .where(and(eq(mailingListSubscribers.id, id), eq(mailingListSubscribers.websiteId, websiteId)));
  if (!row) return undefined;
  if (row.confirmationPending) {
    await db.transaction(async (tx) => {
      await tx
        .update(mailingListSubscribers)
        .set({ confirmationPending: false, confirmedAt: now })
        .where(eq(mailingListSubscribers.id, id));
      await clearUnsubscribe(tx, websiteId, row.email);
    });
  }
  return { email: row.email };
}
