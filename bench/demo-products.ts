/** Eight in-stock demo products the load benchmarks spread their carts over. */
export const DEMO_PRODUCTS = [
  "beeswax-candle",
  "field-notes-journal",
  "everyday-tote",
  "linen-work-apron",
  "stoneware-mug",
  "wool-beanie",
  "cotton-napkins",
  "pour-over-set",
];
