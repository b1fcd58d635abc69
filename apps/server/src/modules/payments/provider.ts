/**
 * One interface for card payments. The built-in test provider and the Stripe provider answer
 * the same shapes, so checkout, refunds and subscription renewals never know which is behind.
 *
 * Every charge carries an idempotency key (our payment id): asking again with the same key
 * never charges twice, and `lookup` finds what became of a charge whose answer we never got
 * (a process killed between the charge and the commit).
 */
import { cardErrors, type NextAction } from "@atelier/commerce";

/** What the buyer pays with: card details, or a token made by a wallet or the provider's script. */
export type PaymentMethodInput =
  | { method: "card"; cardNumber: string; expMonth: number; expYear: number; cvc: string }
  | { method: "token"; token: string };

/** What the browser must do before the charge can complete (3-D Secure): @atelier/commerce's, which the browser reads. */
export type { NextAction } from "@atelier/commerce";

export type Wallet = "apple_pay";

export type ChargeResult =
  | {
      status: "succeeded";
      providerRef: string;
      cardLast4?: string;
      wallet?: Wallet;
      /** A reusable reference for later off-session charges (when asked to save the method). */
      savedMethod?: string;
    }
  | {
      status: "requires_action";
      providerRef: string;
      nextAction: NextAction;
      wallet?: Wallet;
      cardLast4?: string;
    }
  | {
      status: "failed";
      providerRef?: string;
      /** The provider's message for the buyer, e.g. "Your card was declined." */
      message: string;
      code: string;
      wallet?: Wallet;
      /** True when the failure was a failed extra authentication. */
      authenticationFailed?: boolean;
    }
  /** Accepted but not final yet (the provider is still processing it). */
  | { status: "processing"; providerRef: string }
  /** The provider has no charge under this key (lookup only). */
  | { status: "not_found" };

export interface ChargeRequest {
  /** Our payment id; the provider's idempotency key. */
  idempotencyKey: string;
  amountCents: number;
  /** ISO 4217 code, upper case. */
  currency: string;
  method: PaymentMethodInput;
  email?: string;
  description?: string;
  /** Where a redirect-based challenge comes back to. */
  returnUrl: string;
  /** Keep the method for later charges without the buyer (subscriptions). */
  saveForFutureUse?: boolean;
  metadata?: Record<string, string>;
}

export interface SavedChargeRequest {
  idempotencyKey: string;
  amountCents: number;
  currency: string;
  savedMethod: string;
  description?: string;
  metadata?: Record<string, string>;
}

export interface RefundRequest {
  idempotencyKey: string;
  providerRef: string;
  amountCents: number;
}

export type RefundResult = { ok: true; refundRef: string } | { ok: false; message: string };

export interface PaymentProvider {
  readonly name: "test" | "stripe";
  /** Test mode: no real money moves (the built-in provider, or a Stripe test key). */
  readonly testMode: boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** What became of the charge made under this key (providerRef speeds it up when known). */
  lookup(idempotencyKey: string, providerRef?: string | null): Promise<ChargeResult>;
  /** A charge without the buyer present, with a method saved earlier (renewals). */
  chargeSaved(request: SavedChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Gives up on a charge still waiting for authentication. */
  cancel(providerRef: string): Promise<void>;
}

/** The provider could not be reached or answered nonsense: nothing is known about the charge. */
export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ProviderUnavailableError";
  }
}

/**
 * Card details that cannot be a card (the rules of `cardErrors`), keyed by field of the payment
 * (`payment.cvc`). Tokens are the provider's to check.
 */
export function cardDetailErrors(method: PaymentMethodInput): Record<string, string> {
  if (method.method !== "card") return {};
  return Object.fromEntries(Object.entries(cardErrors(method)).map(([k, v]) => [`payment.${k}`, v]));
}

/** The test-mode extra-authentication events of SPEC §4. */
export const PaymentEvents = {
  EXTRA_AUTH_REQUIRED_TEST_MODE: "extra-payment-authentication-required-test-mode",
  EXTRA_AUTH_FAILURE_TEST_MODE: "extra-payment-authentication-failure-test-mode",
  EXTRA_AUTH_SUCCESS_TEST_MODE: "extra-payment-authentication-success-test-mode",
  APPLE_PAY_EXTRA_AUTH_REQUIRED_TEST_MODE: "apple-pay-extra-payment-authentication-required-test-mode",
} as const;
export type PaymentEvent = (typeof PaymentEvents)[keyof typeof PaymentEvents];
