/** Rich text from the editor is stored only as the allow-listed subset of `lib/sanitize-html.ts`. */
export { sanitizeRichText } from "../../lib/sanitize-html.js";
