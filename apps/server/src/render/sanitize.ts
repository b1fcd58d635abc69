/** Rendering uses the one sanitiser of `lib/sanitize-html.ts`. */
export {
  htmlToText,
  richTextForPage,
  safeUrl,
  sanitizeHtml,
  textAsHtml,
} from "../lib/sanitize-html.js";
