/**
 * The code editors' syntax colours: each at least 4.5:1 on white and on the active line's tint
 * (WCAG 1.4.3), where CodeMirror's default style has several below it.
 */
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags as t } from "@lezer/highlight";

const style = HighlightStyle.define([
  { tag: t.meta, color: "#404740" },
  { tag: t.link, textDecoration: "underline" },
  { tag: t.heading, textDecoration: "underline", fontWeight: "bold" },
  { tag: t.emphasis, fontStyle: "italic" },
  { tag: t.strong, fontWeight: "bold" },
  { tag: t.strikethrough, textDecoration: "line-through" },
  { tag: t.keyword, color: "#7a0f8f" },
  { tag: [t.atom, t.bool, t.url, t.contentSeparator, t.labelName], color: "#1f2f99" },
  { tag: [t.literal, t.inserted], color: "#166b3d" },
  { tag: [t.string, t.deleted], color: "#a11111" },
  { tag: [t.regexp, t.escape, t.special(t.string)], color: "#b03a00" },
  { tag: t.definition(t.variableName), color: "#0040d0" },
  { tag: t.local(t.variableName), color: "#3300aa" },
  { tag: [t.typeName, t.namespace], color: "#006b47" },
  { tag: t.className, color: "#116670" },
  { tag: [t.special(t.variableName), t.macroName], color: "#225566" },
  { tag: t.definition(t.propertyName), color: "#0033b0" },
  { tag: t.comment, color: "#8a4500" },
  { tag: t.invalid, color: "#c00000" },
]);

/** The extension both code editors (CSS and JSON-T) use for their colours. */
export const readableHighlighting = syntaxHighlighting(style, { fallback: true });

/** Said under every code editor: Tab indents there, so keyboard users need the way out. */
export const CODE_KEYS_HINT = "Tab indents. To leave the editor with the keyboard, press Esc, then Tab.";
