/** Selling a physical or service product as a subscription: the billing period and the number of payments. */
import { Card } from "../../components/Card.js";
import { CheckboxField, SelectField, TextField, binder } from "../../components/form/index.js";
import { Notice } from "../../components/ui.js";
import type { ProductForm, SectionProps } from "./model.js";

export function SubscriptionSection({ f, set, errors }: SectionProps) {
  const plain = binder(f, set);
  return (
    <Card title="Subscription">
      <CheckboxField
        label="Sell as a subscription"
        help="Shoppers pay again every period until the number of payments is reached."
        {...plain("isSubscribable")}
      />
      {errors.isSubscribable ? <Notice kind="warn">{errors.isSubscribable}</Notice> : null}
      {f.isSubscribable ? (
        <div className="grid-3">
          <TextField
            label="Bill every"
            type="number"
            min={1}
            {...plain("billingValue")}
            error={errors["subscriptionPlan.billingPeriod.value"]}
          />
          <SelectField
            label="Period"
            value={f.billingUnit}
            onChange={(v) => set({ billingUnit: v as ProductForm["billingUnit"] })}
            options={[
              { value: "WEEK", label: "Weeks" },
              { value: "MONTH", label: "Months" },
              { value: "YEAR", label: "Years" },
            ]}
          />
          <TextField
            label="Number of payments"
            type="number"
            min={0}
            {...plain("numBillingCycles")}
            error={errors["subscriptionPlan.numBillingCycles"]}
            help="0 means until cancelled"
          />
        </div>
      ) : null}
    </Card>
  );
}
