/**
 * The purchase funnel's census events (docs/analytics.md): an island that sees one (the product
 * form adding to the cart) announces it on window; the census island sends it under the same
 * cookie rules as page views, or drops it.
 */
export const CENSUS_EVENT = "atelier:census";

export interface CensusEventDetail {
  event: "add-to-cart" | "checkout-start";
  itemId?: string;
  sku?: string;
  quantity?: number;
}

export function announceCensusEvent(detail: CensusEventDetail): void {
  if (typeof window !== "undefined") window.dispatchEvent(new CustomEvent(CENSUS_EVENT, { detail }));
}
