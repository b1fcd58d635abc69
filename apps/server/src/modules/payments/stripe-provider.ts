/**
 * Card payments through Stripe PaymentIntents (STRIPE_SECRET_KEY). Each charge is one
 * PaymentIntent created and confirmed at once, with our payment id as the Idempotency-Key and
 * in its metadata, so a retry never charges twice and a lost answer is found again by search.
 * 3-D Secure comes back as a redirect to the issuer's page, which returns to the checkout.
 */
import { cardDigits } from "@atelier/commerce";
import Stripe from "stripe";
import {
  type ChargeRequest,
  type ChargeResult,
  type PaymentProvider,
  ProviderUnavailableError,
  type RefundRequest,
  type RefundResult,
  type SavedChargeRequest,
} from "./provider.js";

/** The metadata key holding our payment id on every PaymentIntent. */
const PAYMENT_ID_METADATA = "atelier_payment_id";

interface StripeProviderOptions {
  secretKey: string;
  /** Another API origin (a local fake in tests), e.g. "http://127.0.0.1:12111". */
  apiUrl?: string;
  timeoutMs?: number;
}

type PI = Stripe.PaymentIntent;

function isCardError(err: unknown): err is Stripe.errors.StripeCardError {
  return err instanceof Stripe.errors.StripeCardError;
}

export class StripePaymentProvider implements PaymentProvider {
  readonly name = "stripe" as const;
  readonly testMode: boolean;
  private readonly stripe: Stripe;

  constructor(opts: StripeProviderOptions) {
    this.testMode = !opts.secretKey.startsWith("sk_live_") && !opts.secretKey.startsWith("rk_live_");
    const config: Stripe.StripeConfig = {
      maxNetworkRetries: 2,
      telemetry: false,
      timeout: opts.timeoutMs ?? 30_000,
      appInfo: { name: "Atelier" },
    };
    if (opts.apiUrl) {
      const url = new URL(opts.apiUrl);
      config.host = url.hostname;
      config.port = url.port || (url.protocol === "https:" ? 443 : 80);
      config.protocol = url.protocol.replace(":", "") as "http" | "https";
    }
    this.stripe = new Stripe(opts.secretKey, config);
  }

  private map(pi: PI, savedMethod?: string): ChargeResult {
    const last4 =
      pi.payment_method && typeof pi.payment_method === "object" ? pi.payment_method.card?.last4 : undefined;
    switch (pi.status) {
      case "succeeded":
        return { status: "succeeded", providerRef: pi.id, cardLast4: last4, savedMethod };
      case "requires_action": {
        const url = pi.next_action?.redirect_to_url?.url;
        if (!url) {
          return {
            status: "failed",
            providerRef: pi.id,
            code: "unsupported_next_action",
            message:
              "This card needs a kind of authentication the checkout cannot show. Please use another card.",
          };
        }
        return { status: "requires_action", providerRef: pi.id, nextAction: { type: "redirect", url } };
      }
      case "processing":
      case "requires_capture":
        return { status: "processing", providerRef: pi.id };
      case "canceled":
        return {
          status: "failed",
          providerRef: pi.id,
          code: "canceled",
          message: "The payment was canceled.",
        };
      default: {
        const error = pi.last_payment_error;
        return {
          status: "failed",
          providerRef: pi.id,
          code: error?.code ?? "payment_failed",
          message: error?.message ?? "Your card was declined.",
          authenticationFailed: error?.code === "payment_intent_authentication_failure",
        };
      }
    }
  }

  private unavailable(err: unknown): never {
    throw new ProviderUnavailableError(
      `Stripe could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }

  private failedFromCardError(err: Stripe.errors.StripeCardError): ChargeResult {
    const pi = (err.raw as { payment_intent?: PI } | undefined)?.payment_intent;
    return {
      status: "failed",
      providerRef: pi?.id,
      code: err.code ?? "card_declined",
      message: err.message,
      authenticationFailed: err.code === "payment_intent_authentication_failure",
    };
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const m = request.method;
    try {
      let customer: string | undefined;
      if (request.saveForFutureUse) {
        const c = await this.stripe.customers.create(
          { email: request.email, metadata: { [PAYMENT_ID_METADATA]: request.idempotencyKey } },
          { idempotencyKey: `${request.idempotencyKey}:customer` },
        );
        customer = c.id;
      }
      const params: Stripe.PaymentIntentCreateParams = {
        amount: request.amountCents,
        currency: request.currency.toLowerCase(),
        confirm: true,
        allowed_payment_method_types: ["card"],
        use_stripe_sdk: false,
        return_url: request.returnUrl,
        receipt_email: request.email,
        description: request.description,
        metadata: { ...request.metadata, [PAYMENT_ID_METADATA]: request.idempotencyKey },
        expand: ["payment_method"],
        ...(customer ? { customer, setup_future_usage: "off_session" as const } : {}),
      };
      if (m.method === "token") params.payment_method = m.token;
      else {
        params.payment_method_data = {
          type: "card",
          card: {
            number: cardDigits(m.cardNumber),
            exp_month: m.expMonth,
            exp_year: m.expYear,
            cvc: m.cvc.trim(),
          },
        } as unknown as Stripe.PaymentIntentCreateParams.PaymentMethodData;
      }
      const pi = await this.stripe.paymentIntents.create(params, { idempotencyKey: request.idempotencyKey });
      return this.map(pi, customer ? this.savedRef(customer, pi) : undefined);
    } catch (err) {
      if (isCardError(err)) return this.failedFromCardError(err);
      if (err instanceof Stripe.errors.StripeInvalidRequestError) {
        return { status: "failed", code: err.code ?? "invalid_request", message: err.message };
      }
      this.unavailable(err);
    }
  }

  private savedRef(customer: string, pi: PI): string | undefined {
    const pm = typeof pi.payment_method === "string" ? pi.payment_method : pi.payment_method?.id;
    return pm ? `${customer}|${pm}` : undefined;
  }

  async lookup(idempotencyKey: string, providerRef?: string | null): Promise<ChargeResult> {
    try {
      if (providerRef) {
        const pi = await this.stripe.paymentIntents.retrieve(providerRef, { expand: ["payment_method"] });
        return this.map(pi, pi.customer ? this.savedRef(String(pi.customer), pi) : undefined);
      }
      const found = await this.stripe.paymentIntents.search({
        query: `metadata['${PAYMENT_ID_METADATA}']:'${idempotencyKey.replace(/'/g, "")}'`,
        limit: 1,
        // The card's last digits, as the retrieve above has them.
        expand: ["data.payment_method"],
      });
      const pi = found.data[0];
      if (!pi) return { status: "not_found" };
      return this.map(pi, pi.customer ? this.savedRef(String(pi.customer), pi) : undefined);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) {
        return { status: "not_found" };
      }
      this.unavailable(err);
    }
  }

  async chargeSaved(request: SavedChargeRequest): Promise<ChargeResult> {
    const [customer, paymentMethod] = request.savedMethod.split("|");
    if (!customer || !paymentMethod) {
      return {
        status: "failed",
        code: "invalid_payment_method",
        message: "No saved card for this subscription.",
      };
    }
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          customer,
          payment_method: paymentMethod,
          off_session: true,
          confirm: true,
          description: request.description,
          metadata: { ...request.metadata, [PAYMENT_ID_METADATA]: request.idempotencyKey },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return this.map(pi, request.savedMethod);
    } catch (err) {
      if (isCardError(err)) return this.failedFromCardError(err);
      if (err instanceof Stripe.errors.StripeInvalidRequestError) {
        return { status: "failed", code: err.code ?? "invalid_request", message: err.message };
      }
      this.unavailable(err);
    }
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: request.providerRef, amount: request.amountCents },
        { idempotencyKey: request.idempotencyKey },
      );
      if (refund.status === "failed" || refund.status === "canceled")
        return { ok: false, message: refund.failure_reason ?? "The refund failed." };
      return { ok: true, refundRef: refund.id };
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError) return { ok: false, message: err.message };
      this.unavailable(err);
    }
  }

  async cancel(providerRef: string): Promise<void> {
    try {
      await this.stripe.paymentIntents.cancel(providerRef);
    } catch (err) {
      // Already final (succeeded or canceled): nothing to cancel.
      if (err instanceof Stripe.errors.StripeInvalidRequestError) return;
      this.unavailable(err);
    }
  }
}
