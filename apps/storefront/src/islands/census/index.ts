/**
 * Island `census`: the page-view hit of an anonymous visitor (SPEC §4, §7 POST /api/census/RecordHit)
 * with its visitor cookies, and the cookie banner when the site shows one. Errors are ignored:
 * analytics never gets in a visitor's way. A plain script (no React): it is on every page.
 */
import { CENSUS_EVENT, type CensusEventDetail } from "../../lib/census-events.js";
import { readCookie } from "../../lib/cookies.js";
import "../../lib/ui.css";
import "./census.css";
import {
  CENSUS_COOKIES,
  COOKIE_ALLOWED_COOKIE,
  type CookiePolicy,
  HIT_TIMEOUT_MS,
  censusCookies,
  isRestrictive,
  isTrackingActive,
  nextVisitorRecord,
  parseVisitTimestamp,
  parseVisitorRecord,
  shouldLoadPixel,
  shouldShowBanner,
} from "./rules.js";

export interface CensusProps extends CookiePolicy {
  websiteId: string;
  pageType: number;
  pageViewHit: boolean;
  itemId: string | null;
  collectionId: string | null;
  recordType: number | null;
  contentSource: "i" | "c";
  /** The owner's Meta pixel id, or null. */
  adPixelId: string | null;
}

/** Days the visitor's answer to the cookie banner is kept (the analytics id cookie's 390 days). */
const CHOICE_SECONDS = 390 * 86_400;

function writeCookie(name: string, value: string, maxAge: number): void {
  const secure = location.protocol === "https:" ? "; secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and Safari
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAge}; samesite=lax${secure}`;
}

function localStorageSupported(): boolean {
  try {
    localStorage.setItem("ss_census_probe", "1");
    localStorage.removeItem("ss_census_probe");
    return true;
  } catch {
    return false;
  }
}

/** SPEC §4: the checkout page's page type; its page view also reports "checkout started". */
const CHECKOUT_PAGE_TYPE = 201;

function post(event: string, data: Record<string, unknown>, visitorCookie: string | undefined): void {
  const body = new URLSearchParams({ event, data: JSON.stringify(data) });
  if (visitorCookie) body.set("ss_cvr", visitorCookie);
  fetch("/api/census/RecordHit", {
    method: "POST",
    body,
    keepalive: true,
    credentials: "same-origin",
    signal: AbortSignal.timeout(HIT_TIMEOUT_MS),
  }).catch(() => {});
}

/**
 * A funnel event (added to cart, checkout started): only where cookies are allowed (nothing under
 * the restrictive policy until the visitor consents), with the visit's cookie.
 */
function sendFunnelEvent(props: CensusProps, detail: CensusEventDetail): void {
  if (!isTrackingActive(props) || isRestrictive(props, document.cookie)) return;
  const visitorCookie = readCookie("ss_cvr");
  if (!visitorCookie) return;
  post(
    detail.event,
    {
      websiteId: props.websiteId,
      pageType: props.pageType,
      url: location.href,
      pagePath: location.pathname,
      itemId: detail.itemId ?? props.itemId,
      sku: detail.sku,
      quantity: detail.quantity,
      clientDate: Date.now(),
    },
    visitorCookie,
  );
}

function sendHit(props: CensusProps, restrictive: boolean): void {
  const now = Date.now();
  let visitorCookie: string | undefined;
  if (restrictive) {
    for (const name of CENSUS_COOKIES) writeCookie(name, "", 0);
  } else {
    const record = nextVisitorRecord(
      parseVisitorRecord(readCookie("ss_cvr")),
      parseVisitTimestamp(readCookie("ss_cvt")),
      now,
      () => crypto.randomUUID(),
    );
    for (const [name, value, maxAge] of censusCookies(record, now)) writeCookie(name, value, maxAge);
    visitorCookie = readCookie("ss_cvr");
  }
  const data = {
    websiteId: props.websiteId,
    pageType: props.pageType,
    templateId: document.body.className.match(/theme-([\w-]+)/)?.[1] ?? "",
    website_locale: document.documentElement.lang,
    userAgent: navigator.userAgent,
    clientDate: now,
    viewportInnerWidth: window.innerWidth,
    viewportInnerHeight: window.innerHeight,
    screenWidth: window.screen.width,
    screenHeight: window.screen.height,
    url: location.href,
    title: document.title,
    pageTitle: document.title,
    itemId: props.itemId,
    recordType: props.recordType,
    collectionId: props.collectionId,
    pageId: props.itemId ?? props.collectionId,
    contentSource: props.contentSource,
    pagePath: location.pathname,
    queryString: location.search,
    referrer: document.referrer,
    localStorageSupported: localStorageSupported(),
    visitorCookie,
  };
  post("view", data, visitorCookie);
  if (props.pageType === CHECKOUT_PAGE_TYPE) sendFunnelEvent(props, { event: "checkout-start" });
}

type Fbq = ((...args: unknown[]) => void) & {
  queue: unknown[][];
  loaded: boolean;
  version: string;
  push: Fbq;
  callMethod?: (...args: unknown[]) => void;
};

/** Meta's pixel: a command queue that its script takes over once loaded, then init and a page view. */
function loadMetaPixel(id: string): void {
  const w = window as unknown as { fbq?: Fbq; _fbq?: Fbq };
  if (w.fbq) return;
  const fbq = ((...args: unknown[]) => {
    if (fbq.callMethod) fbq.callMethod(...args);
    else fbq.queue.push(args);
  }) as Fbq;
  fbq.queue = [];
  fbq.loaded = true;
  fbq.version = "2.0";
  fbq.push = fbq;
  w.fbq = fbq;
  w._fbq = fbq;
  const script = document.createElement("script");
  script.async = true;
  script.src = "https://connect.facebook.net/en_US/fbevents.js";
  document.head.append(script);
  fbq("init", id);
  fbq("track", "PageView");
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** The cookie banner: the visitor's answer is kept, and the pixel loaded once it is allowed. */
function showBanner(host: HTMLElement, props: CensusProps): void {
  const answer = (allowed: boolean) => {
    writeCookie(COOKIE_ALLOWED_COOKIE, allowed ? "1" : "0", CHOICE_SECONDS);
    const restrictive = isRestrictive(props, document.cookie);
    if (props.adPixelId && shouldLoadPixel(props, restrictive)) loadMetaPixel(props.adPixelId);
    if (!allowed && isRestrictive(props, document.cookie)) {
      for (const name of CENSUS_COOKIES) writeCookie(name, "", 0);
    }
    banner.remove();
  };
  const decline = el(
    "button",
    { type: "button", class: "atelier-button atelier-button--secondary" },
    "Decline",
  );
  const accept = el("button", { type: "button", class: "atelier-button" }, "Accept");
  decline.addEventListener("click", () => answer(false));
  accept.addEventListener("click", () => answer(true));
  const banner = el(
    "section",
    { class: "atelier-cookie-banner", "aria-label": "Cookie consent" },
    el(
      "p",
      {},
      "This website uses cookies to count visits and remember your cart. You can accept them, or decline the ones that are not needed for the site to work.",
    ),
    el("div", { class: "atelier-cookie-banner__actions" }, decline, accept),
  );
  host.append(banner);
}

/** One hit per page view, the pixel where allowed, and the banner until the visitor answers. */
export function mount(host: HTMLElement, props: CensusProps): void {
  const restrictive = isRestrictive(props, document.cookie);
  if (isTrackingActive(props)) sendHit(props, restrictive);
  window.addEventListener(CENSUS_EVENT, (e) =>
    sendFunnelEvent(props, (e as CustomEvent<CensusEventDetail>).detail),
  );
  if (props.adPixelId && shouldLoadPixel(props, restrictive)) loadMetaPixel(props.adPixelId);
  if (shouldShowBanner(props, document.cookie)) showBanner(host, props);
}
