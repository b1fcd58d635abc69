/** A gift card's amounts, each in minor units. */
import { Card } from "../../components/Card.js";
import { MoneyField } from "../../components/form/index.js";
import { Notice } from "../../components/ui.js";
import type { SectionProps } from "./model.js";

export function GiftCardAmounts({ f, set, errors, currency }: SectionProps) {
  return (
    <Card title="Gift card amounts">
      {errors.giftCardDenominations ? <Notice kind="error">{errors.giftCardDenominations}</Notice> : null}
      {f.denominations.map((d, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: amounts are edited in place
        <div className="btn-row" key={i} style={{ alignItems: "flex-end" }}>
          <MoneyField
            label={`Amount ${i + 1} (${currency})`}
            value={d}
            currency={currency}
            error={errors[`giftCardDenominations.${i}`]}
            onChange={(v) => set({ denominations: f.denominations.map((x, j) => (j === i ? v : x)) })}
          />
          <button
            type="button"
            className="btn small"
            style={{ marginBottom: "0.95rem" }}
            onClick={() => set({ denominations: f.denominations.filter((_, j) => j !== i) })}
          >
            Remove amount {i + 1}
          </button>
        </div>
      ))}
      <button
        type="button"
        className="btn small"
        onClick={() => set({ denominations: [...f.denominations, null] })}
      >
        Add amount
      </button>
    </Card>
  );
}
