/** The Design screens' own inputs beside the form kit's: contrast check, font choice, ranges, option cards. */
import { type ReactNode, useEffect, useId, useState } from "react";
import { Field } from "../../components/form/index.js";
import { AA_TEXT_CONTRAST, contrastRatio, formatContrast } from "@atelier/owner-api";
import type { DesignFont } from "./design-api.js";

/** The WCAG AA check of one pair, with a sample: the ratio always shown, a warning below 4.5:1. */
export function ContrastCheck({ label, fg, bg }: { label: string; fg: string; bg: string }) {
  const ratio = contrastRatio(fg, bg);
  if (ratio === undefined) return null;
  const ok = ratio >= AA_TEXT_CONTRAST;
  return (
    <div className={`contrast ${ok ? "ok" : "low"}`} role={ok ? undefined : "alert"}>
      <span className="sample" style={{ color: fg, background: bg }} aria-hidden="true">
        Aa
      </span>
      <span>
        {label}: <strong>{formatContrast(ratio)}</strong>{" "}
        {ok
          ? "passes WCAG AA"
          : `is below WCAG AA (${AA_TEXT_CONTRAST}:1): some visitors will not be able to read it`}
      </span>
    </div>
  );
}

export function FontSelect({
  label,
  value,
  fonts,
  onChange,
  family,
  error,
}: {
  label: string;
  value: string;
  fonts: DesignFont[];
  onChange: (id: string) => void;
  family: (id: string) => string;
  error?: string;
}) {
  const current = fonts.find((f) => f.id === value);
  return (
    <Field label={label} error={error}>
      {({ control }) => (
        <>
          <select {...control} value={value} onChange={(e) => onChange(e.target.value)}>
            {fonts.map((f) => (
              <option key={f.id} value={f.id} style={{ fontFamily: family(f.id) }}>
                {f.name} ({f.category})
              </option>
            ))}
          </select>
          <span className="font-sample" style={{ fontFamily: family(value) }}>
            {current?.name ?? value}: The quick brown fox jumps over the lazy dog
          </span>
        </>
      )}
    </Field>
  );
}

/** A number chosen with a slider and a number field side by side. */
export function RangeField({
  label,
  value,
  min,
  max,
  step,
  unit,
  onChange,
  error,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  unit?: string;
  onChange: (n: number) => void;
  error?: string;
}) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  return (
    <Field label={unit ? `${label} (${unit})` : label} error={error} className="range-field">
      {({ control }) => (
        <div className="range-row">
          <input
            type="range"
            aria-label={`${label} slider`}
            min={min}
            max={max}
            step={step}
            value={value}
            onChange={(e) => onChange(Number(e.target.value))}
          />
          <input
            {...control}
            type="number"
            min={min}
            max={max}
            step={step}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              const n = Number(e.target.value);
              if (e.target.value !== "" && Number.isFinite(n) && n >= min && n <= max) onChange(n);
            }}
          />
        </div>
      )}
    </Field>
  );
}

/** A radio group whose options are cards with a small preview of what they do. */
export function OptionCards<T extends string>({
  legend,
  value,
  options,
  onChange,
  error,
}: {
  legend: string;
  value: T;
  options: { value: T; label: string; preview: ReactNode }[];
  onChange: (v: T) => void;
  error?: string;
}) {
  const name = useId();
  return (
    <fieldset className={`option-cards${error ? " invalid" : ""}`}>
      <legend>{legend}</legend>
      <div className="cards">
        {options.map((o) => (
          <label key={o.value} className={value === o.value ? "on" : undefined}>
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
            />
            <span className="preview" aria-hidden="true">
              {o.preview}
            </span>
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {error ? <span className="error">{error}</span> : null}
    </fieldset>
  );
}
