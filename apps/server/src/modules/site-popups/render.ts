/**
 * The announcement bar and the newsletter pop-up on published pages. The bar is in the page's
 * HTML from the first byte (the first thing in `<body>`, coloured by the design tokens), so it
 * never shifts the page; a visitor who dismissed it has it hidden before the first paint by a
 * rule keyed to the bar's content (the page's loader script marks `<html>` with what this browser
 * dismissed, from localStorage: no cookie). The pop-up is a storefront island placed only on the
 * pages where it may show (never on the cart, checkout or confirmation pages); its script loads
 * only there.
 */
import { createHash } from "node:crypto";
import { PageType } from "../../db/enums.js";
import { escapeHtml } from "../../lib/escape.js";
import { type AnnouncementBar, type NewsletterPopup, barSchedule } from "./settings.js";

/** The id of the bar element and the `<html>` attribute the loader script sets. */
export const BAR_ID = "atelier-announcement";
export const DISMISSED_ATTR = "data-dismissed-bar";

/** Pages the pop-up may show on: content, items, search. Never the cart, checkout or confirmations. */
const POPUP_PAGE_TYPES = new Set<number>([
  PageType.MAIN_CONTENT,
  PageType.PAGE,
  PageType.SPLASH,
  PageType.CONTENT_ITEM,
  PageType.SEARCH,
]);
/** Pages without the bar: checkout (nothing may distract from paying) and the lock screen. */
const NO_BAR_PAGE_TYPES = new Set<number>([PageType.CHECKOUT, PageType.LOCK_SCREEN]);

/** A short key of the bar's content: a changed announcement shows again to those who dismissed the old one. */
export function barKey(bar: AnnouncementBar): string {
  return createHash("sha256")
    .update(JSON.stringify([bar.text, bar.linkUrl, bar.linkText, bar.startsAt, bar.endsAt]))
    .digest("hex")
    .slice(0, 12);
}

/** The rule (for the page's head) that hides the bar before the first paint where it was dismissed. */
export function barStyle(bar: AnnouncementBar): string {
  return `<style>html[${DISMISSED_ATTR}~="${barKey(bar)}"] #${BAR_ID}{display:none}</style>`;
}

export function barHtml(bar: AnnouncementBar): string {
  const key = barKey(bar);
  const link =
    bar.linkUrl && bar.linkText
      ? ` <a href="${escapeHtml(bar.linkUrl)}" style="color:inherit;text-decoration:underline;text-underline-offset:2px;font-weight:600;white-space:nowrap">${escapeHtml(bar.linkText)}</a>`
      : "";
  const text =
    bar.linkUrl && !bar.linkText
      ? `<a href="${escapeHtml(bar.linkUrl)}" style="color:inherit;text-decoration:underline;text-underline-offset:2px">${escapeHtml(bar.text)}</a>`
      : escapeHtml(bar.text);
  const close = bar.dismissible
    ? `<button type="button" data-dismiss aria-label="Dismiss announcement" style="position:absolute;right:4px;top:50%;transform:translateY(-50%);width:44px;height:44px;display:grid;place-items:center;border:0;background:transparent;color:inherit;font:inherit;font-size:22px;line-height:1;cursor:pointer">×</button>`
    : "";
  const island = bar.dismissible ? ` data-island="announcement-bar" data-props='{"key":"${key}"}'` : "";
  return (
    `<section id="${BAR_ID}" aria-label="Announcement"${island} style="position:relative;background:var(--color-accent,#222);color:var(--color-accent-contrast,#fff);font:inherit;font-size:.9375rem;line-height:1.4;text-align:center;padding:10px ${bar.dismissible ? "52px" : "16px"}">` +
    `<p style="margin:0">${text}${link}</p>${close}</section>`
  );
}

export function popupHtml(popup: NewsletterPopup): string {
  const props = {
    title: popup.title,
    text: popup.text,
    buttonText: popup.buttonText,
    trigger: popup.trigger,
    frequencyDays: popup.frequencyDays,
  };
  // JSON in a non-executable script element; "<" escaped so no text can close it.
  const json = JSON.stringify(props).replace(/</g, "\\u003c");
  return `<div data-island="newsletter-popup" hidden><script type="application/json">${json}</script></div>`;
}

function beforeHeadEnd(html: string, insert: string): string {
  const at = html.indexOf("</head>");
  return at === -1 ? insert + html : html.slice(0, at) + insert + html.slice(at);
}

/** Where the bar goes: right after the `<body …>` tag. */
function afterBodyTag(html: string, insert: string): string {
  const m = /<body\b[^>]*>/i.exec(html);
  if (!m) return html;
  const at = m.index + m[0].length;
  return html.slice(0, at) + insert + html.slice(at);
}

function beforeBodyEnd(html: string, insert: string): string {
  const at = html.lastIndexOf("</body>");
  return at === -1 ? html + insert : html.slice(0, at) + insert + html.slice(at);
}

/**
 * A rendered page with the bar (when live) and the pop-up island (when on and the page may show
 * it); `changesAt` is when the bar's schedule next changes what the page shows (a start or an
 * end to come), after which a cached copy of the page must not be served.
 */
export function withSitePopups(
  html: string,
  opts: {
    bar: AnnouncementBar;
    popup: NewsletterPopup;
    pageType: number;
    now: Date;
    timeZone: string;
  },
): { html: string; changesAt: number | undefined } {
  let out = html;
  let changesAt: number | undefined;
  if (!NO_BAR_PAGE_TYPES.has(opts.pageType)) {
    const schedule = barSchedule(opts.bar, opts.now, opts.timeZone);
    changesAt = schedule.changesAt;
    if (schedule.live) {
      out = afterBodyTag(out, barHtml(opts.bar));
      if (opts.bar.dismissible) out = beforeHeadEnd(out, barStyle(opts.bar));
    }
  }
  if (opts.popup.enabled && POPUP_PAGE_TYPES.has(opts.pageType))
    out = beforeBodyEnd(out, popupHtml(opts.popup));
  return { html: out, changesAt };
}
