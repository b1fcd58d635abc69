/** Reconciliation of payments nobody settled. */
import { siteBaseUrl } from "../sites/service.js";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { payments, websites } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import type { PaymentRow } from "../orders/service.js";
import { ProviderUnavailableError } from "../payments/provider.js";
import {
  type CheckoutDeps,
  type PlaceOrderContext,
  ABANDON_CHALLENGE_AFTER_MS,
  ABANDON_UNSEEN_AFTER_MS,
  RECONCILE_AFTER_MS,
  MSG_PAYMENT_ABANDONED,
} from "./checkout-types.js";
import { settle } from "./payment.js";

/**
 * Settles payments nobody settled: a process died between the charge and the commit, a buyer
 * left a 3-D Secure challenge, the provider was unreachable. Asks the provider under each
 * payment's key; safe to run in every process at once (settling is conditional).
 */
export async function reconcilePendingPayments(
  deps: CheckoutDeps,
  publicUrl: string,
): Promise<{ settled: number }> {
  const { db, clock } = deps;
  const now = clock.now();
  const stale = await db
    .select()
    .from(payments)
    .where(
      and(
        inArray(payments.status, ["pending", "requires_action"]),
        sql`${payments.provider} <> 'gift_card'`,
        lt(payments.updatedAt, new Date(now.getTime() - RECONCILE_AFTER_MS)),
      ),
    )
    .limit(200);
  let settled = 0;
  for (const p of stale) {
    const ctx = await contextForPayment(db, p, publicUrl);
    if (!ctx) continue;
    try {
      let result = await deps.payments.lookup(p.id, p.providerRef);
      const age = now.getTime() - p.createdAt.getTime();
      if (result.status === "requires_action" && age > ABANDON_CHALLENGE_AFTER_MS && result.providerRef) {
        await deps.payments.cancel(result.providerRef);
        result = await deps.payments.lookup(p.id, result.providerRef);
      }
      if (result.status === "not_found") {
        if (age < ABANDON_UNSEEN_AFTER_MS) continue;
        result = { status: "failed", code: "abandoned", message: MSG_PAYMENT_ABANDONED };
      }
      if (result.status === "requires_action" || result.status === "processing") continue;
      await settle(deps, ctx, p, result).catch((err) => {
        if (!(err instanceof ApiError)) throw err;
      });
      settled++;
    } catch (err) {
      if (!(err instanceof ProviderUnavailableError)) throw err;
    }
  }
  return { settled };
}

/** The order context of a payment: its site, whose links use the site's own address. */
async function contextForPayment(
  db: Db,
  p: PaymentRow,
  publicUrl: string,
): Promise<PlaceOrderContext | undefined> {
  const [site] = await db.select().from(websites).where(eq(websites.id, p.websiteId));
  if (!site) return undefined;
  return { site, cartToken: undefined, viaCartToken: false, origin: siteBaseUrl(site, publicUrl) };
}
