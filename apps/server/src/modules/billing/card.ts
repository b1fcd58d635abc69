/**
 * The card the site's plan is paid with (SPEC §1 billing panel: payment info).
 *
 * Saving a card verifies it with the payment provider by a zero-amount charge that keeps the
 * method. A card whose bank asks for 3-D Secure is authenticated once, by the owner, while saving
 * it: the answer then carries the challenge, the card waits in `billing_card_setups`, and
 * `confirmPaymentInfo` keeps it once the provider says the authentication succeeded. Later plan
 * charges are made without the owner. Only the provider's reference, the last four digits, the
 * expiry and the billing country are kept.
 */
import { cardDigits, cardErrors, isCountryCode } from "@atelier/commerce";
import type { PaymentInfo, PaymentInfoAnswer } from "@atelier/owner-api";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { billingCardSetups, billingPaymentMethods, billingSubscriptions } from "../../db/schema.js";
import { badRequest, conflict, throwFieldErrors } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import type { Website } from "../sites/service.js";
import { renewPlan } from "./renewals.js";
import { BILLING_MSG, type BillingDeps, PaymentFailed } from "./service.js";

/** The billing panel's own card messages (the card details' are `CARD_MSG` of @atelier/commerce). */
export const BILLING_CARD_MSG = {
  COUNTRY: "Choose the country of the card's billing address.",
  NO_SETUP: "There is no card waiting for authentication. Enter the card again.",
  NOT_AUTHENTICATED: "Complete the card's authentication first.",
} as const;

interface CardInput {
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  /** ISO 3166 alpha-2 code of the billing address (the plan's tax follows it). */
  country?: string | null;
}

export async function getPaymentInfo(db: Db, site: Website): Promise<PaymentInfo | null> {
  const [m] = await db
    .select()
    .from(billingPaymentMethods)
    .where(eq(billingPaymentMethods.websiteId, site.id));
  return m
    ? {
        cardLast4: m.cardLast4,
        expMonth: m.expMonth,
        expYear: m.expYear,
        billingCountry: m.billingCountry,
        updatedAt: m.updatedAt.getTime(),
      }
    : null;
}

interface SavedCard {
  savedMethod: string;
  cardLast4: string;
  expMonth: number;
  expYear: number;
  billingCountry: string | null;
}

/**
 * Keeps a verified card as the site's payment method. A site whose renewal failed for want of a
 * good card is charged again at once with the new one (its failure, if any, shows in billing).
 */
async function keepCard(deps: BillingDeps, site: Website, card: SavedCard): Promise<PaymentInfo | null> {
  const row = { provider: deps.payments.name, ...card, updatedAt: deps.clock.now() };
  await deps.db
    .insert(billingPaymentMethods)
    .values({ websiteId: site.id, ...row })
    .onConflictDoUpdate({ target: billingPaymentMethods.websiteId, set: row });
  await deps.db.delete(billingCardSetups).where(eq(billingCardSetups.websiteId, site.id));
  const pastDue = await deps.db
    .select({ id: billingSubscriptions.id })
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.websiteId, site.id));
  for (const sub of pastDue) await renewPlan(deps, sub.id, { onlyPastDue: true });
  return getPaymentInfo(deps.db, site);
}

/**
 * Verifies and saves a card. Answers the saved card, or — for a card that needs its holder's
 * authentication — the challenge to complete before `confirmPaymentInfo`.
 */
export async function savePaymentInfo(
  deps: BillingDeps,
  site: Website,
  input: CardInput,
): Promise<PaymentInfoAnswer> {
  const method = {
    method: "card" as const,
    cardNumber: input.cardNumber,
    expMonth: input.expMonth,
    expYear: input.expYear,
    cvc: input.cvc,
  };
  const errors: Record<string, string> = cardErrors(method);
  const country = input.country ? input.country.trim().toUpperCase() : null;
  if (country && !isCountryCode(country)) errors.country = BILLING_CARD_MSG.COUNTRY;
  throwFieldErrors(errors);
  const year = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
  const now = deps.clock.now();
  if (year * 12 + input.expMonth - 1 < now.getUTCFullYear() * 12 + now.getUTCMonth())
    throw badRequest(BILLING_MSG.CARD_EXPIRED, { expYear: BILLING_MSG.CARD_EXPIRED });
  const chargeKey = `billing-card-${newId()}`;
  const result = await deps.payments.charge({
    idempotencyKey: chargeKey,
    amountCents: 0,
    currency: "USD",
    method,
    description: "Card verification for the site's plan",
    returnUrl: `${deps.publicUrl}/config/sites/${site.id}/settings/billing?card=authenticated`,
    saveForFutureUse: true,
    metadata: { websiteId: site.id },
  });
  const card = {
    cardLast4: cardDigits(input.cardNumber).slice(-4),
    expMonth: input.expMonth,
    expYear: year,
    billingCountry: country,
  };
  if (result.status === "requires_action") {
    const setup = { chargeKey, providerRef: result.providerRef, ...card, createdAt: now };
    await deps.db
      .insert(billingCardSetups)
      .values({ websiteId: site.id, ...setup })
      .onConflictDoUpdate({ target: billingCardSetups.websiteId, set: setup });
    return {
      paymentInfo: await getPaymentInfo(deps.db, site),
      authentication: { nextAction: result.nextAction },
    };
  }
  if (result.status !== "succeeded" || !result.savedMethod)
    throw new PaymentFailed(
      result.status === "failed" ? result.message : "Your card was declined.",
      "card_declined",
    );
  return { paymentInfo: await keepCard(deps, site, { savedMethod: result.savedMethod, ...card }) };
}

/** Keeps the card waiting for authentication once its holder has completed it. */
export async function confirmPaymentInfo(deps: BillingDeps, site: Website): Promise<PaymentInfoAnswer> {
  const [setup] = await deps.db
    .select()
    .from(billingCardSetups)
    .where(eq(billingCardSetups.websiteId, site.id));
  if (!setup) throw conflict(BILLING_CARD_MSG.NO_SETUP);
  const result = await deps.payments.lookup(setup.chargeKey, setup.providerRef);
  if (result.status === "requires_action" || result.status === "processing")
    throw conflict(BILLING_CARD_MSG.NOT_AUTHENTICATED);
  if (result.status !== "succeeded" || !result.savedMethod) {
    await deps.db.delete(billingCardSetups).where(eq(billingCardSetups.websiteId, site.id));
    throw new PaymentFailed(
      result.status === "failed" ? result.message : "Your card was declined.",
      "card_declined",
    );
  }
  const { cardLast4, expMonth, expYear, billingCountry } = setup;
  return {
    paymentInfo: await keepCard(deps, site, {
      savedMethod: result.savedMethod,
      cardLast4,
      expMonth,
      expYear,
      billingCountry,
    }),
  };
}
