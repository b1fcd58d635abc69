/**
 * The `<input>` a one-line form field shows, by field type: its HTML type, the phone keyboard
 * (inputmode) and the browser's autofill hint. Used by site forms and a product's additional
 * fields alike, so both offer the same keyboards and autofill.
 */
import type { FormField } from "@atelier/forms";

interface InputKind {
  type: string;
  mode?: "decimal" | "numeric" | "email" | "url";
  auto?: string;
}

const INPUT_KINDS: Partial<Record<FormField["type"], InputKind>> = {
  email: { type: "email", mode: "email", auto: "email" },
  number: { type: "text", mode: "decimal" },
  currency: { type: "text", mode: "decimal" },
  website: { type: "url", mode: "url", auto: "url" },
  password: { type: "password", auto: "new-password" },
};

export function inputKindOf(type: FormField["type"]): InputKind {
  return INPUT_KINDS[type] ?? { type: "text" };
}
