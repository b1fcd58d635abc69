/** Options (Size, Color…) in the order shoppers choose them, and one fieldset per variant. */
import { ProductType, tracksStock } from "@atelier/commerce";
import { useState } from "react";
import { Card } from "../../components/Card.js";
import { MoveButtons } from "../../components/MoveButtons.js";
import { movedStep } from "../../components/move-step.js";
import { CheckboxField, MoneyField, TextField, binder, errorsUnder } from "../../components/form/index.js";
import { Notice } from "../../components/ui.js";
import { type SectionProps, type VariantForm, emptyVariant } from "./model.js";

export function VariantsSection({ f, set, errors, currency }: SectionProps) {
  const [newOption, setNewOption] = useState("");
  const stocked = tracksStock(f.productType);
  const setVariant = (i: number, patch: Partial<VariantForm>) =>
    set({ variants: f.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) });
  /** `{value, onChange, error}` for a field of variant `i`, its errors those under `variants.${i}.`. */
  const variantField = (i: number) =>
    binder(f.variants[i]!, (patch) => setVariant(i, patch), errorsUnder(errors, `variants.${i}.`));
  const moveOption = (i: number, d: -1 | 1) => {
    const options = movedStep(f.options, i, d);
    if (options) set({ options });
  };
  const addOption = () => {
    const name = newOption.trim();
    if (!name || f.options.includes(name)) return;
    set({
      options: [...f.options, name],
      variants: f.variants.map((v) => ({ ...v, attributes: { ...v.attributes, [name]: "" } })),
    });
    setNewOption("");
  };
  const removeOption = (name: string) =>
    set({
      options: f.options.filter((o) => o !== name),
      variants: f.variants.map((v) => {
        const { [name]: _gone, ...rest } = v.attributes;
        return { ...v, attributes: rest };
      }),
    });
  return (
    <Card title="Variants and stock">
      {errors.variants ? <Notice kind="error">{errors.variants}</Notice> : null}
      <fieldset>
        <legend>Options</legend>
        <p className="muted small">Options such as Size or Color, in the order shoppers choose them.</p>
        {errors.variantOptionOrdering ? <p className="error small">{errors.variantOptionOrdering}</p> : null}
        <ol style={{ paddingLeft: "1.2rem" }}>
          {f.options.map((o, i) => (
            <li key={o} style={{ marginBottom: 6 }}>
              <span className="btn-row">
                <strong style={{ minWidth: 90 }}>{o}</strong>
                <MoveButtons
                  name={`option ${o}`}
                  index={i}
                  count={f.options.length}
                  onMove={(by) => moveOption(i, by)}
                  className="btn ghost small"
                />
                <button type="button" className="btn ghost small" onClick={() => removeOption(o)}>
                  Remove {o}
                </button>
              </span>
            </li>
          ))}
        </ol>
        <div className="btn-row" style={{ alignItems: "flex-end" }}>
          <TextField label="New option name" value={newOption} onChange={(v) => setNewOption(v)} />
          <button
            type="button"
            className="btn small"
            style={{ marginBottom: "0.95rem" }}
            onClick={addOption}
            disabled={f.options.length >= 6}
          >
            Add option
          </button>
        </div>
      </fieldset>
      {f.variants.map((v, i) => (
        <fieldset key={v.id ?? `new-${i}`}>
          <legend>
            Variant {i + 1}
            {f.options.length ? `: ${f.options.map((o) => v.attributes[o] || "…").join(" / ")}` : ""}
          </legend>
          {errors[`variants.${i}.attributes`] ? (
            <p className="error small">{errors[`variants.${i}.attributes`]}</p>
          ) : null}
          {f.options.length ? (
            <div className="grid-2">
              {f.options.map((o) => (
                <TextField
                  key={o}
                  label={o}
                  value={v.attributes[o] ?? ""}
                  onChange={(value) => setVariant(i, { attributes: { ...v.attributes, [o]: value } })}
                />
              ))}
            </div>
          ) : null}
          <div className="grid-2">
            <MoneyField
              label={`Price (${currency})`}
              value={v.price}
              currency={currency}
              error={errors[`variants.${i}.priceCents`]}
              onChange={(price) => setVariant(i, { price })}
            />
            <TextField
              label="SKU"
              {...variantField(i)("sku")}
              help={v.sku ? undefined : "Made for you when empty"}
            />
          </div>
          <CheckboxField label="On sale" value={v.onSale} onChange={(onSale) => setVariant(i, { onSale })} />
          {v.onSale ? (
            <MoneyField
              label={`Sale price (${currency})`}
              value={v.salePrice}
              currency={currency}
              error={errors[`variants.${i}.salePriceCents`]}
              onChange={(salePrice) => setVariant(i, { salePrice })}
            />
          ) : null}
          {stocked ? (
            <>
              <CheckboxField
                label="Unlimited stock"
                value={v.unlimited}
                onChange={(unlimited) => setVariant(i, { unlimited })}
              />
              <div className="grid-2">
                {!v.unlimited ? (
                  <TextField label="Stock" type="number" min={0} {...variantField(i)("qtyInStock")} />
                ) : null}
                {f.productType === ProductType.PHYSICAL ? (
                  <TextField
                    label="Weight (grams)"
                    type="number"
                    min={0}
                    {...variantField(i)("weightGrams")}
                  />
                ) : null}
              </div>
            </>
          ) : (
            <p className="muted small">Digital products never sell out.</p>
          )}
          {f.variants.length > 1 ? (
            <button
              type="button"
              className="btn small danger"
              onClick={() => set({ variants: f.variants.filter((_, j) => j !== i) })}
            >
              Remove variant {i + 1}
            </button>
          ) : null}
        </fieldset>
      ))}
      <button
        type="button"
        className="btn small"
        onClick={() => set({ variants: [...f.variants, emptyVariant(f.options)] })}
      >
        Add variant
      </button>
    </Card>
  );
}
