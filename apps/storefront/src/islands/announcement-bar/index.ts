/**
 * Island `announcement-bar`: the bar's dismiss button. The bar itself is in the page's HTML from
 * the first byte; a dismissed bar's key is kept in localStorage (never a cookie, whatever the
 * cookie banner's answer), and the page's loader script marks `<html>` with the kept keys before
 * the first paint, so a dismissed bar never shows and never shifts the page. Props: { key }.
 */
export const DISMISSED_KEY = "atelier:dismissed-bars";
const ATTR = "data-dismissed-bar";

function dismissed(): string[] {
  try {
    return (localStorage.getItem(DISMISSED_KEY) ?? "").split(" ").filter(Boolean);
  } catch {
    return [];
  }
}

export function mount(bar: HTMLElement, { key }: { key?: string }): void {
  if (!key) return;
  const hide = () => {
    bar.hidden = true;
    bar.style.display = "none";
  };
  if (dismissed().includes(key)) hide();
  bar.querySelector<HTMLButtonElement>("button[data-dismiss]")?.addEventListener("click", () => {
    // The five most recent bars are enough: an older one never comes back.
    const keys = [key, ...dismissed().filter((k) => k !== key)].slice(0, 5).join(" ");
    try {
      localStorage.setItem(DISMISSED_KEY, keys);
    } catch {
      // Storage refused (private mode): dismissed for this page view only.
    }
    document.documentElement.setAttribute(ATTR, keys);
    // Focus would otherwise be lost with the button: the page's first link takes it.
    const next = document.querySelector<HTMLElement>("header a[href], main a[href], a[href]");
    hide();
    next?.focus({ preventScroll: true });
  });
}
