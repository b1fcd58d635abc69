/**
 * Marketing › Discounts (beside Coupons): automatic discounts, applied without a code. The
 * list shows what each gives, when and how often it was used; the form has every field of the
 * owner API (kind and value, products and categories, conditions, schedule in the site's time
 * zone, usage limits, combining with coupons). The server checks the form and answers in plain words.
 */
import type { OwnerDiscount } from "@atelier/owner-api";
import { useQuery } from "@tanstack/react-query";
import { formatCents, get } from "../../api.js";
import {
  CheckboxField,
  type MoneyValue,
  MoneyField,
  NumberField,
  SelectField,
  TextField,
  fieldErrors,
  listToText,
  textToList,
  useDraft,
} from "../../components/form/index.js";
import { useProductOptions } from "../../components/fields.js";
import { useSiteId } from "../../components/ui.js";
import { RuleList, type RuleFormProps, RuleModal } from "./rules.js";
import { useStoreCurrency } from "./useStore.js";

const KINDS = [
  { value: "order_percentage", label: "Percentage off the order" },
  { value: "order_amount", label: "Amount off the order" },
  { value: "product_percentage", label: "Percentage off chosen products" },
  { value: "product_amount", label: "Amount off each chosen product" },
  { value: "free_shipping", label: "Free shipping" },
  { value: "buy_x_get_y", label: "Buy X, get Y" },
];
const PERCENT = new Set(["order_percentage", "product_percentage", "buy_x_get_y"]);

/** What a discount gives, in a few words. */
function gives(d: OwnerDiscount, money: (cents: number) => string): string {
  switch (d.kind) {
    case "order_percentage":
      return `${d.value}% off the order`;
    case "order_amount":
      return `${money(d.value)} off the order`;
    case "product_percentage":
      return `${d.value}% off chosen products`;
    case "product_amount":
      return `${money(d.value)} off each chosen product`;
    case "free_shipping":
      return "Free shipping";
    default:
      return `Buy ${d.buyXGetY?.buyQuantity ?? "?"}, get ${d.buyXGetY?.getQuantity ?? "?"} ${
        d.value === 100 ? "free" : `at ${d.value}% off`
      }`;
  }
}

/** When a discount runs: its start and end as the owner wrote them (the site's time zone). */
function when(d: OwnerDiscount): string {
  const show = (s: string) => s.replace("T", " ");
  if (!d.startsAt && !d.endsAt) return "Always";
  return `${d.startsAt ? show(d.startsAt) : "now"} – ${d.endsAt ? show(d.endsAt) : "no end"}`;
}

export function Discounts() {
  const siteId = useSiteId();
  const currency = useStoreCurrency();
  const money = (cents: number) => formatCents(cents, currency);
  return (
    <>
      <p className="muted">
        Automatic discounts apply without a code, in the cart and at checkout. An order gets the one that
        saves the shopper most; a coupon is added only when the discount allows it.
      </p>
      <RuleList<OwnerDiscount>
        path="discounts"
        url={`/api/owner/sites/${siteId}/discounts`}
        listKey="discounts"
        update="patch"
        addLabel="Add discount"
        head={[
          { label: "Name" },
          { label: "Gives" },
          { label: "Runs", className: "hide-phone" },
          { label: "Used", className: "num" },
        ]}
        row={(d) => (
          <>
            <td>
              {d.name} {d.active ? null : <span className="badge">Off</span>}
            </td>
            <td>
              {gives(d, money)}
              {d.conditions.minSubtotalCents ? (
                <span className="muted small"> · over {money(d.conditions.minSubtotalCents)}</span>
              ) : null}
            </td>
            <td className="hide-phone muted small">{when(d)}</td>
            <td className="num">
              {d.timesUsed}
              {d.usageLimit ? ` / ${d.usageLimit}` : ""}
            </td>
          </>
        )}
        editLabel={(d) => d.name}
        empty="No automatic discounts."
        Form={DiscountForm}
      />
    </>
  );
}

/** A labelled group of checkboxes, one per option; the chosen values. */
function ChoiceList({
  legend,
  options,
  value,
  onChange,
  help,
  error,
}: {
  legend: string;
  options: { value: string; label: string }[];
  value: string[];
  onChange: (v: string[]) => void;
  help?: string;
  error?: string;
}) {
  return (
    <fieldset className="field choice-list">
      <legend>{legend}</legend>
      {help ? <p className="muted small">{help}</p> : null}
      <div style={{ maxHeight: "12rem", overflowY: "auto" }}>
        {options.length === 0 ? <p className="muted small">None yet.</p> : null}
        {options.map((o) => (
          <label key={o.value} style={{ display: "block" }}>
            <input
              type="checkbox"
              checked={value.includes(o.value)}
              onChange={(e) =>
                onChange(e.target.checked ? [...value, o.value] : value.filter((v) => v !== o.value))
              }
            />{" "}
            {o.label}
          </label>
        ))}
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function useChoices() {
  const siteId = useSiteId();
  const products = useProductOptions();
  const shipping = useQuery({
    queryKey: ["store", siteId, "shipping-rules"],
    queryFn: () =>
      get<{ rules: { id: string; name: string }[] }>(`/api/owner/sites/${siteId}/store/shipping-rules`).then(
        (r) => r.rules,
      ),
  });
  return {
    products: (products.data ?? []).map((p) => ({ value: p.id, label: p.title })),
    shipping: (shipping.data ?? []).map((r) => ({ value: r.id, label: r.name })),
  };
}

function DiscountForm(props: RuleFormProps<OwnerDiscount>) {
  const { rule: d } = props;
  const currency = useStoreCurrency();
  const choices = useChoices();
  const form = useDraft({
    name: d?.name ?? "",
    kind: d?.kind ?? "order_percentage",
    percent: d && PERCENT.has(d.kind) ? d.value : (undefined as number | undefined),
    amountCents: (d && !PERCENT.has(d.kind) && d.kind !== "free_shipping" ? d.value : null) as MoneyValue,
    productIds: d?.appliesTo.productIds ?? [],
    categories: listToText(d?.appliesTo.categoryIds ?? []),
    shippingOptionIds: d?.appliesTo.shippingOptionIds ?? [],
    buyQuantity: d?.buyXGetY?.buyQuantity ?? (2 as number | undefined),
    getQuantity: d?.buyXGetY?.getQuantity ?? (1 as number | undefined),
    getProductIds: d?.buyXGetY?.getProductIds ?? [],
    getCategories: listToText(d?.buyXGetY?.getCategoryIds ?? []),
    minSubtotalCents: (d?.conditions.minSubtotalCents || null) as MoneyValue,
    minQuantity: d?.conditions.minQuantity || (undefined as number | undefined),
    firstOrderOnly: d?.conditions.firstOrderOnly ?? false,
    startsAt: d?.startsAt ?? "",
    endsAt: d?.endsAt ?? "",
    usageLimit: d?.usageLimit ?? undefined,
    perCustomerLimit: d?.perCustomerLimit ?? undefined,
    combinesWithCoupons: d?.combinesWithCoupons ?? false,
    active: d?.active ?? true,
  });
  const v = form.values;
  const percent = PERCENT.has(v.kind);
  const value = v.kind === "free_shipping" ? 0 : percent ? v.percent : (v.amountCents ?? undefined);
  const local =
    v.kind !== "free_shipping" && (value === undefined || v.amountCents === undefined)
      ? "Enter what the discount takes off."
      : v.minSubtotalCents === undefined
        ? "Enter the minimum as an amount."
        : undefined;
  return (
    <RuleModal
      {...props}
      noun="discount"
      error={local}
      body={() => ({
        name: v.name,
        kind: v.kind,
        value: value ?? 0,
        appliesTo: {
          productIds: v.productIds,
          categoryIds: textToList(v.categories),
          shippingOptionIds: v.kind === "free_shipping" ? v.shippingOptionIds : [],
        },
        conditions: {
          minSubtotalCents: v.minSubtotalCents ?? 0,
          minQuantity: v.minQuantity ?? 0,
          firstOrderOnly: v.firstOrderOnly,
        },
        buyXGetY:
          v.kind === "buy_x_get_y"
            ? {
                buyQuantity: v.buyQuantity ?? 0,
                getQuantity: v.getQuantity ?? 0,
                getProductIds: v.getProductIds,
                getCategoryIds: textToList(v.getCategories),
              }
            : null,
        startsAt: v.startsAt || null,
        endsAt: v.endsAt || null,
        usageLimit: v.usageLimit ?? null,
        perCustomerLimit: v.perCustomerLimit ?? null,
        combinesWithCoupons: v.combinesWithCoupons,
        active: v.active,
      })}
    >
      {(err) => {
        const errors = fieldErrors(err);
        return (
          <>
            <TextField
              label="Name"
              {...form.bind("name", err)}
              help="Shoppers see it in the cart and on the order"
            />
            <SelectField label="Discount" {...form.bind("kind", err)} options={KINDS} />
            {percent ? (
              <NumberField
                label={v.kind === "buy_x_get_y" ? "Percent off what they get (100 = free)" : "Percent off"}
                min={1}
                max={100}
                {...form.bind("percent")}
                error={errors.value}
              />
            ) : v.kind !== "free_shipping" ? (
              <MoneyField
                label={`Amount off (${currency})`}
                currency={currency}
                {...form.bind("amountCents")}
                error={errors.value}
              />
            ) : null}
            {v.kind === "buy_x_get_y" ? (
              <div className="grid-2">
                <NumberField
                  label="Customer buys"
                  min={1}
                  {...form.bind("buyQuantity")}
                  error={errors.buyQuantity}
                />
                <NumberField
                  label="Customer gets"
                  min={1}
                  {...form.bind("getQuantity")}
                  error={errors.getQuantity}
                />
              </div>
            ) : null}
            {v.kind === "free_shipping" ? (
              <ChoiceList
                legend="Shipping options made free"
                help="None chosen: every option"
                options={choices.shipping}
                value={v.shippingOptionIds}
                onChange={(x) => form.set({ shippingOptionIds: x })}
              />
            ) : null}
            <ChoiceList
              legend={v.kind === "buy_x_get_y" ? "Products the customer buys" : "Products"}
              help={
                v.kind.startsWith("product_")
                  ? "Choose products or categories below"
                  : "None chosen (and no categories): every product counts"
              }
              options={choices.products}
              value={v.productIds}
              onChange={(x) => form.set({ productIds: x })}
              error={errors.appliesTo}
            />
            <TextField
              label="Categories"
              {...form.bind("categories")}
              help="Category names, separated by commas"
            />
            {v.kind === "buy_x_get_y" ? (
              <>
                <ChoiceList
                  legend="Products the customer gets"
                  help="None chosen (and no categories): the same as those bought; the cheapest are given first"
                  options={choices.products}
                  value={v.getProductIds}
                  onChange={(x) => form.set({ getProductIds: x })}
                />
                <TextField
                  label="Categories the customer gets"
                  {...form.bind("getCategories")}
                  help="Category names, separated by commas"
                />
              </>
            ) : null}
            <div className="grid-2">
              <MoneyField
                label={`Minimum subtotal (${currency})`}
                currency={currency}
                {...form.bind("minSubtotalCents")}
                error={errors.minSubtotalCents}
              />
              <NumberField
                label="Minimum quantity"
                min={0}
                {...form.bind("minQuantity")}
                error={errors.minQuantity}
              />
            </div>
            <CheckboxField label="Only on a customer's first order" {...form.bind("firstOrderOnly", err)} />
            <div className="grid-2">
              <TextField
                label="Starts"
                type="datetime-local"
                {...form.bind("startsAt", err)}
                help="In the site's time zone"
              />
              <TextField label="Ends" type="datetime-local" {...form.bind("endsAt", err)} />
            </div>
            <div className="grid-2">
              <NumberField
                label="Usage limit"
                min={1}
                {...form.bind("usageLimit", err)}
                help="Orders in all; empty for no limit"
              />
              <NumberField
                label="Limit per customer"
                min={1}
                {...form.bind("perCustomerLimit", err)}
                help="Empty for no limit"
              />
            </div>
            <CheckboxField
              label="Combines with coupons"
              help="Shoppers may add a coupon code on top of this discount"
              {...form.bind("combinesWithCoupons", err)}
            />
            <CheckboxField label="Active" {...form.bind("active", err)} />
          </>
        );
      }}
    </RuleModal>
  );
}
