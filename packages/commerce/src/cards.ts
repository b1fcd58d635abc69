/**
 * Card details that cannot be a card, whatever the provider: the number (12 to 19 digits,
 * spaces and dashes allowed, Luhn sum), the expiry month (1–12) and year (YY or YYYY up to
 * 2100), the security code (3 or 4 digits). The server refuses them before any charge; the
 * checkout and the dashboard's billing card form check them before sending. Whether the card
 * has expired or is declined is the provider's to say. No I/O.
 */

/** Card detail messages, in the words card providers use (Stripe's). */
export const CARD_MSG = {
  INCORRECT_NUMBER: "Your card number is incorrect.",
  INVALID_MONTH: "Your card's expiration month is invalid.",
  INVALID_YEAR: "Your card's expiration year is invalid.",
  INVALID_CVC: "Your card's security code is invalid.",
} as const;

/** A card as entered: the number as typed, the expiry month and year, the security code. */
export interface CardDetails {
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** A card number as typed ("4242 4242 4242 4242") to its digits. */
export function cardDigits(input: string): string {
  return input.replace(/[\s-]/g, "");
}

/** Luhn checksum of a card number of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export function validExpMonth(month: number): boolean {
  return Number.isInteger(month) && month >= 1 && month <= 12;
}

/** YY (0–99) or YYYY from 2000 to 2100. */
export function validExpYear(year: number): boolean {
  return Number.isInteger(year) && ((year >= 0 && year < 100) || (year >= 2000 && year <= 2100));
}

export function validCvc(cvc: string): boolean {
  return /^\d{3,4}$/.test(cvc.trim());
}

/** What is wrong with a card's details, by field, in Stripe's words; empty when nothing is. */
export function cardErrors(card: CardDetails): Partial<Record<keyof CardDetails, string>> {
  const errors: Partial<Record<keyof CardDetails, string>> = {};
  if (!luhnValid(cardDigits(card.cardNumber))) errors.cardNumber = CARD_MSG.INCORRECT_NUMBER;
  if (!validExpMonth(card.expMonth)) errors.expMonth = CARD_MSG.INVALID_MONTH;
  if (!validExpYear(card.expYear)) errors.expYear = CARD_MSG.INVALID_YEAR;
  if (!validCvc(card.cvc)) errors.cvc = CARD_MSG.INVALID_CVC;
  return errors;
}
