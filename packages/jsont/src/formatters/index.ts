import type { FormatterTable } from "../types.js";
import { commerceFormatters } from "./commerce.js";
import { contentFormatters } from "./content.js";
import { coreFormatters } from "./core.js";
import { i18nFormatters } from "./i18n.js";

/** Every built-in formatter, by the name templates use. */
export const builtinFormatters: FormatterTable = {
  ...coreFormatters,
  ...contentFormatters,
  ...commerceFormatters,
  ...i18nFormatters,
};
