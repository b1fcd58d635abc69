/**
 * The checkout's labelled inputs: one field, rows of fields described by a table, the address
 * block of shipping and billing, and the submit button with the form's message.
 */
import { type ReactNode, useId } from "react";
import type { AddressForm, CheckoutForm } from "./form.js";
import type { SetFormField } from "./types.js";

export function Field(props: {
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

/** A field of a table-described form: its key, label and autocomplete token. */
export interface FieldSpec<K extends string> {
  key: K;
  label: string;
  autoComplete: string;
  optional?: boolean;
  placeholder?: string;
}

/** Fields in display order: a row of several (with the row's class) or one on its own. */
export type FieldRow<K extends string> = FieldSpec<K> | { className: string; fields: FieldSpec<K>[] };

/** What a field of a row shows and does: its name, value, error, and where what is typed goes. */
interface FieldBinding {
  name: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  autoComplete: string;
}

/** Renders rows of fields, each bound to the form with `bind`. */
export function FieldRows<K extends string>(props: {
  rows: FieldRow<K>[];
  inputMode?: "numeric";
  bind: (spec: FieldSpec<K>) => FieldBinding;
}) {
  const field = (f: FieldSpec<K>) => (
    <Field
      key={f.key}
      label={f.label}
      optional={f.optional}
      placeholder={f.placeholder}
      inputMode={props.inputMode}
      {...props.bind(f)}
    />
  );
  return props.rows.map((row) =>
    "fields" in row ? (
      <div key={row.fields[0]!.key} className={row.className}>
        {row.fields.map(field)}
      </div>
    ) : (
      field(row)
    ),
  );
}

/** The address inputs before the country. */
const ADDRESS_ROWS: FieldRow<keyof AddressForm>[] = [
  {
    className: "checkout-row",
    fields: [
      { key: "firstName", label: "First name", autoComplete: "given-name" },
      { key: "lastName", label: "Last name", autoComplete: "family-name" },
    ],
  },
  { key: "line1", label: "Address", autoComplete: "address-line1" },
  { key: "line2", label: "Apartment, suite, etc.", autoComplete: "address-line2", optional: true },
  {
    className: "checkout-row checkout-row--3",
    fields: [
      { key: "city", label: "City", autoComplete: "address-level2" },
      { key: "state", label: "State", autoComplete: "address-level1" },
      { key: "postalCode", label: "ZIP or postal code", autoComplete: "postal-code" },
    ],
  },
];

/** The shipping or billing address of the form (names `shippingAddress.city` …). */
export function AddressFields(props: {
  section: "shipping" | "billing";
  form: CheckoutForm;
  set: SetFormField;
  errors: Record<string, string>;
  countries: { code: string; name: string }[];
}) {
  const { section } = props;
  const prefix = `${section}Address`;
  const value = props.form[section];
  const set = (k: keyof AddressForm) => (v: string) => props.set(section)({ ...value, [k]: v });
  const err = (k: string) => props.errors[`${prefix}.${k}`];
  const countryId = useId();
  const ac = (f: string) => `${section} ${f}`;
  return (
    <fieldset className="checkout-section">
      <legend>{section === "shipping" ? "Shipping address" : "Billing address"}</legend>
      <FieldRows
        rows={ADDRESS_ROWS}
        bind={(f) => ({
          name: `${prefix}.${f.key}`,
          value: value[f.key],
          onChange: set(f.key),
          error: err(f.key),
          autoComplete: ac(f.autoComplete),
        })}
      />
      <div className="checkout-field">
        <label htmlFor={countryId}>Country</label>
        <select
          id={countryId}
          name={`${prefix}.country`}
          value={value.country}
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

/** The form's message (an alert) and its submit button. */
export function SubmitButton(props: { message?: string; busy: boolean; children: ReactNode }) {
  return (
    <>
      {props.message ? (
        <p className="checkout-message" role="alert">
          {props.message}
        </p>
      ) : null}
      <button type="submit" className="atelier-button checkout-pay" disabled={props.busy}>
        {props.children}
      </button>
    </>
  );
}
