/** The checkout tests' shared setup: the seeded demo on a clock the tests can move, and its test payment provider. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { type TestApp, createTestApp } from "../../../test/harness.js";
import { payments } from "../../db/schema.js";
import type { TestPaymentProvider } from "../payments/test-provider.js";

export let t: TestApp;
export let ledger: TestPaymentProvider;
export const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

/** Starts the file's app before its tests and closes it after them. */
export function useCheckoutApp(): void {
  beforeAll(async () => {
    t = await createTestApp({ seed: true, clock });
    ledger = t.app.payments as TestPaymentProvider;
  });
  afterAll(() => t.close());
}

export const db = () => t.database.db;

/** The provider's charges for the order sent with this idempotency key. */
export const chargesFor = async (key: string) => {
  const [p] = await db().select().from(payments).where(eq(payments.idempotencyKey, key));
  return p ? (await ledger.charges()).filter((c) => c.idempotencyKey === p.id) : [];
};
