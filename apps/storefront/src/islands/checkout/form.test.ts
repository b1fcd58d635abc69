import { describe, expect, it } from "vitest";
import { ADA_ADDRESS, address } from "../../../../server/test/fixtures.js";
import {
  MSG_CARD_NUMBER,
  MSG_CVC,
  MSG_EXPIRY,
  addCodes,
  clientErrors,
  emptyAddress,
  formErrors,
  formatCardNumber,
  formatExpiry,
  newIdempotencyKey,
  orderRequest,
  pageLoadMetrics,
  parseExpiry,
} from "./form.js";

const filled = () => ({
  email: "ada@example.com",
  shipping: { ...emptyAddress(), ...ADA_ADDRESS },
  billingSameAsShipping: true,
  billing: emptyAddress(),
  shippingOptionId: "opt1",
  cardNumber: "4242 4242 4242 4242",
  expiry: "12 / 34",
  cvc: "123",
});

describe("the checkout form", () => {
  it("splits several codes typed at once, upper-cased, without repeats", () => {
    expect(addCodes([], " welcome10 ")).toEqual(["WELCOME10"]);
    expect(addCodes([], "WELCOME10, bogus")).toEqual(["WELCOME10", "BOGUS"]);
    expect(addCodes(["WELCOME10"], "welcome10;FREESHIP  abcd-efgh")).toEqual([
      "WELCOME10",
      "FREESHIP",
      "ABCD-EFGH",
    ]);
    expect(addCodes(["A1"], " , ")).toEqual(["A1"]);
  });

  it("puts the server's card errors on the card fields", () => {
    expect(
      formErrors({
        "payment.cardNumber": "Your card number is incorrect.",
        "payment.expMonth": "Your card's expiration month is invalid.",
        "payment.expYear": "Your card's expiration year is invalid.",
        "payment.cvc": "Your card's security code is invalid.",
        "shippingAddress.city": "Required",
      }),
    ).toEqual({
      cardNumber: "Your card number is incorrect.",
      expiry: "Your card's expiration month is invalid.",
      cvc: "Your card's security code is invalid.",
      "shippingAddress.city": "Required",
    });
  });

  it("reads expiry dates as people type them", () => {
    expect(parseExpiry("12/34")).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry("12 / 2034")).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry("0129")).toEqual({ month: 1, year: 2029 });
    expect(parseExpiry("1/30")).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry("13/30")).toBeUndefined();
    expect(parseExpiry("soon")).toBeUndefined();
    expect(parseExpiry("")).toBeUndefined();
  });

  it("groups card digits and expiry as typed", () => {
    expect(formatCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("4242-42x")).toBe("4242 42");
    expect(formatExpiry("1234")).toBe("12 / 34");
    expect(formatExpiry("1")).toBe("1");
  });

  it("finds what is missing before asking the server", () => {
    expect(clientErrors(filled(), true)).toEqual({});
    const f = { ...filled(), email: " ", cardNumber: "42", expiry: "99", cvc: "1" };
    f.shipping = { ...f.shipping, city: "" };
    expect(clientErrors(f, true)).toEqual({
      email: "Required",
      "shippingAddress.city": "Required",
      cardNumber: MSG_CARD_NUMBER,
      expiry: MSG_EXPIRY,
      cvc: MSG_CVC,
    });
    // A whole number that fails the Luhn sum is told in the card provider's words.
    expect(clientErrors({ ...filled(), cardNumber: "4242 4242 4242 4241" }, true)).toEqual({
      cardNumber: "Your card number is incorrect.",
    });
    // Without shipping, the billing address is asked for instead.
    expect(Object.keys(clientErrors(filled(), false))).toContain("billingAddress.firstName");
  });

  it("builds the order request", () => {
    const body = orderRequest(filled(), {
      needsShipping: true,
      couponCodes: ["WELCOME10"],
      idempotencyKey: "k-123456789",
      cartToken: "tok",
    });
    expect(body).toEqual({
      email: "ada@example.com",
      shippingAddress: address(),
      shippingOptionId: "opt1",
      couponCodes: ["WELCOME10"],
      payment: { method: "card", cardNumber: "4242424242424242", expMonth: 12, expYear: 2034, cvc: "123" },
      idempotencyKey: "k-123456789",
      cartToken: "tok",
    });
    const digital = orderRequest(
      { ...filled(), billing: { ...filled().shipping } },
      { needsShipping: false, couponCodes: [], idempotencyKey: "k-123456789" },
    );
    expect(digital).not.toHaveProperty("shippingAddress");
    expect(digital.billingAddress).toMatchObject({ firstName: "Ada" });
    expect(newIdempotencyKey(() => "abc")).toBe("checkout-abc");
  });

  it("measures the page load from the browser's performance entries", () => {
    const entries: Record<string, unknown[]> = {
      navigation: [
        {
          startTime: 0,
          responseStart: 42.4,
          responseEnd: 60,
          domInteractive: 120,
          domContentLoadedEventEnd: 130.6,
          loadEventEnd: 0,
          transferSize: 5120,
          encodedBodySize: 4000,
        },
      ],
      paint: [
        { name: "first-paint", startTime: 150 },
        { name: "first-contentful-paint", startTime: 151.2 },
      ],
      resource: [{}, {}, {}],
    };
    const perf = { getEntriesByType: (t: string) => (entries[t] ?? []) as PerformanceEntryList };
    expect(pageLoadMetrics(perf)).toEqual({
      ttfbMs: 42,
      responseMs: 60,
      domInteractiveMs: 120,
      domContentLoadedMs: 131,
      transferSize: 5120,
      encodedBodySize: 4000,
      firstPaintMs: 150,
      firstContentfulPaintMs: 151,
      resourceCount: 3,
    });
    expect(pageLoadMetrics({ getEntriesByType: () => [] })).toEqual({ resourceCount: 0 });
  });
});
