import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeStripe, parseStripeForm } from "./fake-stripe.js";
import type { ChargeRequest, PaymentProvider } from "./provider.js";
import { StripePaymentProvider } from "./stripe-provider.js";
import { TEST_CARDS, TEST_MSG, TestPaymentProvider } from "./test-provider.js";

const clock = { now: () => new Date("2026-06-15T12:00:00Z") };
const card = (
  cardNumber: string,
  extra: Partial<{ expMonth: number; expYear: number; cvc: string }> = {},
) => ({
  method: "card" as const,
  cardNumber,
  expMonth: 12,
  expYear: 2030,
  cvc: "123",
  ...extra,
});
let n = 0;
const req = (method: ChargeRequest["method"], more: Partial<ChargeRequest> = {}): ChargeRequest => ({
  idempotencyKey: `pay_${++n}_${Math.random().toString(36).slice(2)}`,
  amountCents: 4200,
  currency: "USD",
  method,
  returnUrl: "http://shop.test/checkout",
  ...more,
});

describe("the fake Stripe", () => {
  it("parses Stripe's bracket form encoding", () => {
    expect(
      parseStripeForm(
        "amount=100&metadata[a]=b&payment_method_data[card][number]=42&expand[0]=payment_method",
      ),
    ).toEqual({
      amount: "100",
      metadata: { a: "b" },
      payment_method_data: { card: { number: "42" } },
      expand: ["payment_method"],
    });
  });
});

describe("the built-in test provider", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-testpay-"));
  const provider = new TestPaymentProvider({ dir, clock });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("succeeds with 4242 4242 4242 4242 and never charges a key twice", async () => {
    const r = req(card("4242 4242 4242 4242"));
    const first = await provider.charge(r);
    expect(first).toMatchObject({ status: "succeeded", cardLast4: "4242" });
    const again = await provider.charge(r);
    expect(again).toEqual(first);
    const [a, b] = await Promise.all([provider.charge(r), provider.charge(r)]);
    expect(a).toEqual(first);
    expect(b).toEqual(first);
    expect((await provider.charges()).filter((c) => c.idempotencyKey === r.idempotencyKey)).toHaveLength(1);
    expect(await provider.lookup(r.idempotencyKey)).toEqual(first);
    expect(await provider.lookup("never-charged")).toEqual({ status: "not_found" });
  });

  it("declines 4000 0000 0000 0002 with the provider's message", async () => {
    expect(await provider.charge(req(card(TEST_CARDS.DECLINED)))).toMatchObject({
      status: "failed",
      code: "card_declined",
      message: TEST_MSG.DECLINED,
    });
    expect(await provider.charge(req(card(TEST_CARDS.INSUFFICIENT_FUNDS)))).toMatchObject({
      message: TEST_MSG.INSUFFICIENT_FUNDS,
    });
  });

  it("refuses bad card details before charging anything", async () => {
    const cases: [ReturnType<typeof card>, string][] = [
      [card("4242424242424241"), TEST_MSG.INCORRECT_NUMBER],
      [card(TEST_CARDS.SUCCEEDS, { expMonth: 13 }), TEST_MSG.INVALID_MONTH],
      [card(TEST_CARDS.SUCCEEDS, { expYear: 2200 }), TEST_MSG.INVALID_YEAR],
      [card(TEST_CARDS.SUCCEEDS, { expYear: 1999 }), TEST_MSG.INVALID_YEAR],
      [card(TEST_CARDS.SUCCEEDS, { expMonth: 5, expYear: 2026 }), TEST_MSG.EXPIRED],
      [card(TEST_CARDS.SUCCEEDS, { cvc: "12" }), TEST_MSG.INVALID_CVC],
      [card("5555555555554444"), TEST_MSG.NOT_A_TEST_CARD],
    ];
    for (const [method, message] of cases) {
      const r = req(method);
      expect(await provider.charge(r)).toMatchObject({ status: "failed", message });
    }
    // Two-digit years, this month and a security code typed with spaces around are fine, as the
    // checkout's and the billing form's card rules (@atelier/commerce cards.ts) let them through.
    expect(await provider.charge(req(card(TEST_CARDS.SUCCEEDS, { cvc: " 123 " })))).toMatchObject({
      status: "succeeded",
    });
    expect(await provider.charge(req(card(TEST_CARDS.SUCCEEDS, { expMonth: 6, expYear: 26 })))).toMatchObject(
      {
        status: "succeeded",
      },
    );
    expect(await provider.charge(req({ method: "token", token: "tok_nonsense" }))).toMatchObject({
      status: "failed",
      message: TEST_MSG.UNKNOWN_TOKEN,
    });
  });

  it("asks 4000 0027 6000 3184 for a 3-D Secure challenge that can succeed", async () => {
    const r = req(card(TEST_CARDS.REQUIRES_AUTHENTICATION));
    const first = await provider.charge(r);
    expect(first).toMatchObject({
      status: "requires_action",
      nextAction: { type: "test_challenge", amountCents: 4200, currency: "USD", cardLast4: "3184" },
    });
    if (first.status !== "requires_action" || first.nextAction.type !== "test_challenge") throw new Error();
    expect(await provider.challenge("tchl_nonsense")).toBeUndefined();
    expect(await provider.completeChallenge("tchl_nonsense", "succeed")).toBeUndefined();
    expect(await provider.completeChallenge(first.nextAction.challengeId, "succeed")).toMatchObject({
      status: "succeeded",
    });
    // A finished challenge keeps its outcome.
    expect(await provider.completeChallenge(first.nextAction.challengeId, "fail")).toMatchObject({
      status: "succeeded",
    });
    expect(await provider.lookup(r.idempotencyKey)).toMatchObject({ status: "succeeded" });
  });

  it("fails the charge when the challenge fails, and on Apple Pay too", async () => {
    const r = req({ method: "token", token: "tok_applepay_threeDSecureRequired" });
    const first = await provider.charge(r);
    expect(first).toMatchObject({ status: "requires_action", wallet: "apple_pay" });
    if (first.status !== "requires_action" || first.nextAction.type !== "test_challenge") throw new Error();
    expect(await provider.completeChallenge(first.nextAction.challengeId, "fail")).toMatchObject({
      status: "failed",
      authenticationFailed: true,
      message: TEST_MSG.AUTHENTICATION_FAILED,
    });
  });

  it("cancels a challenge nobody completed", async () => {
    const first = await provider.charge(req(card(TEST_CARDS.REQUIRES_AUTHENTICATION)));
    if (first.status !== "requires_action") throw new Error();
    await provider.cancel(first.providerRef);
    expect(
      await provider.lookup(
        (await provider.charges()).find((c) => c.id === first.providerRef)!.idempotencyKey,
      ),
    ).toMatchObject({ status: "failed", code: "canceled" });
  });

  it("saves a card for renewals; 3-D Secure cards fail without the buyer", async () => {
    const ok = await provider.charge(req(card(TEST_CARDS.SUCCEEDS), { saveForFutureUse: true }));
    if (ok.status !== "succeeded" || !ok.savedMethod) throw new Error("no saved method");
    const renewal = {
      idempotencyKey: `renew-${n++}`,
      amountCents: 1900,
      currency: "USD",
      savedMethod: ok.savedMethod,
    };
    expect(await provider.chargeSaved(renewal)).toMatchObject({ status: "succeeded" });
    expect(await provider.chargeSaved(renewal)).toMatchObject({ status: "succeeded" });
    const tds = await provider.charge(
      req(card(TEST_CARDS.REQUIRES_AUTHENTICATION), { saveForFutureUse: true }),
    );
    if (tds.status !== "requires_action" || tds.nextAction.type !== "test_challenge") throw new Error();
    const done = await provider.completeChallenge(tds.nextAction.challengeId, "succeed");
    if (done?.status !== "succeeded" || !done.savedMethod) throw new Error("no saved method");
    expect(
      await provider.chargeSaved({
        idempotencyKey: `renew-${n++}`,
        amountCents: 1900,
        currency: "USD",
        savedMethod: done.savedMethod,
      }),
    ).toMatchObject({ status: "failed", code: "authentication_required" });
    expect(
      await provider.chargeSaved({
        idempotencyKey: `renew-${n++}`,
        amountCents: 1,
        currency: "USD",
        savedMethod: "pm_test_bogus",
      }),
    ).toMatchObject({ status: "failed" });
  });

  it("refunds up to the charge, once per key", async () => {
    const ok = await provider.charge(req(card(TEST_CARDS.SUCCEEDS), { amountCents: 1000 }));
    if (ok.status !== "succeeded") throw new Error();
    // In order: [key, charge, amount, taken]; the same key twice is one refund.
    const refunds: [string, string, number, boolean][] = [
      ["r1", ok.providerRef, 600, true],
      ["r1", ok.providerRef, 600, true],
      ["r2", ok.providerRef, 600, false],
      ["r3", ok.providerRef, 400, true],
      ["r4", "tch_nothing", 1, false],
    ];
    for (const [idempotencyKey, providerRef, amountCents, taken] of refunds) {
      expect(
        await provider.refund({ idempotencyKey, providerRef, amountCents }),
        `${idempotencyKey} of ${amountCents}`,
      ).toMatchObject({ ok: taken });
    }
  });

  it("keeps its ledger across instances, as an outside service would", async () => {
    const r = req(card(TEST_CARDS.SUCCEEDS));
    await provider.charge(r);
    const later = new TestPaymentProvider({ dir, clock });
    expect(await later.lookup(r.idempotencyKey)).toMatchObject({ status: "succeeded" });
    expect(await later.charge(r)).toMatchObject({ status: "succeeded" });
    expect((await later.charges()).filter((c) => c.idempotencyKey === r.idempotencyKey)).toHaveLength(1);
  });
});

describe("the Stripe provider against a local fake of Stripe's API", () => {
  const fake = new FakeStripe();
  let stripe: PaymentProvider;
  beforeAll(async () => {
    const url = await fake.start();
    stripe = new StripePaymentProvider({ secretKey: fake.secretKey, apiUrl: url });
  });
  afterAll(() => fake.stop());

  it("is in test mode with a test key", () => {
    expect(stripe.testMode).toBe(true);
    expect(new StripePaymentProvider({ secretKey: "sk_live_x" }).testMode).toBe(false);
  });

  it("charges with a PaymentIntent, replays by Idempotency-Key and finds it again by search", async () => {
    const r = req(card(TEST_CARDS.SUCCEEDS), { email: "ada@example.com" });
    const first = await stripe.charge(r);
    expect(first).toMatchObject({ status: "succeeded", cardLast4: "4242" });
    expect(await stripe.charge(r)).toEqual(first);
    expect(
      fake.succeededIntents().filter((i) => i.metadata.atelier_payment_id === r.idempotencyKey),
    ).toHaveLength(1);
    // Found by search or by its id, the payment says which card paid (a replayed order shows it).
    expect(await stripe.lookup(r.idempotencyKey)).toMatchObject({ status: "succeeded", cardLast4: "4242" });
    if (first.status !== "succeeded") throw new Error();
    expect(await stripe.lookup(r.idempotencyKey, first.providerRef)).toMatchObject({
      status: "succeeded",
      cardLast4: "4242",
    });
    expect(await stripe.lookup("never")).toEqual({ status: "not_found" });
    expect(await stripe.lookup("x", "pi_0000")).toEqual({ status: "not_found" });
  });

  it("answers declines with Stripe's message", async () => {
    expect(await stripe.charge(req(card(TEST_CARDS.DECLINED)))).toMatchObject({
      status: "failed",
      code: "card_declined",
      message: "Your card was declined.",
    });
    expect(await stripe.charge(req(card("4242424242424241")))).toMatchObject({
      status: "failed",
      message: "Your card number is incorrect.",
    });
    expect(await stripe.charge(req({ method: "token", token: "pm_card_chargeDeclined" }))).toMatchObject({
      status: "failed",
    });
  });

  it("sends 3-D Secure cards to the issuer's page and reads the outcome after", async () => {
    const r = req(card(TEST_CARDS.REQUIRES_AUTHENTICATION));
    const first = await stripe.charge(r);
    expect(first).toMatchObject({ status: "requires_action", nextAction: { type: "redirect" } });
    if (first.status !== "requires_action" || first.nextAction.type !== "redirect") throw new Error();
    const back = await fetch(`${first.nextAction.url}/succeed`, { redirect: "manual" });
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toContain("http://shop.test/checkout");
    expect(await stripe.lookup(r.idempotencyKey, first.providerRef)).toMatchObject({ status: "succeeded" });

    const failing = await stripe.charge(req(card(TEST_CARDS.REQUIRES_AUTHENTICATION)));
    if (failing.status !== "requires_action" || failing.nextAction.type !== "redirect") throw new Error();
    await fetch(`${failing.nextAction.url}/fail`, { redirect: "manual" });
    expect(await stripe.lookup("", failing.providerRef)).toMatchObject({
      status: "failed",
      authenticationFailed: true,
    });
  });

  it("saves the card on a customer and charges it off-session", async () => {
    const first = await stripe.charge(
      req(card(TEST_CARDS.SUCCEEDS), { saveForFutureUse: true, email: "sub@example.com" }),
    );
    if (first.status !== "succeeded" || !first.savedMethod) throw new Error("not saved");
    expect(first.savedMethod).toMatch(/^cus_[a-f0-9]+\|pm_[a-f0-9]+$/);
    const renewal = await stripe.chargeSaved({
      idempotencyKey: `ren-${n++}`,
      amountCents: 1900,
      currency: "USD",
      savedMethod: first.savedMethod,
    });
    expect(renewal).toMatchObject({ status: "succeeded" });
    expect(
      await stripe.chargeSaved({ idempotencyKey: "x", amountCents: 1, currency: "USD", savedMethod: "junk" }),
    ).toMatchObject({
      status: "failed",
    });
  });

  it("refunds in part and in full, never more than charged", async () => {
    const ok = await stripe.charge(req(card(TEST_CARDS.SUCCEEDS), { amountCents: 5000 }));
    if (ok.status !== "succeeded") throw new Error();
    expect(
      await stripe.refund({ idempotencyKey: `rf-${n++}`, providerRef: ok.providerRef, amountCents: 2000 }),
    ).toMatchObject({ ok: true });
    expect(
      await stripe.refund({ idempotencyKey: `rf-${n++}`, providerRef: ok.providerRef, amountCents: 4000 }),
    ).toMatchObject({ ok: false });
    expect(
      await stripe.refund({ idempotencyKey: `rf-${n++}`, providerRef: ok.providerRef, amountCents: 3000 }),
    ).toMatchObject({ ok: true });
  });

  it("cancels a PaymentIntent waiting for authentication", async () => {
    const first = await stripe.charge(req(card(TEST_CARDS.REQUIRES_AUTHENTICATION)));
    if (first.status !== "requires_action") throw new Error();
    await stripe.cancel(first.providerRef);
    await stripe.cancel(first.providerRef);
    expect(await stripe.lookup("", first.providerRef)).toMatchObject({ status: "failed", code: "canceled" });
  });

  it("reports a provider it cannot reach as unavailable, not as a decline", async () => {
    const down = new StripePaymentProvider({
      secretKey: fake.secretKey,
      apiUrl: "http://127.0.0.1:9",
      timeoutMs: 2000,
    });
    await expect(down.charge(req(card(TEST_CARDS.SUCCEEDS)))).rejects.toThrow(/could not be reached/);
    const wrongKey = new StripePaymentProvider({ secretKey: "sk_test_wrong", apiUrl: fake.url });
    await expect(wrongKey.charge(req(card(TEST_CARDS.SUCCEEDS)))).rejects.toThrow(/could not be reached/);
  });
});
