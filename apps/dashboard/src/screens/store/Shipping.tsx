/** Store settings › Shipping: flat, by-weight and free rules, each for some countries or everywhere. */
import type { ShippingRule } from "@atelier/commerce";
import { formatCents } from "../../api.js";
import {
  type MoneyValue,
  MoneyField,
  SelectField,
  TextField,
  listToText,
  textToList,
  useDraft,
} from "../../components/form/index.js";
import { RuleList, type RuleFormProps, RuleModal } from "./rules.js";
import { useStoreCurrency } from "./useStore.js";

export function Shipping() {
  const currency = useStoreCurrency();
  const describe = (r: ShippingRule) =>
    r.kind === "free"
      ? `Free${r.minSubtotalCents ? ` on orders from ${formatCents(r.minSubtotalCents, currency)}` : ""}`
      : r.kind === "weight"
        ? `${formatCents(r.priceCents, currency)} + ${formatCents(r.perKgCents, currency)} per kg`
        : `${formatCents(r.priceCents, currency)} per order`;
  return (
    <RuleList<ShippingRule>
      path="shipping-rules"
      addLabel="Add shipping rule"
      head={[{ label: "Name" }, { label: "Rate" }, { label: "Countries", className: "hide-phone" }]}
      row={(r) => (
        <>
          <td>{r.name}</td>
          <td>{describe(r)}</td>
          <td className="hide-phone">{r.countries.length ? r.countries.join(", ") : "Everywhere"}</td>
        </>
      )}
      editLabel={(r) => r.name}
      empty="No shipping rules: physical products cannot be shipped yet."
      Form={ShippingForm}
    />
  );
}

function ShippingForm(props: RuleFormProps<ShippingRule>) {
  const { rule } = props;
  const currency = useStoreCurrency();
  const form = useDraft({
    name: rule?.name ?? "",
    kind: rule?.kind ?? "flat",
    priceCents: (rule?.priceCents ?? null) as MoneyValue,
    perKgCents: (rule?.perKgCents ?? null) as MoneyValue,
    minSubtotalCents: (rule?.minSubtotalCents || null) as MoneyValue,
    countries: listToText(rule?.countries ?? []),
  });
  const v = form.values;
  const amounts = [v.priceCents, v.perKgCents, v.minSubtotalCents];
  return (
    <RuleModal
      {...props}
      noun="shipping rule"
      error={amounts.includes(undefined) ? "Amounts are numbers such as 5 or 12.50." : undefined}
      body={() => ({
        name: v.name,
        kind: v.kind,
        priceCents: v.priceCents ?? 0,
        perKgCents: v.perKgCents ?? 0,
        minSubtotalCents: v.minSubtotalCents ?? 0,
        countries: textToList(v.countries),
      })}
    >
      {(err) => (
        <>
          <TextField label="Name shown at checkout" {...form.bind("name", err)} />
          <SelectField
            label="Kind"
            {...form.bind("kind", err)}
            options={[
              { value: "flat", label: "Flat rate" },
              { value: "weight", label: "By weight" },
              { value: "free", label: "Free" },
            ]}
          />
          {v.kind !== "free" ? (
            <MoneyField label={`Price (${currency})`} currency={currency} {...form.bind("priceCents", err)} />
          ) : null}
          {v.kind === "weight" ? (
            <MoneyField
              label={`Per kilogram (${currency})`}
              currency={currency}
              {...form.bind("perKgCents", err)}
            />
          ) : null}
          <MoneyField
            label={`Orders from (${currency})`}
            currency={currency}
            {...form.bind("minSubtotalCents", err)}
            help="Leave empty for every order"
          />
          <TextField
            label="Countries"
            {...form.bind("countries", err)}
            help="Two-letter codes separated by commas, e.g. US, CA. Empty means everywhere."
          />
        </>
      )}
    </RuleModal>
  );
}
