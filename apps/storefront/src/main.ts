/**
 * Storefront entry (a few KB): starts every server-rendered `<div data-island="name">` with the
 * island of that name, loading only the code of the islands the page contains. Islands near the
 * viewport start at once; those further down when they are about to scroll into view; the
 * analytics and the cart pill when the browser is idle. Props come from a
 * `<script type="application/json">` child (or `data-props`).
 */
import { IDLE_ISLANDS, type IslandModule, islands } from "./islands/index.js";
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

/**
 * Lets the browser handle input and paint before the next island starts, so that starting the
 * islands of a page is several short tasks rather than one long one.
 */
const yieldToMain = (): Promise<void> => {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
};

async function start(el: HTMLElement, load: () => Promise<IslandModule>): Promise<void> {
  // Loading (which adds the chunk's stylesheet links) and starting are tasks of their own.
  await yieldToMain();
  const props = propsOf(el);
  const island = await load();
  await yieldToMain();
  if (island.mount) {
    island.mount(el, props);
    return;
  }
  if (!island.default) throw new Error(`island ${el.dataset.island} exports nothing to start`);
  const { renderIsland } = await import("./lib/react-root.js");
  renderIsland(el, island.default, island.prepare ? island.prepare(el, props) : props);
}

const whenIdle = (run: () => void) =>
  "requestIdleCallback" in window ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 200);

let observer: IntersectionObserver | undefined;
const waiting = new Map<Element, () => void>();

function whenNearViewport(el: HTMLElement, run: () => void): void {
  const rect = el.getBoundingClientRect();
  if (rect.top < window.innerHeight * 1.25 || !("IntersectionObserver" in window)) {
    run();
    return;
  }
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer!.unobserve(entry.target);
        waiting.get(entry.target)?.();
        waiting.delete(entry.target);
      }
    },
    { rootMargin: "400px 0px" },
  );
  waiting.set(el, run);
  observer.observe(el);
}

/** Starts the islands under `root`; `eager` starts them all now (content added by script). */
export async function mountIslands(root: ParentNode = document, { eager = false } = {}): Promise<void> {
  const elements = [...root.querySelectorAll<HTMLElement>("[data-island]:not([data-island-mounted])")];
  await Promise.all(
    elements.map(
      (el) =>
        new Promise<void>((resolve) => {
          const name = el.dataset.island!;
          const load = islands[name];
          if (!load) {
            console.error(`unknown island "${name}"`);
            return resolve();
          }
          el.dataset.islandMounted = "true";
          // A failure reaches the error reporter as an unhandled rejection.
          const run = () => void start(el, load).finally(resolve);
          if (eager) run();
          else if (IDLE_ISLANDS.has(name)) whenIdle(run);
          else whenNearViewport(el, run);
        }),
    ),
  );
}

installErrorReporter();

function begin() {
  installPriorityNav();
  void mountIslands();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
else begin();
