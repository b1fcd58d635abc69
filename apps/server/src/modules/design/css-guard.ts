/**
 * Custom CSS of a site (Design → Custom CSS): at most 100 KB, and never anything that could leave
 * its stylesheet or run script. CSS escapes (`\3c`, `\73`) and comments are undone before the
 * checks, so `<\73 cript` or `java/**\/script:` are found as what they spell.
 */
import { CUSTOM_CSS_MAX_BYTES } from "@atelier/owner-api";

export const CSS_MSG = {
  TOO_LARGE: `Custom CSS must be ${CUSTOM_CSS_MAX_BYTES / 1024} KB or less.`,
  found: (what: string) => `Custom CSS cannot contain ${what}.`,
} as const;

const RULES: [RegExp, string][] = [
  [/<\/style/i, "</style>"],
  [/<script/i, "<script>"],
  [/<!--|-->/, "HTML comments (<!-- or -->)"],
  [/@import\s*(?:url\(\s*)?["']?\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i, "an @import of another site's stylesheet"],
  [/javascript\s*:/i, "javascript: URLs"],
  [/vbscript\s*:/i, "vbscript: URLs"],
  [/expression\s*\(/i, "expression()"],
  [/-moz-binding|behavior\s*:/i, "-moz-binding or behavior"],
];

/** The text as a browser's CSS tokenizer reads it: comments out, escapes decoded. */
export function decodeCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "")
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => {
      const code = Number.parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
    })
    .replace(/\\\r?\n/g, "")
    .replace(/\\(.)/g, "$1");
}

/** The message for custom CSS that may not be saved, or undefined when it may. */
export function customCssProblem(css: string): string | undefined {
  if (Buffer.byteLength(css, "utf8") > CUSTOM_CSS_MAX_BYTES) return CSS_MSG.TOO_LARGE;
  for (const text of [css, decodeCss(css)]) {
    for (const [re, what] of RULES) if (re.test(text)) return CSS_MSG.found(what);
  }
  return undefined;
}
