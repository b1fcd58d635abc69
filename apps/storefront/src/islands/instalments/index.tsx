/**
 * Island `instalments`: the pay-in-instalments line for a price, e.g. on a product block.
 * Props: { priceCents, currency?, locale?, itemId? } — with itemId it follows that product's
 * chosen variant.
 */
import { useEffect, useState } from "react";
import { type VariantData, priceMinorOf } from "../../lib/product.js";
import { Instalments } from "./Instalments.js";

export interface InstalmentsIslandProps {
  priceCents?: number;
  currency?: string;
  locale?: string;
  itemId?: string;
}

export default function InstalmentsIsland({
  priceCents = 0,
  currency = "USD",
  locale,
  itemId,
}: InstalmentsIslandProps) {
  const [price, setPrice] = useState(priceCents);
  useEffect(() => {
    if (!itemId) return;
    const onChange = (e: Event) => {
      const detail = (e as CustomEvent<{ itemId: string; variant?: VariantData }>).detail;
      if (detail?.itemId !== itemId) return;
      setPrice(detail.variant ? priceMinorOf(detail.variant, currency) : priceCents);
    };
    document.addEventListener("atelier:variant-change", onChange);
    return () => document.removeEventListener("atelier:variant-change", onChange);
  }, [itemId, currency, priceCents]);
  return price > 0 ? <Instalments priceCents={price} currency={currency} locale={locale} /> : null;
}
