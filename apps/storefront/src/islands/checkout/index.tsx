/**
 * Island `checkout` (page type 201): contact email, shipping address, shipping options from the
 * store's rules, tax per location, coupons and gift-card codes, the order summary, express
 * checkout, card payment with the 3-D Secure challenge, and the checkout-page-loaded event
 * with the browser's performance metrics. Every input has a visible label; Pay is a button.
 * The cart is the visitor's (cookie), or `?cartToken=` for express and subscription checkouts.
 */
import { type ChallengeOutcome, checkoutUrl, formatMoney, testChallengeUrl } from "@atelier/commerce";
import { isValidEmail } from "@atelier/forms";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiCallError, apiCall } from "../../lib/api.js";
import { SIGNED_IN_COOKIE, readCookie } from "../../lib/cookies.js";
import "../../lib/ui.css";
import "./checkout.css";
import { Challenge } from "./challenge.js";
import { CodesForm } from "./codes.js";
import { countryChoices } from "./countries.js";
import { AddressFields, Field, SubmitButton } from "./fields.js";
import {
  type CheckoutForm,
  type PaymentBody,
  clientErrors,
  emptyAddress,
  formErrors,
  newIdempotencyKey,
  orderRequest,
  pageLoadMetrics,
} from "./form.js";
import { GiftCardStep } from "./gift-card.js";
import { PaymentFields } from "./payment.js";
import { ShippingMethod } from "./shipping.js";
import { Summary } from "./summary.js";
import type { NeedsAction, Placed, Quote, SetFormField, TestChallenge } from "./types.js";

export interface CheckoutProps {
  cartToken?: string;
}

const STORAGE_PREFIX = "atelier-checkout:";

function useQueryParam(name: string): string | undefined {
  return useMemo(() => new URLSearchParams(window.location.search).get(name) ?? undefined, [name]);
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
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<{ action: TestChallenge; body: unknown }>();
  const keyRef = useRef<string | undefined>(undefined);
  const loadedEventSent = useRef(false);
  const quoted = useRef(false);

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
        // The first quote brings the codes kept with the cart (a recovery email's code).
        const saved = next.cart.savedCouponCodes;
        if (!quoted.current && saved?.length) setCodes((current) => (current.length ? current : saved));
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

  // The shopper's email (and first name) is saved as soon as they leave a field, before payment:
  // a checkout they leave can be won back by the store's recovery emails.
  const savedContact = useRef("");
  const saveContact = useCallback(
    (email: string, firstName: string) => {
      const contact = { email: email.trim(), firstName: firstName.trim() };
      const key = `${contact.email}\n${contact.firstName}`;
      if (!isValidEmail(contact.email) || savedContact.current === key) return;
      savedContact.current = key;
      apiCall("/api/commerce/checkout/contact", {
        method: "PUT",
        body: { ...contact, ...(cartToken ? { cartToken } : {}) },
      }).catch(() => {
        savedContact.current = "";
      });
    },
    [cartToken],
  );

  // A signed-in site user's email is the checkout's without typing: the server saves the
  // account's email as the contact and the form starts with it.
  const accountContact = useRef(false);
  const hasLines = Boolean(cart?.entries.length);
  useEffect(() => {
    if (!hasLines || accountContact.current || readCookie(SIGNED_IN_COOKIE) !== "1") return;
    accountContact.current = true;
    apiCall<{ email: string; firstName: string | null }>("/api/commerce/checkout/contact", {
      method: "PUT",
      body: cartToken ? { cartToken } : {},
    })
      .then((saved) => {
        savedContact.current = `${saved.email}\n${saved.firstName ?? ""}`;
        setForm((f) => (f.email ? f : { ...f, email: saved.email }));
      })
      .catch(() => undefined);
  }, [hasLines, cartToken]);

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

  const answerChallenge = async (outcome: ChallengeOutcome) => {
    if (!challenge) return;
    setBusy(true);
    try {
      await apiCall(testChallengeUrl(challenge.action.challengeId), {
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
            window.history.replaceState(null, "", checkoutUrl(token));
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
  const set: SetFormField = (k) => (v) => setForm((f) => ({ ...f, [k]: v }));
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
        <form
          className="checkout-form"
          noValidate
          onSubmit={(e) => void pay(e)}
          onBlur={() => saveContact(form.email, form.shipping.firstName || form.billing.firstName)}
          aria-label="Checkout"
        >
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
            <AddressFields section="shipping" form={form} set={set} errors={errors} countries={countries} />
          ) : null}

          {needsShipping ? (
            <ShippingMethod
              cart={cart}
              country={form.shipping.country}
              selected={selectedOption}
              onSelect={set("shippingOptionId")}
              error={errors.shippingOptionId}
            />
          ) : null}

          <PaymentFields form={form} set={set} errors={errors} needsShipping={needsShipping} />

          {!needsShipping || !form.billingSameAsShipping ? (
            <AddressFields
              section="billing"
              form={form}
              set={set}
              errors={errors}
              countries={countryChoices(null)}
            />
          ) : null}

          <SubmitButton message={message} busy={busy}>
            {busy ? "Processing…" : `Pay ${money(cart.amountDueCents)}`}
          </SubmitButton>
          <p className="checkout-muted checkout-secure">
            Payments are processed securely{quote?.payment.provider === "stripe" ? " by Stripe" : ""}.
          </p>
        </form>

        <Summary cart={cart}>
          <CodesForm codes={codes} onChange={setCodes} cart={cart} />
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
