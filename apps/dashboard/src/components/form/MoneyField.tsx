/**
 * An amount typed in the currency's major unit ("12.50", "1200" for JPY) and handed over in minor
 * units: a number of cents, null when empty, undefined while the text is not an amount.
 */
import { fractionDigitsOf } from "@atelier/commerce";
import { type InputHTMLAttributes, useEffect, useState } from "react";
import { centsToText, textToCents } from "../../api.js";
import { Field, type ValueFieldProps } from "./Field.js";

export type MoneyValue = number | null | undefined;

function toText(cents: MoneyValue, currency: string): string {
  return typeof cents === "number" ? centsToText(cents, currency) : "";
}

function toCents(text: string, currency: string): MoneyValue {
  return text.trim() === "" ? null : textToCents(text, currency);
}

export function amountHint(currency: string): string {
  const digits = fractionDigitsOf(currency);
  return digits ? `12.${"5".padEnd(digits, "0")}` : "1200";
}

export function MoneyField({
  label,
  help,
  error,
  value,
  onChange,
  currency,
  ...rest
}: ValueFieldProps<MoneyValue> & {
  currency: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "id" | "type">) {
  const [text, setText] = useState(() => toText(value, currency));
  // A value set from outside (a reset, a discard) replaces what is typed unless they already agree.
  useEffect(() => {
    setText((typed) => (toCents(typed, currency) === value ? typed : toText(value, currency)));
  }, [value, currency]);
  const notAmount = value === undefined && text.trim() !== "";
  const shown = error ?? (notAmount ? `Enter an amount such as ${amountHint(currency)}.` : undefined);
  return (
    <Field label={label} help={help} error={shown}>
      {({ control }) => (
        <input
          {...control}
          type="text"
          inputMode={fractionDigitsOf(currency) ? "decimal" : "numeric"}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            onChange(toCents(e.target.value, currency));
          }}
          {...rest}
        />
      )}
    </Field>
  );
}
