/** Text helpers shared by the content formatters. */
import { isJsSpace } from "../util/text.js";

/**
 * Removes HTML tags, leaving one space where each tag ended, so words in adjacent elements
 * stay apart ("<b>a</b><i>b</i>" gives " a  b "). Text after an unclosed `<` is dropped.
 */
export function removeTags(text: string): string {
  let out = "";
  let inTag = false;
  for (const ch of text) {
    if (ch === "<") {
      inTag = true;
    } else if (ch === ">") {
      inTag = false;
      out += " ";
    } else if (!inTag) {
      out += ch;
    }
  }
  return out;
}

/** A slug for a CSS class: drops everything but letters, digits, whitespace and "-", joins words with "-", lowercases. */
export { slugify } from "../util/text.js";

/**
 * Makes a value safe inside a double-quoted attribute without changing how ordinary values
 * print: only `"` is replaced (by `&quot;`). Used where the reference writes the value raw,
 * so that data cannot close the attribute.
 */
export function quoteSafe(text: string): string {
  return text.indexOf('"') === -1 ? text : text.replace(/"/g, "&quot;");
}

/**
 * True when `removeTags(text)` keeps a character that is neither whitespace nor a zero-width
 * space (the same answer as stripping the tags and then the blanks, without building either
 * string): stops at the first visible character.
 */
export function hasVisibleText(text: string): boolean {
  let inTag = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 60 /* < */) inTag = true;
    else if (c === 62 /* > */) inTag = false;
    else if (!inTag && c !== 0x200b && !isJsSpace(c)) return true;
  }
  return false;
}
