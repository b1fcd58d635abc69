import type { ComponentType } from "react";

// biome-ignore lint/suspicious/noExplicitAny: each island declares its own props
type IslandModule = { default: ComponentType<any> };

/**
 * Every island by the name pages use in `data-island`, each loaded on demand as its own chunk.
 * Add one line per island.
 */
export const islands: Record<string, () => Promise<IslandModule>> = {
  "product-form": () => import("./product-form/index.js"),
  "cart-pill": () => import("./cart-pill/index.js"),
  "cart-page": () => import("./cart-page/index.js"),
  "restock-form": () => import("./restock-form/index.js"),
  instalments: () => import("./instalments/index.js"),
  form: () => import("./form/index.js"),
  account: () => import("./account/index.js"),
  lightbox: () => import("./lightbox/index.js"),
  "audio-player": () => import("./audio-player/index.js"),
  "like-button": () => import("./like-button/index.js"),
  census: () => import("./census/index.js"),
  checkout: () => import("./checkout/index.js"),
  "order-confirmed": () => import("./order-confirmation/index.js"),
  "order-received": () => import("./order-confirmation/index.js"),
  "subscription-confirmed": () => import("./order-confirmation/index.js"),
};
