/**
 * Commerce predicates on the current product: `has-variants?`, `on-sale?`, `sold-out?`,
 * `varied-prices?`, and `units-metric?` for measurement display.
 */
import { hasVariants, hasVariedPrices, isOnSale, isSoldOut } from "@atelier/commerce";
import { unitsMetric } from "../commerce/units.js";
import type { PredicateTable } from "../types.js";

export const commercePredicates: PredicateTable = {
  "has-variants?": (_args, ctx) => hasVariants(ctx.node()),
  "on-sale?": (_args, ctx) => isOnSale(ctx.node()),
  "sold-out?": (_args, ctx) => isSoldOut(ctx.node()),
  "varied-prices?": (_args, ctx) => hasVariedPrices(ctx.node()),
  "units-metric?": unitsMetric,
};
