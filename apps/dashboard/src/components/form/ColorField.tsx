/** A colour as a #rrggbb hex: a swatch that opens the system picker, and the hex as text. */
import { Field, type ValueFieldProps } from "./Field.js";

const HEX = /^#[0-9a-f]{6}$/i;

export function ColorField({ label, help, error, value, onChange }: ValueFieldProps<string>) {
  const valid = HEX.test(value);
  const shown =
    error ?? (value && !valid ? "Enter a colour as # and six hex digits, e.g. #1f4fd8." : undefined);
  return (
    <Field label={label} help={help} error={shown} className="color-field">
      {({ control }) => (
        <div className="color-row">
          {/* The swatch is a pointer shortcut; the hex box is the labelled, keyboard input. */}
          <input
            type="color"
            tabIndex={-1}
            aria-hidden="true"
            value={valid ? value.toLowerCase() : "#000000"}
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
