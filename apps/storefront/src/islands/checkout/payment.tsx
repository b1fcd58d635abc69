/** The card payment step: card number, expiry and security code, and the billing address choice. */
import { type FieldRow, FieldRows } from "./fields.js";
import { type CheckoutForm, formatCardNumber, formatExpiry } from "./form.js";
import type { SetFormField } from "./types.js";

type CardKey = "cardNumber" | "expiry" | "cvc";

const CARD_ROWS: FieldRow<CardKey>[] = [
  { key: "cardNumber", label: "Card number", autoComplete: "cc-number", placeholder: "1234 1234 1234 1234" },
  {
    className: "checkout-row",
    fields: [
      { key: "expiry", label: "Expiry", autoComplete: "cc-exp", placeholder: "MM / YY" },
      { key: "cvc", label: "CVC", autoComplete: "cc-csc", placeholder: "123" },
    ],
  },
];

/** How each card input keeps what is typed: grouped digits, MM / YY, up to four digits. */
const CARD_FORMATS: Record<CardKey, (typed: string) => string> = {
  cardNumber: formatCardNumber,
  expiry: formatExpiry,
  cvc: (v) => v.replace(/\D/g, "").slice(0, 4),
};

export function PaymentFields({
  form,
  set,
  errors,
  needsShipping,
}: {
  form: CheckoutForm;
  set: SetFormField;
  errors: Record<string, string>;
  needsShipping: boolean;
}) {
  return (
    <fieldset className="checkout-section">
      <legend>Payment</legend>
      <FieldRows
        rows={CARD_ROWS}
        inputMode="numeric"
        bind={(f) => ({
          name: f.key,
          value: form[f.key],
          onChange: (v) => set(f.key)(CARD_FORMATS[f.key](v)),
          error: errors[f.key],
          autoComplete: f.autoComplete,
        })}
      />
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
  );
}
