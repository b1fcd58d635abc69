import type { PredicateTable } from "../types.js";
import { commercePredicates } from "./commerce.js";
import { contentPredicates } from "./content.js";
import { corePredicates } from "./core.js";
import { i18nPredicates } from "./i18n.js";

/** Every built-in predicate, keyed by its name with the trailing `?` (e.g. "sold-out?"). */
export const builtinPredicates: PredicateTable = {
  ...corePredicates,
  ...contentPredicates,
  ...commercePredicates,
  ...i18nPredicates,
};
