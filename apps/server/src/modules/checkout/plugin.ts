/**
 * Everything of checkout in one plugin: the payment provider (app.payments), the checkout and
 * order calls, the owner's orders and subscriptions, the test provider's challenge, the
 * subscription renewal job, and the reconciler that settles payments nobody settled (run at
 * start and every few minutes by housekeeping, in every process; settling is idempotent).
 */
import type { FastifyPluginAsync } from "fastify";
import type { Deps } from "../../http/deps.js";
import { registerHousekeeping } from "../jobs/plugin.js";
import { registerJobHandler } from "../jobs/service.js";
import { orderRoutes } from "../orders/routes.js";
import { createPaymentProvider } from "../payments/index.js";
import type { PaymentProvider } from "../payments/provider.js";
import { paymentRoutes } from "../payments/routes.js";
import { subscriptionRoutes } from "../subscriptions/routes.js";
import { RENEW_JOB, renewDueSubscriptions, renewSubscription } from "../subscriptions/service.js";
import { checkoutRoutes } from "./routes.js";
import { reconcilePendingPayments } from "./service.js";

/** The provider of each app's deps (jobs and housekeeping get deps, not the app). */
const providers = new WeakMap<Deps, PaymentProvider>();
export function hasPayments(deps: Deps): boolean {
  return providers.has(deps);
}
export function paymentsOf(deps: Deps): PaymentProvider {
  const p = providers.get(deps);
  if (!p) throw new Error("no payment provider registered for these deps");
  return p;
}

registerJobHandler(RENEW_JOB, async (deps, payload) => {
  await renewSubscription({ ...deps, payments: paymentsOf(deps) }, String(payload.subscriptionId ?? ""));
});
registerHousekeeping("subscription-renewals", async (deps) => {
  if (providers.has(deps)) await renewDueSubscriptions({ ...deps, payments: paymentsOf(deps) });
});
registerHousekeeping("payment-reconciliation", async (deps) => {
  if (providers.has(deps))
    await reconcilePendingPayments({ ...deps, payments: paymentsOf(deps) }, deps.config.publicUrl);
});

export const checkoutPlugin: FastifyPluginAsync = async (app) => {
  const provider = createPaymentProvider(app.deps.config, app.deps.clock);
  providers.set(app.deps, provider);
  app.decorate("payments", provider);
  await app.register(paymentRoutes);
  await app.register(checkoutRoutes);
  await app.register(orderRoutes);
  await app.register(subscriptionRoutes);
};
// Not encapsulated: app.payments is the app's provider, seen by every plugin and by tests.
(checkoutPlugin as unknown as Record<symbol, boolean>)[Symbol.for("skip-override")] = true;
