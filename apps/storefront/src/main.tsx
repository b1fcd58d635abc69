/**
 * Storefront entry: hydrates every server-rendered `<div data-island="name">` with the island of
 * that name. Props come from a `<script type="application/json">` child (or `data-props`).
 */
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { islands } from "./islands/index.js";
import { installErrorReporter } from "./lib/error-reporter.js";
import { installPriorityNav } from "./lib/priority-nav.js";

function propsOf(el: HTMLElement): Record<string, unknown> {
  const script = el.querySelector(':scope > script[type="application/json"]');
  const text = script?.textContent ?? el.dataset.props;
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    console.error(`island ${el.dataset.island}: props are not valid JSON`);
    return {};
  }
}

export async function mountIslands(root: ParentNode = document): Promise<void> {
  const elements = [...root.querySelectorAll<HTMLElement>("[data-island]:not([data-island-mounted])")];
  await Promise.all(
    elements.map(async (el) => {
      const name = el.dataset.island!;
      const load = islands[name];
      if (!load) {
        console.error(`unknown island "${name}"`);
        return;
      }
      el.dataset.islandMounted = "true";
      const props = propsOf(el);
      const { default: Island } = await load();
      createRoot(el).render(createElement(Island, props));
    }),
  );
}

installErrorReporter();

function start() {
  installPriorityNav();
  void mountIslands();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
