import type { ComponentType } from "react";

/**
 * An island is a React component (`default`, rendered by lib/react-root.ts) or a plain script
 * (`mount`, which never loads React). `prepare`, when there, reads the server-rendered content
 * just before the component replaces it and returns the props to render with.
 */
export type IslandModule = {
  default?: ComponentType<any>;
  mount?: (el: HTMLElement, props: any) => void;
  prepare?: (el: HTMLElement, props: any) => object;
};

/** Islands started when the browser is idle rather than when they scroll into view. */
export const IDLE_ISLANDS = new Set(["census", "cart-pill"]);

/**
 * Every island by the name pages use in `data-island`, each loaded on demand as its own chunk,
 * only by pages that contain it. Add one line per island.
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
  "announcement-bar": () => import("./announcement-bar/index.js"),
  "newsletter-popup": () => import("./newsletter-popup/index.js"),
  checkout: () => import("./checkout/index.js"),
  "order-confirmed": () => import("./order-confirmation/index.js"),
  "order-received": () => import("./order-confirmation/index.js"),
  "subscription-confirmed": () => import("./order-confirmation/index.js"),
};
