/**
 * Message patterns of the commerce formatters ("{price} every week", "Only {qtyInStock}
 * left!"): named `{arg}` placeholders. Patterns that use ICU plural/select syntax
 * (`{n, plural, ...}`) go through the CLDR message formatter of the render locale when its
 * data is loaded.
 */
import { cldrFor } from "../i18n/cldr.js";
import type { RenderContext } from "../types.js";

export type MessageArgs = Readonly<Record<string, string | number>>;

const PLACEHOLDER_RE = /\{\s*(\w+)\s*\}/g;
const ICU_RE = /\{\s*\w+\s*,/;

/** Replaces `{name}` placeholders by their arguments; placeholders without an argument stay as written. */
export function fillMessage(pattern: string, args: MessageArgs): string {
  return pattern.replace(PLACEHOLDER_RE, (whole, name: string) =>
    Object.hasOwn(args, name) ? String(args[name]) : whole,
  );
}

/** Formats a message pattern with named arguments. */
export function formatMessage(ctx: RenderContext, pattern: string, args: MessageArgs): string {
  if (ICU_RE.test(pattern)) {
    const cldr = cldrFor(ctx.locale || "en-US");
    if (cldr !== undefined) {
      try {
        return cldr.General.messageFormatter().format(pattern, [], { ...args });
      } catch {
        // A malformed ICU pattern falls back to plain substitution.
      }
    }
  }
  return fillMessage(pattern, args);
}
