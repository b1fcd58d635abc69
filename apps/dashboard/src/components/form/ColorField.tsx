/** A colour as a #rgb or #rrggbb hex: a swatch that opens the system picker, and the hex as text. */
import { HEX_COLOR_MSG, normalizeHex } from "@atelier/owner-api";
import { Field, type ValueFieldProps } from "./Field.js";

export function ColorField({ label, help, error, value, onChange }: ValueFieldProps<string>) {
  const swatch = normalizeHex(value);
  const shown = error ?? (value && !swatch ? HEX_COLOR_MSG : undefined);
  return (
    <Field label={label} help={help} error={shown} className="color-field">
      {({ control }) => (
        <div className="color-row">
          {/* The swatch is a pointer shortcut; the hex box is the labelled, keyboard input. */}
          <input
            type="color"
            tabIndex={-1}
            aria-hidden="true"
            value={swatch ?? "#000000"}
            onChange={(e) => onChange(e.target.value)}
          />
          <input
            {...control}
            type="text"
            spellCheck={false}
            maxLength={7}
            value={value}
            onChange={(e) => onChange(e.target.value.trim())}
          />
        </div>
      )}
    </Field>
  );
}
