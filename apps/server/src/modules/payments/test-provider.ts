/**
 * The built-in test provider: card payments with test cards, no money involved. It behaves
 * like an outside payment service: its ledger lives in a file under DATA_DIR/test-payments
 * (test-ledger.ts; not in our database), every charge is kept under its idempotency key, and a
 * process killed after the charge finds it there again.
 *
 * Test cards:
 * - 4242 4242 4242 4242 succeeds;
 * - 4000 0000 0000 0002 is declined;
 * - 4000 0000 0000 9995 is declined for insufficient funds;
 * - 4000 0027 6000 3184 requires extra authentication (3-D Secure) on every charge: the
 *   checkout shows a challenge that the buyer completes or fails; without the buyer (renewals)
 *   it fails.
 * - 4000 0025 0000 3155 requires the authentication once, when the card is saved for later
 *   charges: after a completed challenge, charges without its holder go through.
 * Tokens: tok_visa, tok_chargeDeclined, tok_threeDSecureRequired, and the Apple Pay tokens
 * tok_applepay_visa and tok_applepay_threeDSecureRequired.
 */
import { createHash, randomBytes } from "node:crypto";
import { CARD_MSG, cardDigits, luhnValid, validCvc, validExpMonth, validExpYear } from "@atelier/commerce";
import type { Clock } from "../../lib/clock.js";
import { TestLedger } from "./test-ledger.js";
import type {
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  RefundRequest,
  RefundResult,
  SavedChargeRequest,
  Wallet,
} from "./provider.js";

export const TEST_CARDS = {
  SUCCEEDS: "4242424242424242",
  DECLINED: "4000000000000002",
  INSUFFICIENT_FUNDS: "4000000000009995",
  REQUIRES_AUTHENTICATION: "4000002760003184",
  AUTHENTICATE_ONCE: "4000002500003155",
} as const;

const TOKENS: Record<string, { card: string; wallet?: Wallet }> = {
  tok_visa: { card: TEST_CARDS.SUCCEEDS },
  tok_chargeDeclined: { card: TEST_CARDS.DECLINED },
  tok_threeDSecureRequired: { card: TEST_CARDS.REQUIRES_AUTHENTICATION },
  tok_applepay_visa: { card: TEST_CARDS.SUCCEEDS, wallet: "apple_pay" },
  tok_applepay_threeDSecureRequired: { card: TEST_CARDS.REQUIRES_AUTHENTICATION, wallet: "apple_pay" },
};

export const TEST_MSG = {
  ...CARD_MSG,
  EXPIRED: "Your card has expired.",
  DECLINED: "Your card was declined.",
  INSUFFICIENT_FUNDS: "Your card has insufficient funds.",
  NOT_A_TEST_CARD:
    "Your card was declined. This store takes test payments only: use a test card such as 4242 4242 4242 4242.",
  UNKNOWN_TOKEN: "This payment method is not valid. Please enter your card again.",
  AUTHENTICATION_FAILED:
    "The extra authentication of your card failed. Please try again or use another card.",
  AUTHENTICATION_REQUIRED_OFF_SESSION:
    "This card needs its holder to authenticate each payment, which is not possible for an automatic charge.",
} as const;

interface LedgerCharge {
  id: string;
  idempotencyKey: string;
  amountCents: number;
  currency: string;
  cardLast4: string;
  wallet?: Wallet;
  status: "succeeded" | "requires_action" | "failed" | "canceled";
  code?: string;
  message?: string;
  authenticationFailed?: boolean;
  challengeId?: string;
  savedMethod?: string;
  refundedCents: number;
  createdAt: string;
}

interface VaultCard {
  card: string;
  expMonth: number;
  expYear: number;
  /** Its holder completed the authentication when saving it (later charges need none). */
  authenticated?: boolean;
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/** A charge's id names its file (the hash of its key): found by id without an index to write. */
const chargeId = (idempotencyKey: string) => `tch_${sha(idempotencyKey)}`;

interface TestProviderOptions {
  /** Folder of the ledger (DATA_DIR/test-payments). */
  dir: string;
  clock: Clock;
  /**
   * Milliseconds the answer of a charge takes to arrive after the charge is recorded, as a slow
   * network would: lets a test kill the process between the charge and our commit.
   */
  latencyMs?: number;
}

type CardCheck = { ok: true; card: string; wallet?: Wallet } | { ok: false; code: string; message: string };

export class TestPaymentProvider implements PaymentProvider {
  readonly name = "test" as const;
  readonly testMode = true;
  private readonly ledger: TestLedger;
  private readonly clock: Clock;
  private readonly latencyMs: number;
  /** One operation per key at a time in this process (the ledger's first creation of a name guards across processes). */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(opts: TestProviderOptions) {
    this.ledger = new TestLedger(opts.dir);
    this.clock = opts.clock;
    this.latencyMs = opts.latencyMs ?? 0;
  }

  private chargeName(key: string) {
    return `charges/${sha(key)}`;
  }

  private serialize<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.inFlight.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.catch(() => {});
    this.inFlight.set(key, settled);
    void settled.then(() => {
      if (this.inFlight.get(key) === settled) this.inFlight.delete(key);
    });
    return run;
  }

  private checkCard(request: ChargeRequest): CardCheck {
    const m = request.method;
    if (m.method === "token") {
      const known = TOKENS[m.token];
      if (!known) return { ok: false, code: "invalid_token", message: TEST_MSG.UNKNOWN_TOKEN };
      return { ok: true, card: known.card, wallet: known.wallet };
    }
    const digits = cardDigits(m.cardNumber);
    if (!luhnValid(digits))
      return { ok: false, code: "incorrect_number", message: TEST_MSG.INCORRECT_NUMBER };
    if (!validExpMonth(m.expMonth))
      return { ok: false, code: "invalid_expiry_month", message: TEST_MSG.INVALID_MONTH };
    if (!validExpYear(m.expYear))
      return { ok: false, code: "invalid_expiry_year", message: TEST_MSG.INVALID_YEAR };
    const year = m.expYear < 100 ? 2000 + m.expYear : m.expYear;
    const now = this.clock.now();
    const nowYm = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (year * 12 + (m.expMonth - 1) < nowYm)
      return { ok: false, code: "expired_card", message: TEST_MSG.EXPIRED };
    if (!validCvc(m.cvc)) return { ok: false, code: "invalid_cvc", message: TEST_MSG.INVALID_CVC };
    return { ok: true, card: digits };
  }

  private decide(
    card: string,
    offSession: boolean,
    authenticated = false,
  ): Pick<LedgerCharge, "status" | "code" | "message"> {
    switch (card) {
      case TEST_CARDS.AUTHENTICATE_ONCE:
        if (!offSession) return { status: "requires_action" };
        return authenticated
          ? { status: "succeeded" }
          : {
              status: "failed",
              code: "authentication_required",
              message: TEST_MSG.AUTHENTICATION_REQUIRED_OFF_SESSION,
            };
      case TEST_CARDS.SUCCEEDS:
        return { status: "succeeded" };
      case TEST_CARDS.DECLINED:
        return { status: "failed", code: "card_declined", message: TEST_MSG.DECLINED };
      case TEST_CARDS.INSUFFICIENT_FUNDS:
        return { status: "failed", code: "card_declined", message: TEST_MSG.INSUFFICIENT_FUNDS };
      case TEST_CARDS.REQUIRES_AUTHENTICATION:
        return offSession
          ? {
              status: "failed",
              code: "authentication_required",
              message: TEST_MSG.AUTHENTICATION_REQUIRED_OFF_SESSION,
            }
          : { status: "requires_action" };
      default:
        return { status: "failed", code: "card_declined", message: TEST_MSG.NOT_A_TEST_CARD };
    }
  }

  private toResult(c: LedgerCharge): ChargeResult {
    switch (c.status) {
      case "succeeded":
        return {
          status: "succeeded",
          providerRef: c.id,
          cardLast4: c.cardLast4,
          wallet: c.wallet,
          savedMethod: c.savedMethod,
        };
      case "requires_action":
        return {
          status: "requires_action",
          providerRef: c.id,
          wallet: c.wallet,
          cardLast4: c.cardLast4,
          nextAction: {
            type: "test_challenge",
            challengeId: c.challengeId!,
            amountCents: c.amountCents,
            currency: c.currency,
            cardLast4: c.cardLast4,
          },
        };
      case "canceled":
        return {
          status: "failed",
          providerRef: c.id,
          code: "canceled",
          message: "The payment was canceled.",
        };
      default:
        return {
          status: "failed",
          providerRef: c.id,
          code: c.code ?? "card_declined",
          message: c.message ?? TEST_MSG.DECLINED,
          wallet: c.wallet,
          authenticationFailed: c.authenticationFailed,
        };
    }
  }

  private record(key: string, charge: LedgerCharge): LedgerCharge {
    const name = this.chargeName(key);
    if (!this.ledger.create(name, charge)) return this.ledger.read<LedgerCharge>(name)!;
    if (charge.challengeId) {
      this.ledger.write(`challenges/${charge.challengeId}`, { key });
    }
    return charge;
  }

  private async respond(result: ChargeResult): Promise<ChargeResult> {
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
    return result;
  }

  charge(request: ChargeRequest): Promise<ChargeResult> {
    return this.serialize(request.idempotencyKey, async () => {
      const check = this.checkCard(request);
      // A key charged before answers its charge. A new charge of valid details finds that out by
      // creating its charge in the ledger (record), with no read before; one that saves the card reads first, so
      // that a repeat saves nothing twice.
      if (!check.ok || request.saveForFutureUse) {
        const existing = this.ledger.read<LedgerCharge>(this.chargeName(request.idempotencyKey));
        if (existing) return this.respond(this.toResult(existing));
      }
      if (!check.ok) {
        // Invalid details are refused before anything is charged: nothing to remember.
        return this.respond({ status: "failed", code: check.code, message: check.message });
      }
      const outcome = this.decide(check.card, false);
      const id = chargeId(request.idempotencyKey);
      const charge: LedgerCharge = {
        id,
        idempotencyKey: request.idempotencyKey,
        amountCents: request.amountCents,
        currency: request.currency,
        cardLast4: check.card.slice(-4),
        wallet: check.wallet,
        ...outcome,
        challengeId:
          outcome.status === "requires_action" ? `tchl_${randomBytes(12).toString("hex")}` : undefined,
        refundedCents: 0,
        createdAt: this.clock.now().toISOString(),
      };
      if (request.saveForFutureUse && outcome.status !== "failed") {
        charge.savedMethod = `pm_test_${randomBytes(10).toString("hex")}`;
        const m = request.method;
        const vault: VaultCard =
          m.method === "card"
            ? {
                card: check.card,
                expMonth: m.expMonth,
                expYear: m.expYear < 100 ? 2000 + m.expYear : m.expYear,
              }
            : { card: check.card, expMonth: 12, expYear: this.clock.now().getUTCFullYear() + 5 };
        this.ledger.write(`vault/${charge.savedMethod}`, vault);
      }
      return this.respond(this.toResult(this.record(request.idempotencyKey, charge)));
    });
  }

  async lookup(idempotencyKey: string): Promise<ChargeResult> {
    const existing = this.ledger.read<LedgerCharge>(this.chargeName(idempotencyKey));
    return existing ? this.toResult(existing) : { status: "not_found" };
  }

  chargeSaved(request: SavedChargeRequest): Promise<ChargeResult> {
    return this.serialize(request.idempotencyKey, async () => {
      const existing = this.ledger.read<LedgerCharge>(this.chargeName(request.idempotencyKey));
      if (existing) return this.respond(this.toResult(existing));
      const vault = /^pm_test_[a-f0-9]{20}$/.test(request.savedMethod)
        ? this.ledger.read<VaultCard>(`vault/${request.savedMethod}`)
        : undefined;
      if (!vault)
        return { status: "failed", code: "invalid_payment_method", message: TEST_MSG.UNKNOWN_TOKEN };
      const now = this.clock.now();
      const expired =
        vault.expYear * 12 + (vault.expMonth - 1) < now.getUTCFullYear() * 12 + now.getUTCMonth();
      const outcome = expired
        ? { status: "failed" as const, code: "expired_card", message: TEST_MSG.EXPIRED }
        : this.decide(vault.card, true, vault.authenticated);
      const charge: LedgerCharge = {
        id: chargeId(request.idempotencyKey),
        idempotencyKey: request.idempotencyKey,
        amountCents: request.amountCents,
        currency: request.currency,
        cardLast4: vault.card.slice(-4),
        ...outcome,
        savedMethod: request.savedMethod,
        refundedCents: 0,
        createdAt: now.toISOString(),
      };
      return this.respond(this.toResult(this.record(request.idempotencyKey, charge)));
    });
  }

  /** The challenge behind a 3-D Secure test card, for the checkout page to show. */
  async challenge(challengeId: string): Promise<LedgerCharge | undefined> {
    if (!/^tchl_[a-f0-9]{24}$/.test(challengeId)) return undefined;
    const ref = this.ledger.read<{ key: string }>(`challenges/${challengeId}`);
    return ref ? this.ledger.read<LedgerCharge>(this.chargeName(ref.key)) : undefined;
  }

  /** The buyer completes or fails the challenge; a finished challenge keeps its outcome. */
  async completeChallenge(
    challengeId: string,
    outcome: "succeed" | "fail",
  ): Promise<ChargeResult | undefined> {
    const found = await this.challenge(challengeId);
    if (!found) return undefined;
    return this.serialize(found.idempotencyKey, async () => {
      const name = this.chargeName(found.idempotencyKey);
      const charge = this.ledger.read<LedgerCharge>(name)!;
      if (charge.status === "requires_action") {
        if (outcome === "succeed") {
          charge.status = "succeeded";
          if (charge.savedMethod) this.markAuthenticated(charge.savedMethod);
        } else
          Object.assign(charge, {
            status: "failed",
            code: "payment_intent_authentication_failure",
            message: TEST_MSG.AUTHENTICATION_FAILED,
            authenticationFailed: true,
          });
        this.ledger.write(name, charge);
      }
      return this.toResult(charge);
    });
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    const refundName = `refunds/${sha(request.idempotencyKey)}`;
    const done = this.ledger.read<{ id: string }>(refundName);
    if (done) return { ok: true, refundRef: done.id };
    const ref = this.findByRef(request.providerRef);
    if (!ref) return { ok: false, message: "No such charge." };
    return this.serialize(ref.idempotencyKey, async () => {
      const again = this.ledger.read<{ id: string }>(refundName);
      if (again) return { ok: true as const, refundRef: again.id };
      const name = this.chargeName(ref.idempotencyKey);
      const charge = this.ledger.read<LedgerCharge>(name)!;
      if (charge.status !== "succeeded")
        return { ok: false as const, message: "This charge cannot be refunded." };
      if (request.amountCents <= 0 || charge.refundedCents + request.amountCents > charge.amountCents)
        return { ok: false as const, message: "The refund is more than what is left of the charge." };
      charge.refundedCents += request.amountCents;
      const id = `tre_${randomBytes(10).toString("hex")}`;
      this.ledger.write(refundName, { id, amountCents: request.amountCents, charge: charge.id });
      this.ledger.write(name, charge);
      return { ok: true as const, refundRef: id };
    });
  }

  async cancel(providerRef: string): Promise<void> {
    const found = this.findByRef(providerRef);
    if (!found) return;
    await this.serialize(found.idempotencyKey, async () => {
      const name = this.chargeName(found.idempotencyKey);
      const charge = this.ledger.read<LedgerCharge>(name)!;
      if (charge.status === "requires_action") {
        charge.status = "canceled";
        this.ledger.write(name, charge);
      }
    });
  }

  private markAuthenticated(savedMethod: string): void {
    const name = `vault/${savedMethod}`;
    const vault = this.ledger.read<VaultCard>(name);
    if (vault) this.ledger.write(name, { ...vault, authenticated: true });
  }

  /**
   * Charges are filed by their key's hash, which their id carries. (Ids of older ledgers were
   * random: a reference index maps them back to their key.)
   */
  private findByRef(providerRef: string): LedgerCharge | undefined {
    if (/^tch_[a-f0-9]{64}$/.test(providerRef))
      return this.ledger.read<LedgerCharge>(`charges/${providerRef.slice(4)}`);
    if (!/^tch_[a-f0-9]{20}$/.test(providerRef)) return undefined;
    const ref = this.ledger.read<{ key: string }>(`refs/${providerRef}`);
    return ref ? this.ledger.read<LedgerCharge>(this.chargeName(ref.key)) : undefined;
  }

  /** Every charge of the ledger (tests count charges with it). */
  async charges(): Promise<LedgerCharge[]> {
    return this.ledger.list<LedgerCharge>("charges/");
  }
}
