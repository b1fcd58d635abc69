/**
 * Keeps the desktop header navigation on one line, whatever the number of pages: the links that
 * do not fit move, in order, into the "More" menu at the end of the list, and come back when the
 * window grows. On phones the theme shows the menu button instead and every link stays in place.
 */

const MORE = ".nav-more";

/** The width the list's items need on one line, the gaps between them included. */
function neededWidth(list: HTMLElement, items: HTMLElement[]): number {
  const visible = items.filter((li) => !li.hidden);
  if (!visible.length) return 0;
  const gap = Number.parseFloat(getComputedStyle(list).columnGap) || 0;
  return visible.reduce((sum, li) => sum + li.getBoundingClientRect().width, 0) + gap * (visible.length - 1);
}

/** Whether the theme shows the list inline (desktop) rather than in the menu panel (phone). */
function inline(nav: HTMLElement): boolean {
  const toggle = nav.ownerDocument.querySelector<HTMLElement>(".nav-toggle");
  return !toggle || getComputedStyle(toggle).display === "none";
}

function fitNavigation(nav: HTMLElement): void {
  const list = nav.querySelector<HTMLElement>(".nav-list");
  const more = list?.querySelector<HTMLElement>(`:scope > ${MORE}`);
  const moreList = more?.querySelector<HTMLElement>(".nav-sub");
  if (!list || !more || !moreList) return;
  // Everything back in its place first, then measure.
  for (const li of [...moreList.children] as HTMLElement[]) list.insertBefore(li, more);
  more.hidden = true;
  nav.classList.add("is-measured");
  if (!inline(nav)) return;
  const available = nav.getBoundingClientRect().width;
  const links = [...list.children].filter((li) => li !== more) as HTMLElement[];
  if (neededWidth(list, links) <= available) return;
  more.hidden = false;
  // Move links from the end into "More" until the rest and "More" fit (at least one link stays).
  while (links.length > 1 && neededWidth(list, [...links, more]) > available) {
    const last = links.pop()!;
    moreList.prepend(last);
  }
  more.classList.toggle("is-current", Boolean(moreList.querySelector('[aria-current="page"], .is-active')));
}

/** Fits every header navigation of the page now, and again whenever its room changes. */
export function installPriorityNav(doc: Document = document): void {
  for (const nav of doc.querySelectorAll<HTMLElement>(".site-nav")) {
    fitNavigation(nav);
    let frame = 0;
    const refit = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => fitNavigation(nav));
    };
    new ResizeObserver(refit).observe(nav.closest(".header-inner") ?? nav);
    // Web fonts change the links' widths once they arrive.
    void doc.fonts?.ready.then(refit);
  }
}
