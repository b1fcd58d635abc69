/**
 * Island `checkout` (page type 201): contact email, shipping address, shipping options from the
 * store's rules, tax per location, coupons and gift-card codes, the order summary, express
 * checkout, card payment with the 3-D Secure challenge, and the checkout-page-loaded event
 * with the browser's performance metrics. Every input has a visible label; Pay is a button.
 * The cart is the visitor's (cookie), or `?cartToken=` for express and subscription checkouts.
 */
import { formatMoney } from "@atelier/commerce";
import {
  type FormEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { ApiCallError, apiCall } from "../../lib/api.js";
import { Modal } from "../../lib/modal.js";
import "../../lib/ui.css";
import "./checkout.css";
import { countryChoices } from "./countries.js";
import { GiftCardStep } from "./gift-card.js";
import {
  type AddressForm,
  type CheckoutForm,
  type PaymentBody,
  addCodes,
  clientErrors,
  emptyAddress,
  formErrors,
  formatCardNumber,
  formatExpiry,
  newIdempotencyKey,
  orderRequest,
  pageLoadMetrics,
} from "./form.js";

interface Option {
  id: string;
  name: string;
  costCents: number;
}
interface Line {
  id: string;
  title: string;
  url: string;
  imageUrl: string | null;
  attributes: Record<string, string>;
  quantity: number;
  subTotal: number;
  productType: number;
  subscriptionText: string | null;
}
interface CheckoutCart {
  currencyCode: string;
  entries: Line[];
  hasSubscription: boolean;
  subtotalCents: number;
  discountCents: number;
  shippingCostCents: number;
  taxCents: number;
  grandTotalCents: number;
  giftCardCents: number;
  amountDueCents: number;
  requiresShipping: boolean;
  shippingOptions: Option[];
  selectedShippingOption: Option | null;
  applicableTaxRules: { name: string; ratePercent: string; taxCents: number }[];
  validCoupons: { code: string; kind: string; discountCents: number }[];
  invalidCoupons: { code: string; reason: string }[];
  appliedGiftCards: { last4: string; amountCents: number; balanceCents: number }[];
  shippingError?: string;
}
interface Quote {
  cart: CheckoutCart;
  shippingCountries: string[] | null;
  payment: { provider: "test" | "stripe"; testMode: boolean };
}
type NextAction =
  | { type: "test_challenge"; challengeId: string; amountCents: number; currency: string; cardLast4: string }
  | { type: "redirect"; url: string };
interface Placed {
  order: { id: string; orderNumber: number };
  confirmationUrl: string;
  subscriptionUrls: string[];
}
interface NeedsAction {
  requiresAction: true;
  nextAction: NextAction;
  order: { id: string; orderNumber: number; grandTotalCents: number; currency: string };
  idempotencyKey: string;
}

export interface CheckoutProps {
  cartToken?: string;
}

const STORAGE_PREFIX = "atelier-checkout:";

function useQueryParam(name: string): string | undefined {
  return useMemo(() => new URLSearchParams(window.location.search).get(name) ?? undefined, [name]);
}

function Field(props: {
  label: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  type?: string;
  autoComplete?: string;
  inputMode?: "numeric" | "email" | "text";
  placeholder?: string;
  optional?: boolean;
  className?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`checkout-field ${props.className ?? ""}`}>
      <label htmlFor={id}>
        {props.label}
        {props.optional ? <span className="checkout-optional"> (optional)</span> : null}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        placeholder={props.placeholder}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error ? (
        <p className="checkout-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

function AddressFields(props: {
  legend: string;
  prefix: "shippingAddress" | "billingAddress";
  section: "shipping" | "billing";
  value: AddressForm;
  onChange: (a: AddressForm) => void;
  errors: Record<string, string>;
  countries: { code: string; name: string }[];
}) {
  const set = (k: keyof AddressForm) => (v: string) => props.onChange({ ...props.value, [k]: v });
  const err = (k: string) => props.errors[`${props.prefix}.${k}`];
  const countryId = useId();
  const ac = (f: string) => `${props.section} ${f}`;
  return (
    <fieldset className="checkout-section">
      <legend>{props.legend}</legend>
      <div className="checkout-row">
        <Field
          label="First name"
          name={`${props.prefix}.firstName`}
          value={props.value.firstName}
          onChange={set("firstName")}
          error={err("firstName")}
          autoComplete={ac("given-name")}
        />
        <Field
          label="Last name"
          name={`${props.prefix}.lastName`}
          value={props.value.lastName}
          onChange={set("lastName")}
          error={err("lastName")}
          autoComplete={ac("family-name")}
        />
      </div>
      <Field
        label="Address"
        name={`${props.prefix}.line1`}
        value={props.value.line1}
        onChange={set("line1")}
        error={err("line1")}
        autoComplete={ac("address-line1")}
      />
      <Field
        label="Apartment, suite, etc."
        optional
        name={`${props.prefix}.line2`}
        value={props.value.line2}
        onChange={set("line2")}
        error={err("line2")}
        autoComplete={ac("address-line2")}
      />
      <div className="checkout-row checkout-row--3">
        <Field
          label="City"
          name={`${props.prefix}.city`}
          value={props.value.city}
          onChange={set("city")}
          error={err("city")}
          autoComplete={ac("address-level2")}
        />
        <Field
          label="State"
          name={`${props.prefix}.state`}
          value={props.value.state}
          onChange={set("state")}
          error={err("state")}
          autoComplete={ac("address-level1")}
        />
        <Field
          label="ZIP or postal code"
          name={`${props.prefix}.postalCode`}
          value={props.value.postalCode}
          onChange={set("postalCode")}
          error={err("postalCode")}
          autoComplete={ac("postal-code")}
        />
      </div>
      <div className="checkout-field">
        <label htmlFor={countryId}>Country</label>
        <select
          id={countryId}
          name={`${props.prefix}.country`}
          value={props.value.country}
          autoComplete={ac("country")}
          aria-invalid={err("country") ? true : undefined}
          onChange={(e) => set("country")(e.target.value)}
        >
          <option value="">Choose a country</option>
          {props.countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
        {err("country") ? <p className="checkout-error">{err("country")}</p> : null}
      </div>
    </fieldset>
  );
}

function Summary({ cart, children }: { cart: CheckoutCart; children?: ReactNode }) {
  const money = (c: number) => formatMoney(c, cart.currencyCode);
  return (
    <section className="checkout-summary" aria-labelledby="checkout-summary-title">
      <h2 id="checkout-summary-title">Order summary</h2>
      <ul className="checkout-lines">
        {cart.entries.map((l) => (
          <li key={l.id} className="checkout-line">
            {l.imageUrl ? (
              <img src={l.imageUrl} alt="" width={56} height={56} loading="lazy" />
            ) : (
              <span className="checkout-line-noimage" />
            )}
            <div className="checkout-line-info">
              <span className="checkout-line-title">{l.title}</span>
              {Object.values(l.attributes).length ? (
                <span className="checkout-muted">{Object.values(l.attributes).join(" · ")}</span>
              ) : null}
              {l.subscriptionText ? <span className="checkout-muted">{l.subscriptionText}</span> : null}
              <span className="checkout-muted">Qty {l.quantity}</span>
            </div>
            <span className="checkout-line-total">{money(l.subTotal)}</span>
          </li>
        ))}
      </ul>
      {children}
      <dl className="checkout-totals">
        <div>
          <dt>Subtotal</dt>
          <dd>{money(cart.subtotalCents)}</dd>
        </div>
        {cart.discountCents ? (
          <div>
            <dt>
              Discount
              {cart.validCoupons.some((c) => c.discountCents)
                ? ` (${cart.validCoupons
                    .filter((c) => c.discountCents)
                    .map((c) => c.code)
                    .join(", ")})`
                : ""}
            </dt>
            <dd>−{money(cart.discountCents)}</dd>
          </div>
        ) : null}
        {cart.requiresShipping ? (
          <div>
            <dt>Shipping{cart.selectedShippingOption ? "" : " (choose a country)"}</dt>
            <dd>
              {cart.shippingCostCents
                ? money(cart.shippingCostCents)
                : cart.selectedShippingOption || cart.validCoupons.some((c) => c.kind === "free_shipping")
                  ? "Free"
                  : "—"}
            </dd>
          </div>
        ) : null}
        {cart.applicableTaxRules.map((t) => (
          <div key={t.name}>
            <dt>
              {t.name} ({t.ratePercent}%)
            </dt>
            <dd>{money(t.taxCents)}</dd>
          </div>
        ))}
        {!cart.applicableTaxRules.length ? (
          <div>
            <dt>Tax</dt>
            <dd>{money(0)}</dd>
          </div>
        ) : null}
        <div className="checkout-grand-total">
          <dt>Total</dt>
          <dd>{money(cart.grandTotalCents)}</dd>
        </div>
        {cart.appliedGiftCards.map((g) => (
          <div key={g.last4}>
            <dt>Gift card ending {g.last4}</dt>
            <dd>−{money(g.amountCents)}</dd>
          </div>
        ))}
        {cart.giftCardCents ? (
          <div className="checkout-grand-total">
            <dt>To pay now</dt>
            <dd>{money(cart.amountDueCents)}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

function Challenge(props: {
  action: Extract<NextAction, { type: "test_challenge" }>;
  busy: boolean;
  onAnswer: (outcome: "succeed" | "fail") => void;
  onClose: () => void;
}) {
  return (
    <Modal
      title="Confirm your payment"
      onClose={props.onClose}
      className="checkout-challenge"
      closeLabel="Cancel authentication"
    >
      <p className="checkout-challenge-bank">3-D Secure · Test bank</p>
      <p>
        Your bank asks you to confirm a payment of{" "}
        <strong>{formatMoney(props.action.amountCents, props.action.currency)}</strong> with the card ending{" "}
        <strong>{props.action.cardLast4}</strong>.
      </p>
      <p className="checkout-muted">This store is in test mode: choose how the authentication ends.</p>
      <div className="checkout-challenge-actions">
        <button
          type="button"
          className="atelier-button"
          disabled={props.busy}
          onClick={() => props.onAnswer("succeed")}
        >
          Complete authentication
        </button>
        <button
          type="button"
          className="atelier-button atelier-button--secondary"
          disabled={props.busy}
          onClick={() => props.onAnswer("fail")}
        >
          Fail authentication
        </button>
      </div>
    </Modal>
  );
}

export default function Checkout(props: CheckoutProps) {
  const urlToken = useQueryParam("cartToken");
  const paymentReturn = useQueryParam("paymentReturn");
  const giftItem = useQueryParam("itemId");
  const giftSku = useQueryParam("sku");
  const [cartToken, setCartToken] = useState(props.cartToken ?? urlToken);
  const giftStep = window.location.pathname === "/checkout/gift-card" && !cartToken && giftItem && giftSku;
  const [quote, setQuote] = useState<Quote>();
  const [loadError, setLoadError] = useState<string>();
  const [form, setForm] = useState<CheckoutForm>(() => ({
    email: "",
    shipping: emptyAddress("US"),
    billingSameAsShipping: true,
    billing: emptyAddress("US"),
    shippingOptionId: "",
    cardNumber: "",
    expiry: "",
    cvc: "",
  }));
  const [codes, setCodes] = useState<string[]>([]);
  const [codeInput, setCodeInput] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<{
    action: Extract<NextAction, { type: "test_challenge" }>;
    body: unknown;
  }>();
  const keyRef = useRef<string | undefined>(undefined);
  const loadedEventSent = useRef(false);
  const quoted = useRef(false);
  const codeId = useId();

  const cart = quote?.cart;
  const needsShipping = Boolean(cart?.requiresShipping);
  const location = needsShipping ? form.shipping : form.billing;

  const refresh = useCallback(
    async (signal?: AbortSignal) => {
      const q = new URLSearchParams();
      if (cartToken) q.set("cartToken", cartToken);
      if (location.country) q.set("country", location.country);
      if (location.state.trim()) q.set("state", location.state.trim());
      if (location.postalCode.trim()) q.set("postalCode", location.postalCode.trim());
      if (form.shippingOptionId) q.set("shippingOptionId", form.shippingOptionId);
      if (codes.length) q.set("couponCodes", codes.join(","));
      try {
        const next = await apiCall<Quote>(`/api/commerce/checkout/quote?${q}`, { signal });
        quoted.current = true;
        setQuote(next);
        setLoadError(undefined);
      } catch (err) {
        if ((err as Error).name !== "AbortError") setLoadError((err as Error).message);
      }
    },
    [cartToken, location.country, location.state, location.postalCode, form.shippingOptionId, codes],
  );

  useEffect(() => {
    const ctrl = new AbortController();
    // The first quote at once; later ones after a short pause in typing.
    const timer = setTimeout(() => void refresh(ctrl.signal), quoted.current ? 250 : 0);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [refresh]);

  // A chosen option that the new location does not offer falls back to the cheapest.
  useEffect(() => {
    if (cart && form.shippingOptionId && !cart.shippingOptions.some((o) => o.id === form.shippingOptionId)) {
      setForm((f) => ({ ...f, shippingOptionId: "" }));
    }
  }, [cart, form.shippingOptionId]);

  // checkout-page-loaded, with the browser's performance metrics, once the page has loaded.
  useEffect(() => {
    if (!quote || loadedEventSent.current) return;
    loadedEventSent.current = true;
    const send = () => {
      const data = {
        ...pageLoadMetrics(performance),
        itemCount: quote.cart.entries.length,
        testMode: quote.payment.testMode,
        viewportWidth: window.innerWidth,
      };
      apiCall("/api/commerce/checkout/events", {
        method: "POST",
        body: { event: "checkout-page-loaded", data, pagePath: window.location.pathname },
      }).catch(() => {});
    };
    if (document.readyState === "complete") setTimeout(send, 0);
    else window.addEventListener("load", () => setTimeout(send, 0), { once: true });
  }, [quote]);

  const finish = useCallback((placed: Placed, key: string) => {
    sessionStorage.removeItem(STORAGE_PREFIX + key);
    window.location.assign(placed.subscriptionUrls[0] ?? placed.confirmationUrl);
  }, []);

  const send = useCallback(
    async (body: ReturnType<typeof orderRequest>) => {
      setBusy(true);
      setMessage(undefined);
      try {
        const answer = await apiCall<Placed | NeedsAction>("/api/commerce/orders", { method: "POST", body });
        if ("requiresAction" in answer) {
          if (answer.nextAction.type === "test_challenge") {
            setChallenge({ action: answer.nextAction, body });
          } else {
            // The issuer's page brings the buyer back here with ?paymentReturn=<key>.
            const keep = { ...body, payment: { method: "token", token: "returning" } };
            sessionStorage.setItem(STORAGE_PREFIX + body.idempotencyKey, JSON.stringify(keep));
            window.location.assign(answer.nextAction.url);
          }
          return;
        }
        finish(answer, body.idempotencyKey);
      } catch (err) {
        const e = err as ApiCallError;
        setMessage(e.message);
        if (e instanceof ApiCallError) {
          if (Object.keys(e.fields).length) setErrors(formErrors(e.fields));
          // Settled attempts (declined, refused) need a new key; unknown outcomes keep theirs.
          if (e.status !== 503 && e.status !== 0 && e.status !== 409) keyRef.current = undefined;
          if (e.status === 409) {
            keyRef.current = undefined;
            void refresh();
          }
        }
        setChallenge(undefined);
      } finally {
        setBusy(false);
      }
    },
    [finish, refresh],
  );

  // Back from a redirect-based authentication: settle that same attempt.
  useEffect(() => {
    if (!paymentReturn) return;
    const saved = sessionStorage.getItem(STORAGE_PREFIX + paymentReturn);
    if (saved) void send(JSON.parse(saved));
  }, [paymentReturn, send]);

  const pay = async (event: { preventDefault(): void }, payment?: PaymentBody) => {
    event.preventDefault();
    if (!cart || busy) return;
    const found = clientErrors(form, needsShipping);
    if (payment) {
      for (const k of ["cardNumber", "expiry", "cvc"]) delete found[k];
    }
    setErrors(found);
    if (Object.keys(found).length) {
      setMessage("Please check the highlighted fields.");
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('.checkout [aria-invalid="true"]')?.focus(),
      );
      return;
    }
    keyRef.current ??= newIdempotencyKey();
    await send(
      orderRequest(form, {
        needsShipping,
        couponCodes: codes,
        idempotencyKey: keyRef.current,
        cartToken,
        payment,
      }),
    );
  };

  const answerChallenge = async (outcome: "succeed" | "fail") => {
    if (!challenge) return;
    setBusy(true);
    try {
      await apiCall(`/api/commerce/payments/test-challenges/${challenge.action.challengeId}`, {
        method: "POST",
        body: { outcome },
      });
    } catch (err) {
      setMessage((err as Error).message);
      setBusy(false);
      return;
    }
    await send(challenge.body as ReturnType<typeof orderRequest>);
  };

  const applyCode = (event: FormEvent) => {
    event.preventDefault();
    const next = addCodes(codes, codeInput);
    setCodeInput("");
    if (next.length !== codes.length) setCodes(next);
  };

  const countries = useMemo(
    () => countryChoices(needsShipping ? (quote?.shippingCountries ?? null) : null),
    [quote?.shippingCountries, needsShipping],
  );

  if (giftStep) {
    return (
      <div className="checkout">
        <GiftCardStep
          itemId={giftItem}
          sku={giftSku}
          onCart={(token) => {
            window.history.replaceState(null, "", `/checkout?cartToken=${encodeURIComponent(token)}`);
            setCartToken(token);
          }}
        />
      </div>
    );
  }
  if (!cart) {
    return (
      <div className="checkout" aria-busy={loadError ? undefined : true}>
        {loadError ? <p role="alert">{loadError}</p> : <p className="checkout-muted">Loading your order…</p>}
      </div>
    );
  }
  if (cart.entries.length === 0 && !paymentReturn) {
    return (
      <div className="checkout checkout--empty">
        <p>Your cart is empty.</p>
        <a className="atelier-button" href="/">
          Continue shopping
        </a>
      </div>
    );
  }
  const money = (c: number) => formatMoney(c, cart.currencyCode);
  const set =
    <K extends keyof CheckoutForm>(k: K) =>
    (v: CheckoutForm[K]) =>
      setForm((f) => ({ ...f, [k]: v }));
  const selectedOption = form.shippingOptionId || cart.selectedShippingOption?.id || "";

  return (
    <div className="checkout">
      {quote?.payment.testMode ? (
        <p className="checkout-test-banner" role="note">
          Test mode: pay with <strong>4242 4242 4242 4242</strong> (any future expiry, any CVC). 4000 0000
          0000 0002 is declined; 4000 0027 6000 3184 asks for 3-D Secure.
        </p>
      ) : null}
      <div className="checkout-grid">
        <form className="checkout-form" noValidate onSubmit={(e) => void pay(e)} aria-label="Checkout">
          {quote?.payment.testMode && quote.payment.provider === "test" ? (
            <section className="checkout-section checkout-express" aria-labelledby="express-title">
              <h2 id="express-title">Express checkout</h2>
              <button
                type="button"
                className="atelier-button checkout-wallet-button"
                disabled={busy}
                onClick={(e) => void pay(e, { method: "token", token: "tok_applepay_visa" })}
              >
                Pay with Apple Pay (test)
              </button>
              <p className="checkout-muted">Or fill in your details below.</p>
            </section>
          ) : null}

          <fieldset className="checkout-section">
            <legend>Contact</legend>
            <Field
              label="Email"
              name="email"
              type="email"
              inputMode="email"
              autoComplete="email"
              value={form.email}
              onChange={set("email")}
              error={errors.email}
            />
          </fieldset>

          {needsShipping ? (
            <AddressFields
              legend="Shipping address"
              prefix="shippingAddress"
              section="shipping"
              value={form.shipping}
              onChange={set("shipping")}
              errors={errors}
              countries={countries}
            />
          ) : null}

          {needsShipping ? (
            <fieldset className="checkout-section">
              <legend>Shipping method</legend>
              {cart.shippingError ? <p className="checkout-error">{cart.shippingError}</p> : null}
              {!cart.shippingError && cart.shippingOptions.length === 0 ? (
                <p className="checkout-muted">
                  {form.shipping.country
                    ? "Shipping is free."
                    : "Choose a country to see the shipping options."}
                </p>
              ) : null}
              <div className="checkout-options">
                {cart.shippingOptions.map((o) => (
                  <label key={o.id} className="checkout-option">
                    <input
                      type="radio"
                      name="shippingOption"
                      value={o.id}
                      checked={selectedOption === o.id}
                      onChange={() => set("shippingOptionId")(o.id)}
                    />
                    <span className="checkout-option-name">{o.name}</span>
                    <span className="checkout-option-price">{o.costCents ? money(o.costCents) : "Free"}</span>
                  </label>
                ))}
              </div>
              {errors.shippingOptionId ? <p className="checkout-error">{errors.shippingOptionId}</p> : null}
            </fieldset>
          ) : null}

          <fieldset className="checkout-section">
            <legend>Payment</legend>
            <Field
              label="Card number"
              name="cardNumber"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
              value={form.cardNumber}
              onChange={(v) => set("cardNumber")(formatCardNumber(v))}
              error={errors.cardNumber}
            />
            <div className="checkout-row">
              <Field
                label="Expiry"
                name="expiry"
                inputMode="numeric"
                autoComplete="cc-exp"
                placeholder="MM / YY"
                value={form.expiry}
                onChange={(v) => set("expiry")(formatExpiry(v))}
                error={errors.expiry}
              />
              <Field
                label="CVC"
                name="cvc"
                inputMode="numeric"
                autoComplete="cc-csc"
                placeholder="123"
                value={form.cvc}
                onChange={(v) => set("cvc")(v.replace(/\D/g, "").slice(0, 4))}
                error={errors.cvc}
              />
            </div>
            {needsShipping ? (
              <label className="checkout-check">
                <input
                  type="checkbox"
                  checked={form.billingSameAsShipping}
                  onChange={(e) => set("billingSameAsShipping")(e.target.checked)}
                />
                Billing address is the same as shipping
              </label>
            ) : null}
          </fieldset>

          {!needsShipping || !form.billingSameAsShipping ? (
            <AddressFields
              legend="Billing address"
              prefix="billingAddress"
              section="billing"
              value={form.billing}
              onChange={set("billing")}
              errors={errors}
              countries={countryChoices(null)}
            />
          ) : null}

          {message ? (
            <p className="checkout-message" role="alert">
              {message}
            </p>
          ) : null}
          <button type="submit" className="atelier-button checkout-pay" disabled={busy}>
            {busy ? "Processing…" : `Pay ${money(cart.amountDueCents)}`}
          </button>
          <p className="checkout-muted checkout-secure">
            Payments are processed securely{quote?.payment.provider === "stripe" ? " by Stripe" : ""}.
          </p>
        </form>

        <Summary cart={cart}>
          <form className="checkout-codes" onSubmit={applyCode} aria-label="Coupon or gift card">
            <div className="checkout-field">
              <label htmlFor={codeId}>Coupon or gift card code</label>
              <div className="checkout-code-row">
                <input
                  id={codeId}
                  name="code"
                  value={codeInput}
                  autoComplete="off"
                  onChange={(e) => setCodeInput(e.target.value)}
                />
                <button type="submit" className="atelier-button atelier-button--secondary">
                  Apply
                </button>
              </div>
            </div>
            {codes.length ? (
              <ul className="checkout-code-list">
                {codes.map((code) => {
                  const invalid = cart.invalidCoupons.find((c) => c.code === code);
                  const gift = cart.appliedGiftCards.find((g) => code.replace(/-/g, "").endsWith(g.last4));
                  return (
                    <li key={code} className={invalid ? "is-invalid" : "is-valid"}>
                      <span className="checkout-code">{code}</span>
                      <span>
                        {invalid
                          ? invalid.reason
                          : gift
                            ? `Gift card: ${money(gift.balanceCents)} left after this order`
                            : "Applied"}
                      </span>
                      <button
                        type="button"
                        className="checkout-link-button"
                        onClick={() => setCodes(codes.filter((c) => c !== code))}
                      >
                        Remove {code}
                      </button>
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </form>
        </Summary>
      </div>
      {challenge ? (
        <Challenge
          action={challenge.action}
          busy={busy}
          onAnswer={(o) => void answerChallenge(o)}
          onClose={() => {
            setChallenge(undefined);
            setMessage("Authentication was cancelled. Your card has not been charged.");
          }}
        />
      ) : null}
    </div>
  );
}
