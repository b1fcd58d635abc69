/** What the storefront's modal dialogs (the Modal, the lightbox) share: scroll lock and focus trap. */

/** The elements a dialog's Tab key moves between. */
export const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

let locks = 0;
let savedOverflow = "";

/** Stops the page scrolling under an open dialog; the returned function lets it scroll again. */
export function lockScroll(): () => void {
  const root = document.documentElement;
  if (locks++ === 0) {
    savedOverflow = root.style.overflow;
    root.style.overflow = "hidden";
  }
  return () => {
    if (--locks === 0) root.style.overflow = savedOverflow;
  };
}

/** Keeps a Tab key press inside `box`: past the last of `items` it goes to the first, and back. */
export function trapTab(e: KeyboardEvent, box: HTMLElement, items: HTMLElement[]): void {
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !box.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !box.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}
