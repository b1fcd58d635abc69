/**
 * Renders a React island into its element. Loaded only by pages that have a React island, so a
 * page whose islands are all plain scripts never downloads React.
 */
import { type ComponentType, createElement } from "react";
import { createRoot } from "react-dom/client";

export function renderIsland(
  el: HTMLElement,
  Island: ComponentType<Record<string, unknown>>,
  props: object,
): void {
  createRoot(el).render(createElement(Island, props as Record<string, unknown>));
}
