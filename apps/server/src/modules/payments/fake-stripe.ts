/**
 * A local fake of the part of Stripe's HTTP API the Stripe provider uses, for tests: it listens
 * on 127.0.0.1, checks the secret key, replays answers by Idempotency-Key, and keeps
 * PaymentIntents, PaymentMethods, customers and refunds in memory with Stripe's test-card
 * behaviour (4242… succeeds, …0002 is declined with a 402 card_error, …3184 needs 3-D Secure
 * through a redirect page, and fails off-session with authentication_required).
 */
import { CARD_MSG, luhnValid } from "@atelier/commerce";
import { randomBytes } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

type Obj = Record<string, unknown>;

/** Parses Stripe's form encoding: `a[b][0]=x` → {a: {b: ["x"]}}. */
export function parseStripeForm(body: string): Obj {
  const out: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Obj = out;
    for (let i = 0; i < parts.length; i++) {
      const key = parts[i]!;
      const last = i === parts.length - 1;
      if (last) node[key] = value;
      else {
        const nextIsIndex = /^\d+$/.test(parts[i + 1]!);
        node[key] ??= nextIsIndex ? [] : {};
        node = node[key] as Obj;
      }
    }
  }
  return out;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

interface FakePaymentMethod {
  id: string;
  object: "payment_method";
  type: "card";
  card: { last4: string; brand: string; exp_month: number; exp_year: number };
  customer: string | null;
  number: string;
}

interface FakeIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  customer: string | null;
  payment_method: string | null;
  metadata: Record<string, string>;
  description: string | null;
  next_action: Obj | null;
  last_payment_error: Obj | null;
  return_url: string | null;
  created: number;
}

const TEST_PMS: Record<string, string> = {
  pm_card_visa: "4242424242424242",
  pm_card_chargeDeclined: "4000000000000002",
  pm_card_authenticationRequired: "4000002760003184",
};

export class FakeStripe {
  readonly secretKey: string;
  readonly intents = new Map<string, FakeIntent>();
  readonly methods = new Map<string, FakePaymentMethod>();
  readonly customers = new Map<string, Obj>();
  readonly refunds = new Map<string, Obj>();
  /** Every API call received, as "METHOD /path". */
  readonly calls: string[] = [];
  private readonly replays = new Map<string, { status: number; body: unknown }>();
  private server?: Server;
  url = "";

  constructor(secretKey = "sk_test_atelier_fake") {
    this.secretKey = secretKey;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch((err) => {
        this.send(res, 500, { error: { type: "api_error", message: String(err) } });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Succeeded charges' total, less refunds, per PaymentIntent (tests check no double charge). */
  succeededIntents(): FakeIntent[] {
    return [...this.intents.values()].filter((i) => i.status === "succeeded");
  }

  private send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
    res.end(JSON.stringify(body));
  }

  private cardError(code: string, message: string, intent?: FakeIntent, declineCode?: string) {
    return {
      status: 402,
      body: {
        error: {
          type: "card_error",
          code,
          message,
          ...(declineCode ? { decline_code: declineCode } : {}),
          ...(intent ? { payment_intent: this.view(intent, []) } : {}),
        },
      },
    };
  }

  private invalid(message: string, status = 400, param?: string) {
    return {
      status,
      body: { error: { type: "invalid_request_error", message, ...(param ? { param } : {}) } },
    };
  }

  private view(intent: FakeIntent, expand: string[]): Obj {
    const { return_url: _r, ...rest } = intent;
    const pm = intent.payment_method ? this.methods.get(intent.payment_method) : undefined;
    const pmView = pm ? (({ number: _n, ...p }) => p)(pm) : null;
    return { ...rest, payment_method: expand.includes("payment_method") ? pmView : intent.payment_method };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");

    // The issuer's 3-D Secure page, and its two outcomes.
    const page = /^\/3ds\/(pi_[a-f0-9]+)(?:\/(succeed|fail))?$/.exec(url.pathname);
    if (page) return this.threeDs(res, page[1]!, page[2] as "succeed" | "fail" | undefined);

    this.calls.push(`${req.method} ${url.pathname}`);
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return this.send(res, 401, {
        error: { type: "invalid_request_error", message: "Invalid API Key provided." },
      });
    }
    const params = req.method === "GET" ? parseStripeForm(url.search.slice(1)) : parseStripeForm(raw);
    const key = req.headers["idempotency-key"];
    const replayKey = typeof key === "string" ? `${req.method} ${url.pathname} ${key}` : undefined;
    if (replayKey && this.replays.has(replayKey)) {
      const r = this.replays.get(replayKey)!;
      res.setHeader("idempotent-replayed", "true");
      return this.send(res, r.status, r.body);
    }
    const result = this.route(req.method ?? "GET", url.pathname, params);
    if (replayKey && result.status < 500) this.replays.set(replayKey, result);
    this.send(res, result.status, result.body);
  }

  private route(method: string, pathname: string, p: Obj): { status: number; body: unknown } {
    const expand = Array.isArray(p.expand) ? (p.expand as string[]) : [];
    if (method === "POST" && pathname === "/v1/customers") {
      const c = { id: id("cus"), object: "customer", email: p.email ?? null, metadata: p.metadata ?? {} };
      this.customers.set(c.id, c);
      return { status: 200, body: c };
    }
    if (method === "POST" && pathname === "/v1/payment_intents") return this.createIntent(p, expand);
    if (method === "GET" && pathname === "/v1/payment_intents/search") {
      const m = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(String(p.query ?? ""));
      if (!m) return this.invalid("Unsupported search query.");
      const itemExpand = expand.filter((e) => e.startsWith("data.")).map((e) => e.slice("data.".length));
      const data = [...this.intents.values()]
        .filter((i) => i.metadata[m[1]!] === m[2])
        // A list expands its items' fields as `data.<field>` only, like Stripe.
        .map((i) => this.view(i, itemExpand));
      return { status: 200, body: { object: "search_result", data, has_more: false, next_page: null } };
    }
    const one = /^\/v1\/payment_intents\/(pi_[a-f0-9]+)(\/cancel)?$/.exec(pathname);
    if (one) {
      const intent = this.intents.get(one[1]!);
      if (!intent) return this.invalid(`No such payment_intent: '${one[1]}'`, 404, "intent");
      if (method === "GET" && !one[2]) return { status: 200, body: this.view(intent, expand) };
      if (method === "POST" && one[2]) {
        if (intent.status === "succeeded" || intent.status === "canceled")
          return this.invalid(
            `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
          );
        intent.status = "canceled";
        intent.next_action = null;
        return { status: 200, body: this.view(intent, expand) };
      }
    }
    if (method === "POST" && pathname === "/v1/refunds") {
      const intent = this.intents.get(String(p.payment_intent ?? ""));
      if (!intent) return this.invalid(`No such payment_intent: '${String(p.payment_intent)}'`, 404);
      if (intent.status !== "succeeded") return this.invalid("This PaymentIntent has not succeeded.");
      const already = [...this.refunds.values()]
        .filter((r) => r.payment_intent === intent.id)
        .reduce((n, r) => n + Number(r.amount), 0);
      const amount = p.amount === undefined ? intent.amount - already : Number(p.amount);
      if (!Number.isInteger(amount) || amount <= 0 || amount + already > intent.amount)
        return this.invalid("Refund amount is greater than unrefunded amount on charge.");
      const refund = {
        id: id("re"),
        object: "refund",
        amount,
        payment_intent: intent.id,
        status: "succeeded",
      };
      this.refunds.set(refund.id, refund);
      return { status: 200, body: refund };
    }
    return this.invalid(`Unrecognized request URL (${method}: ${pathname}).`, 404);
  }

  private createIntent(p: Obj, expand: string[]): { status: number; body: unknown } {
    const amount = Number(p.amount);
    if (!Number.isInteger(amount) || amount < 1)
      return this.invalid("Invalid integer: amount", 400, "amount");
    if (typeof p.currency !== "string")
      return this.invalid("Missing required param: currency.", 400, "currency");
    let pm: FakePaymentMethod | undefined;
    const data = p.payment_method_data as Obj | undefined;
    if (data) {
      const card = (data.card ?? {}) as Obj;
      const number = String(card.number ?? "");
      if (!luhnValid(number)) return this.cardError("incorrect_number", CARD_MSG.INCORRECT_NUMBER);
      pm = {
        id: id("pm"),
        object: "payment_method",
        type: "card",
        card: {
          last4: number.slice(-4),
          brand: "visa",
          exp_month: Number(card.exp_month),
          exp_year: Number(card.exp_year),
        },
        customer: null,
        number,
      };
      this.methods.set(pm.id, pm);
    } else if (typeof p.payment_method === "string") {
      const testNumber = TEST_PMS[p.payment_method];
      if (testNumber) {
        pm = {
          id: id("pm"),
          object: "payment_method",
          type: "card",
          card: { last4: testNumber.slice(-4), brand: "visa", exp_month: 12, exp_year: 2034 },
          customer: null,
          number: testNumber,
        };
        this.methods.set(pm.id, pm);
      } else pm = this.methods.get(p.payment_method);
      if (!pm) return this.invalid(`No such PaymentMethod: '${p.payment_method}'`, 400, "payment_method");
    }
    const customer = typeof p.customer === "string" ? p.customer : null;
    if (customer && !this.customers.has(customer)) return this.invalid(`No such customer: '${customer}'`);
    const intent: FakeIntent = {
      id: id("pi"),
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency: p.currency,
      status: "requires_payment_method",
      client_secret: "",
      customer,
      payment_method: pm?.id ?? null,
      metadata: (p.metadata ?? {}) as Record<string, string>,
      description: typeof p.description === "string" ? p.description : null,
      next_action: null,
      last_payment_error: null,
      return_url: typeof p.return_url === "string" ? p.return_url : null,
      created: Math.floor(Date.now() / 1000),
    };
    intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString("hex")}`;
    this.intents.set(intent.id, intent);
    if (customer && pm && (p.setup_future_usage || p.off_session)) pm.customer = customer;
    if (p.confirm !== "true" || !pm) {
      intent.status = pm ? "requires_confirmation" : "requires_payment_method";
      return { status: 200, body: this.view(intent, expand) };
    }
    const offSession = p.off_session === "true";
    switch (pm.number) {
      case "4242424242424242":
        intent.status = "succeeded";
        intent.amount_received = amount;
        return { status: 200, body: this.view(intent, expand) };
      case "4000000000000002":
        intent.last_payment_error = {
          code: "card_declined",
          decline_code: "generic_decline",
          message: "Your card was declined.",
        };
        return this.cardError("card_declined", "Your card was declined.", intent, "generic_decline");
      case "4000002760003184":
        if (offSession) {
          intent.last_payment_error = {
            code: "authentication_required",
            message: "Your card was declined. This transaction requires authentication.",
          };
          return this.cardError(
            "authentication_required",
            "Your card was declined. This transaction requires authentication.",
            intent,
            "authentication_required",
          );
        }
        if (!intent.return_url) return this.invalid("A return_url is needed to confirm this PaymentIntent.");
        intent.status = "requires_action";
        intent.next_action = {
          type: "redirect_to_url",
          redirect_to_url: { url: `${this.url}/3ds/${intent.id}`, return_url: intent.return_url },
        };
        return { status: 200, body: this.view(intent, expand) };
      default:
        intent.last_payment_error = {
          code: "card_declined",
          decline_code: "test_mode_live_card",
          message: "Your card was declined.",
        };
        return this.cardError("card_declined", "Your card was declined.", intent, "test_mode_live_card");
    }
  }

  /** The issuer page: GET shows two links; /succeed or /fail settles the intent and returns. */
  private threeDs(res: ServerResponse, intentId: string, outcome?: "succeed" | "fail") {
    const intent = this.intents.get(intentId);
    if (!intent) return this.send(res, 404, { error: { message: "No such authentication." } });
    if (!outcome) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><title>3D Secure test</title><h1>Authenticate payment</h1><a href="/3ds/${intentId}/succeed">Complete</a> <a href="/3ds/${intentId}/fail">Fail</a>`,
      );
      return;
    }
    if (intent.status === "requires_action") {
      intent.next_action = null;
      if (outcome === "succeed") {
        intent.status = "succeeded";
        intent.amount_received = intent.amount;
      } else {
        intent.status = "requires_payment_method";
        intent.last_payment_error = {
          code: "payment_intent_authentication_failure",
          message:
            "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
        };
      }
    }
    const back = new URL(intent.return_url ?? `${this.url}/`);
    back.searchParams.set("payment_intent", intent.id);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }
}
