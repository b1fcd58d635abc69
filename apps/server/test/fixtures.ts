/** Data the tests, the benchmarks and the cluster test share: the demo's owner and a test-card order. */
import { DEFAULT_DEMO_OWNER_EMAIL, DEFAULT_DEMO_OWNER_PASSWORD } from "../src/config.js";

/** The seeded demo account (the owner of the demo site). */
export const DEMO_OWNER = { email: DEFAULT_DEMO_OWNER_EMAIL, password: DEFAULT_DEMO_OWNER_PASSWORD } as const;

/** The test buyer's US street address (all but the country, which forms and orders add their own way). */
export const ADA_ADDRESS = {
  firstName: "Ada",
  lastName: "Lovelace",
  line1: "12 Mercer St",
  city: "New York",
  state: "NY",
  postalCode: "10013",
};

/** An order body for the site API (`POST /api/commerce/orders`): a US address and the test card. */
export const testCardOrder = (email: string, idempotencyKey: string) => ({
  email,
  shippingAddress: { ...ADA_ADDRESS, country: "US" },
  payment: { method: "card", cardNumber: "4242424242424242", expMonth: 12, expYear: 2034, cvc: "123" },
  idempotencyKey,
});
