/**
 * The payment provider of this server: Stripe when STRIPE_SECRET_KEY is set, otherwise the
 * built-in test provider. STRIPE_API_URL points Stripe at another origin (a local fake in
 * tests); ATELIER_TEST_PAYMENT_LATENCY_MS slows the test provider's answers (crash tests).
 */
import path from "node:path";
import type { Config } from "../../config.js";
import type { Clock } from "../../lib/clock.js";
import type { PaymentProvider } from "./provider.js";
import { StripePaymentProvider } from "./stripe-provider.js";
import { TestPaymentProvider } from "./test-provider.js";

export * from "./provider.js";

declare module "fastify" {
  interface FastifyInstance {
    payments: PaymentProvider;
  }
}

export function createPaymentProvider(
  config: Config,
  clock: Clock,
  env: NodeJS.ProcessEnv = process.env,
): PaymentProvider {
  if (config.stripeSecretKey) {
    return new StripePaymentProvider({
      secretKey: config.stripeSecretKey,
      apiUrl: env.STRIPE_API_URL || undefined,
    });
  }
  const latency = Number.parseInt(env.ATELIER_TEST_PAYMENT_LATENCY_MS ?? "0", 10);
  return new TestPaymentProvider({
    // The "outside service" is shared by every process: `npm run cluster` points them at one folder.
    dir: env.ATELIER_TEST_PAYMENTS_DIR || path.join(config.dataDir, "test-payments"),
    clock,
    latencyMs: Number.isFinite(latency) && latency > 0 ? latency : 0,
  });
}
