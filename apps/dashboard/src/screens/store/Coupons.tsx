/** Marketing › Discounts › Coupons: percent, amount or free-shipping codes with dates, a minimum and a limit. */
import type { OwnerCoupon } from "@atelier/owner-api";
import { formatCents } from "../../api.js";
import {
  CheckboxField,
  type MoneyValue,
  MoneyField,
  NumberField,
  SelectField,
  TextField,
  fieldErrors,
  useDraft,
} from "../../components/form/index.js";
import { formatDate } from "../../components/ui.js";
import { RuleList, type RuleFormProps, RuleModal } from "./rules.js";
import { useStoreCurrency } from "./useStore.js";

export function Coupons() {
  const currency = useStoreCurrency();
  return (
    <RuleList<OwnerCoupon>
      path="coupons"
      addLabel="Add coupon"
      head={[
        { label: "Code" },
        { label: "Discount" },
        { label: "Valid", className: "hide-phone" },
        { label: "Used", className: "num" },
      ]}
      row={(c) => (
        <>
          <td>
            <code>{c.code}</code> {c.active ? null : <span className="badge">Off</span>}
          </td>
          <td>
            {c.kind === "percent"
              ? `${c.amount}% off`
              : c.kind === "fixed"
                ? `${formatCents(c.amount, currency)} off`
                : "Free shipping"}
          </td>
          <td className="hide-phone muted small">
            {c.startsAt || c.endsAt
              ? `${formatDate(c.startsAt) || "now"} – ${formatDate(c.endsAt) || "no end"}`
              : "Always"}
          </td>
          <td className="num">
            {c.timesUsed}
            {c.usageLimit ? ` / ${c.usageLimit}` : ""}
          </td>
        </>
      )}
      editLabel={(c) => c.code}
      empty="No coupons."
      Form={CouponForm}
    />
  );
}

const dateInput = (ms: number | null) => (ms ? new Date(ms).toISOString().slice(0, 10) : "");
const fromDate = (s: string) => (s ? new Date(`${s}T00:00:00`).getTime() : null);

function CouponForm(props: RuleFormProps<OwnerCoupon>) {
  const { rule: coupon } = props;
  const currency = useStoreCurrency();
  const form = useDraft({
    code: coupon?.code ?? "",
    kind: coupon?.kind ?? "percent",
    percent: coupon && coupon.kind !== "fixed" ? coupon.amount : (undefined as number | undefined),
    amountCents: (coupon?.kind === "fixed" ? coupon.amount : null) as MoneyValue,
    minSubtotalCents: (coupon?.minSubtotalCents || null) as MoneyValue,
    startsAt: dateInput(coupon?.startsAt ?? null),
    endsAt: dateInput(coupon?.endsAt ?? null),
    usageLimit: coupon?.usageLimit ?? undefined,
    active: coupon?.active ?? true,
  });
  const v = form.values;
  const amount =
    v.kind === "fixed"
      ? (v.amountCents ?? 0)
      : v.percent !== undefined && Number.isInteger(v.percent)
        ? v.percent
        : undefined;
  const local =
    v.kind !== "free_shipping" && (amount === undefined || v.amountCents === undefined)
      ? "Enter the discount."
      : v.minSubtotalCents === undefined
        ? "Enter the minimum as an amount."
        : undefined;
  return (
    <RuleModal
      {...props}
      noun="coupon"
      error={local}
      body={() => ({
        code: v.code,
        kind: v.kind,
        amount: v.kind === "free_shipping" ? 0 : amount,
        minSubtotalCents: v.minSubtotalCents ?? 0,
        startsAt: fromDate(v.startsAt),
        endsAt: fromDate(v.endsAt),
        usageLimit: v.usageLimit ?? null,
        active: v.active,
      })}
    >
      {(err) => (
        <>
          <TextField label="Code" {...form.bind("code", err)} help="Shoppers type it at checkout" />
          <SelectField
            label="Discount"
            {...form.bind("kind", err)}
            options={[
              { value: "percent", label: "Percent off" },
              { value: "fixed", label: "Amount off" },
              { value: "free_shipping", label: "Free shipping" },
            ]}
          />
          {v.kind === "percent" ? (
            <NumberField
              label="Percent"
              min={1}
              max={100}
              {...form.bind("percent")}
              error={fieldErrors(err).amount}
            />
          ) : v.kind === "fixed" ? (
            <MoneyField
              label={`Amount (${currency})`}
              currency={currency}
              {...form.bind("amountCents")}
              error={fieldErrors(err).amount}
            />
          ) : null}
          <MoneyField
            label={`Minimum order (${currency})`}
            currency={currency}
            {...form.bind("minSubtotalCents", err)}
          />
          <div className="grid-2">
            <TextField label="Starts" type="date" {...form.bind("startsAt", err)} />
            <TextField label="Ends" type="date" {...form.bind("endsAt", err)} />
          </div>
          <NumberField
            label="Usage limit"
            min={1}
            {...form.bind("usageLimit", err)}
            help="Empty for no limit"
          />
          <CheckboxField label="Active" {...form.bind("active", err)} />
        </>
      )}
    </RuleModal>
  );
}
