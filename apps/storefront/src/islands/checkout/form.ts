/**
 * The checkout form's rules that need no browser: expiry parsing, card number grouping, the
 * order request built from the form, which fields an answer's errors belong to, and the
 * checkout-page-loaded event's performance metrics. The card's own rules are @atelier/commerce's.
 */
import { CARD_MSG, cardDigits, luhnValid, validCvc, validExpMonth } from "@atelier/commerce";

export interface AddressForm {
  firstName: string;
  lastName: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

export const emptyAddress = (country = "US"): AddressForm => ({
  firstName: "",
  lastName: "",
  line1: "",
  line2: "",
  city: "",
  state: "",
  postalCode: "",
  country,
});

export interface CheckoutForm {
  email: string;
  shipping: AddressForm;
  billingSameAsShipping: boolean;
  billing: AddressForm;
  shippingOptionId: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
}

const MSG_REQUIRED = "Required";
export const MSG_EXPIRY = "Enter the expiry as MM / YY.";
export const MSG_CARD_NUMBER = "Enter the card number.";
export const MSG_CVC = "Enter the 3 or 4 digit security code.";

/** "12/34", "12 / 2034", "1234" → {month: 12, year: 2034}; undefined when it is not a date. */
export function parseExpiry(input: string): { month: number; year: number } | undefined {
  const digits = input.replace(/\s/g, "");
  const m = /^(\d{1,2})\/?(\d{2}|\d{4})$/.exec(
    digits.includes("/") ? digits : digits.replace(/^(\d{2})(\d{2,4})$/, "$1/$2"),
  );
  if (!m) return undefined;
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (!validExpMonth(month)) return undefined;
  return { month, year };
}

/** Card digits in groups of four, as typed: "4242424242424242" → "4242 4242 4242 4242". */
export function formatCardNumber(input: string): string {
  const digits = input.replace(/\D/g, "").slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** Expiry as typed: "123" → "12 / 3". */
export function formatExpiry(input: string): string {
  const digits = input.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

function addressBody(a: AddressForm) {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(a)) if (v.trim()) out[k] = v.trim();
  return out;
}

/** Errors the browser can tell before asking the server (the server checks everything again). */
export function clientErrors(form: CheckoutForm, needsShipping: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.email.trim()) errors.email = MSG_REQUIRED;
  const required: (keyof AddressForm)[] = ["firstName", "lastName", "line1", "city", "postalCode", "country"];
  if (needsShipping)
    for (const k of required) if (!form.shipping[k].trim()) errors[`shippingAddress.${k}`] = MSG_REQUIRED;
  if (!needsShipping || !form.billingSameAsShipping)
    for (const k of required) if (!form.billing[k].trim()) errors[`billingAddress.${k}`] = MSG_REQUIRED;
  const digits = cardDigits(form.cardNumber);
  // Too few digits is a number not yet typed; a whole one that fails the Luhn sum is mistyped.
  if (digits.length < 12) errors.cardNumber = MSG_CARD_NUMBER;
  else if (!luhnValid(digits)) errors.cardNumber = CARD_MSG.INCORRECT_NUMBER;
  if (!parseExpiry(form.expiry)) errors.expiry = MSG_EXPIRY;
  if (!validCvc(form.cvc)) errors.cvc = MSG_CVC;
  return errors;
}

export type PaymentBody =
  | { method: "card"; cardNumber: string; expMonth: number; expYear: number; cvc: string }
  | { method: "token"; token: string };

/** The body of POST /api/commerce/orders. */
export function orderRequest(
  form: CheckoutForm,
  opts: {
    needsShipping: boolean;
    couponCodes: string[];
    idempotencyKey: string;
    cartToken?: string;
    payment?: PaymentBody;
  },
) {
  const expiry = parseExpiry(form.expiry);
  const payment: PaymentBody = opts.payment ?? {
    method: "card",
    cardNumber: form.cardNumber.replace(/\s/g, ""),
    expMonth: expiry?.month ?? 0,
    expYear: expiry?.year ?? 0,
    cvc: form.cvc.trim(),
  };
  return {
    email: form.email.trim(),
    ...(opts.needsShipping ? { shippingAddress: addressBody(form.shipping) } : {}),
    ...(!opts.needsShipping || !form.billingSameAsShipping
      ? { billingAddress: addressBody(form.billing) }
      : {}),
    ...(opts.needsShipping && form.shippingOptionId ? { shippingOptionId: form.shippingOptionId } : {}),
    ...(opts.couponCodes.length ? { couponCodes: opts.couponCodes } : {}),
    payment,
    idempotencyKey: opts.idempotencyKey,
    ...(opts.cartToken ? { cartToken: opts.cartToken } : {}),
  };
}

/**
 * Codes typed into the coupon field, added to those already applied: "welcome10, gift-1234" is
 * two codes (commas and spaces separate them), upper-cased, without repeats. The quote sends the
 * codes comma-separated, so one code can never carry a comma.
 */
export function addCodes(applied: readonly string[], input: string): string[] {
  const out = [...applied];
  for (const raw of input.split(/[\s,;]+/)) {
    const code = raw.trim().toUpperCase();
    if (code && !out.includes(code)) out.push(code);
  }
  return out;
}

/** The form field a server error's field belongs to (the card's fields are one `payment.*`). */
function formFieldOf(serverField: string): string {
  switch (serverField) {
    case "payment.cardNumber":
      return "cardNumber";
    case "payment.expMonth":
    case "payment.expYear":
      return "expiry";
    case "payment.cvc":
      return "cvc";
    default:
      return serverField;
  }
}

/** A server answer's `fields`, keyed by the form's fields. */
export function formErrors(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) out[formFieldOf(k)] ??= v;
  return out;
}

/** A key for one attempt at paying: the same key is sent again until the attempt is settled. */
export function newIdempotencyKey(random: () => string = () => crypto.randomUUID()): string {
  return `checkout-${random()}`;
}

interface PageMetrics {
  [name: string]: number;
}

/** Browser performance metrics of the page load, rounded to milliseconds (absent ones omitted). */
export function pageLoadMetrics(perf: Pick<Performance, "getEntriesByType">): PageMetrics {
  const out: PageMetrics = {};
  const nav = perf.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  const put = (name: string, value: number | undefined) => {
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) out[name] = Math.round(value);
  };
  if (nav) {
    put("ttfbMs", nav.responseStart - nav.startTime);
    put("responseMs", nav.responseEnd - nav.startTime);
    put("domInteractiveMs", nav.domInteractive - nav.startTime);
    put("domContentLoadedMs", nav.domContentLoadedEventEnd - nav.startTime);
    if (nav.loadEventEnd > 0) put("loadMs", nav.loadEventEnd - nav.startTime);
    put("transferSize", nav.transferSize);
    put("encodedBodySize", nav.encodedBodySize);
  }
  for (const p of perf.getEntriesByType("paint")) {
    if (p.name === "first-paint") put("firstPaintMs", p.startTime);
    if (p.name === "first-contentful-paint") put("firstContentfulPaintMs", p.startTime);
  }
  const resources = perf.getEntriesByType("resource");
  put("resourceCount", resources.length);
  return out;
}
