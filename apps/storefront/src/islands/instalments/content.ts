/**
 * The pay-in-instalments information, shipped with the product per supported country and
 * language (SPEC §9: US en, CA en/fr, AU en, NZ en; anything else gets the US text) instead of
 * a page fetched from a third party.
 */

interface InstalmentContent {
  title: string;
  intro: string;
  steps: string[];
  terms: string;
  /** The pill's text. */
  pill: string;
  /** "or 4 interest-free payments of {amount}" */
  line: string;
  /** Orders at or below the minimum. */
  belowMinimum: string;
  /** Orders above the maximum. */
  aboveMaximum: string;
  infoLabel: string;
  closeLabel: string;
}

const en = (country: string, terms: string): InstalmentContent => ({
  title: "Pay in 4 interest-free payments",
  intro: `Split your purchase into 4 equal payments, paid every two weeks, with no interest. Available to shoppers in ${country}.`,
  steps: [
    "Add the items you love to your cart.",
    "Choose to pay in 4 at checkout.",
    "Sign in or create an account and get a decision instantly.",
    "Pay the first instalment today and the rest every two weeks.",
  ],
  terms,
  pill: "Pay in 4",
  line: "or {count} interest-free payments of {amount}",
  belowMinimum: "Pay in {count} interest-free payments on orders over {min}",
  aboveMaximum: "Pay in {count} interest-free payments on orders up to {max}",
  infoLabel: "About paying in instalments",
  closeLabel: "Close",
});

export const INSTALMENT_CONTENT: Readonly<Record<string, InstalmentContent>> = {
  "US-en": en(
    "the United States",
    "You must be 18 or older, a resident of the U.S. and meet additional eligibility criteria to qualify. Late fees may apply. Payments are due every two weeks; the first is due at purchase.",
  ),
  "CA-en": en(
    "Canada",
    "You must be the age of majority in your province or territory, a resident of Canada and meet additional eligibility criteria to qualify. Late fees may apply. Amounts are in Canadian dollars.",
  ),
  "CA-fr": {
    title: "Payez en 4 versements sans intérêts",
    intro:
      "Divisez votre achat en 4 versements égaux, payés toutes les deux semaines, sans intérêts. Offert aux acheteurs au Canada.",
    steps: [
      "Ajoutez vos articles préférés à votre panier.",
      "Choisissez de payer en 4 versements au moment du paiement.",
      "Connectez-vous ou créez un compte et obtenez une réponse immédiate.",
      "Payez le premier versement aujourd'hui et les suivants toutes les deux semaines.",
    ],
    terms:
      "Vous devez avoir l'âge de la majorité dans votre province ou territoire, résider au Canada et satisfaire à d'autres critères d'admissibilité. Des frais de retard peuvent s'appliquer. Les montants sont en dollars canadiens.",
    pill: "Payez en 4",
    line: "ou {count} versements sans intérêts de {amount}",
    belowMinimum: "Payez en {count} versements sans intérêts pour les commandes de plus de {min}",
    aboveMaximum: "Payez en {count} versements sans intérêts pour les commandes jusqu'à {max}",
    infoLabel: "À propos du paiement en versements",
    closeLabel: "Fermer",
  },
  "AU-en": en(
    "Australia",
    "You must be over 18, a resident of Australia and meet additional eligibility criteria to qualify. Late fees apply. Amounts are in Australian dollars.",
  ),
  "NZ-en": en(
    "New Zealand",
    "You must be over 18, a resident of New Zealand and meet additional eligibility criteria to qualify. Late fees apply. Amounts are in New Zealand dollars.",
  ),
};

/** The content for a country and language from instalmentLocale(); the US text otherwise. */
export function instalmentContent(country: string, language: string): InstalmentContent {
  return INSTALMENT_CONTENT[`${country}-${language}`] ?? INSTALMENT_CONTENT["US-en"]!;
}

/** The instalment line for a price: the 4 payments in range, else the order minimum or maximum. */
export function instalmentLine(
  range: "in-range" | "below-minimum" | "above-maximum",
  text: InstalmentContent,
  values: { count: number; amount: string; min: string; max: string },
): string {
  const pattern =
    range === "in-range" ? text.line : range === "below-minimum" ? text.belowMinimum : text.aboveMaximum;
  return pattern.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name as keyof typeof values]) : whole,
  );
}
