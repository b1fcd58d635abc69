/** Data the tests, the benchmarks and the cluster test share: the demo's owner and a test-card order. */
import { DEFAULT_DEMO_OWNER_EMAIL, DEFAULT_DEMO_OWNER_PASSWORD } from "../src/config.js";

/** The seeded demo account (the owner of the demo site). */
export const DEMO_OWNER = { email: DEFAULT_DEMO_OWNER_EMAIL, password: DEFAULT_DEMO_OWNER_PASSWORD } as const;

/** The test buyer's US street address (all but the country, which forms and orders add their own way). */
export const ADA_ADDRESS = {
  firstName: "Ada",
  lastName: "Lovelace",
  line1: "12 Mercer Street",
  city: "New York",
  state: "NY",
  postalCode: "10013",
};

/** The test buyer's address in the US, with `over` changed. */
export const address = (over: Record<string, string> = {}) => ({ ...ADA_ADDRESS, country: "US", ...over });

/** A card payment of an order, the test card that succeeds unless told. */
export const card = (cardNumber = "4242 4242 4242 4242") => ({
  method: "card" as const,
  cardNumber,
  expMonth: 12,
  expYear: 2034,
  cvc: "123",
});

let keys = 0;
/** An idempotency key no other order of the run has. */
export const newKey = () => `test-key-${Date.now().toString(36)}-${++keys}`;

/** An order body for the site API (`POST /api/commerce/orders`): the test buyer, the test card, `over` changed. */
export const orderBody = (over: Record<string, unknown> = {}) => ({
  email: "ada@example.com",
  shippingAddress: address(),
  payment: card(),
  idempotencyKey: newKey(),
  ...over,
});
