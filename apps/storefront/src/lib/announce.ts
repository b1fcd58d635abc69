/**
 * One polite live region per page, for what changes without moving focus ("Added to cart", a new
 * price, sold out): screen readers read the text put in it. Hidden from sight, not from them.
 */
let region: HTMLElement | undefined;

function liveRegion(): HTMLElement {
  if (region?.isConnected) return region;
  region = document.createElement("div");
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  region.className = "atelier-announcer";
  region.style.cssText =
    "position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0";
  document.body.append(region);
  return region;
}

/** Says `text` to screen readers; the same words twice in a row are said twice. */
export function announce(text: string): void {
  const el = liveRegion();
  el.textContent = "";
  // A separate change after the clearing, so the region's update is always noticed.
  setTimeout(() => {
    el.textContent = text;
  }, 50);
}
