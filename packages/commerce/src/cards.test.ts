import { describe, expect, it } from "vitest";
import {
  CARD_MSG,
  cardDigits,
  cardErrors,
  luhnValid,
  validCvc,
  validExpMonth,
  validExpYear,
} from "./cards.js";

const good = { cardNumber: "4242 4242 4242 4242", expMonth: 12, expYear: 2030, cvc: "123" };

describe("card details", () => {
  it("checks the Luhn sum and strips spaces", () => {
    expect(luhnValid("4242424242424242")).toBe(true);
    expect(luhnValid("4000002760003184")).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("42")).toBe(false);
    expect(luhnValid("4242a42424242424")).toBe(false);
    expect(cardDigits("4242 4242-4242 4242")).toBe("4242424242424242");
  });

  it("takes months 1 to 12, years as YY or YYYY up to 2100, codes of 3 or 4 digits", () => {
    expect([0, 1, 12, 13, 1.5, Number.NaN].filter(validExpMonth)).toEqual([1, 12]);
    expect([0, 99, 100, 123, 1999, 2000, 2100, 2101].filter(validExpYear)).toEqual([0, 99, 2000, 2100]);
    expect(["123", " 1234 ", "12", "12a", "12345", ""].filter(validCvc)).toEqual(["123", " 1234 "]);
  });

  it("tells each wrong field in Stripe's words", () => {
    expect(cardErrors(good)).toEqual({});
    expect(cardErrors({ cardNumber: "4242 4242 4242 4241", expMonth: 13, expYear: 123, cvc: "1" })).toEqual({
      cardNumber: CARD_MSG.INCORRECT_NUMBER,
      expMonth: CARD_MSG.INVALID_MONTH,
      expYear: CARD_MSG.INVALID_YEAR,
      cvc: CARD_MSG.INVALID_CVC,
    });
    expect(cardErrors({ ...good, cardNumber: "abcd" })).toEqual({
      cardNumber: "Your card number is incorrect.",
    });
  });
});
