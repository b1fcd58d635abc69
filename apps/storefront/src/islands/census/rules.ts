/**
 * Visitor census rules (SPEC §4, §5, §9): when a page-view hit is sent, which visitor cookies it may
 * set, and how those cookies look. Pure functions of their inputs, so they are unit-tested.
 */
import { readCookie } from "../../lib/cookies.js";

/** The five visitor census cookies, cleared in restrictive cookie mode. */
export const CENSUS_COOKIES = ["ss_cid", "ss_cpvisit", "ss_cvisit", "ss_cvr", "ss_cvt"] as const;
/** Set by the cookie banner: "1" when the visitor accepted cookies, "0" when they declined. */
export const COOKIE_ALLOWED_COOKIE = "ss_cookieAllowed";

const LONG_LIVED_SECONDS = 2 * 365 * 86_400;
const SHORT_LIVED_SECONDS = 30 * 60;
/** SPEC §9: analytics request timeout. */
export const HIT_TIMEOUT_MS = 2_500;

const UNTRACKED_PAGE_TYPES = new Set([100, 103, 106]);

export interface CookiePolicy {
  cloneable?: boolean;
  cookieBannerEnabled: boolean;
  restrictiveCookiePolicy: boolean;
  restrictiveCookiePolicyAbsolute: boolean;
}

/**
 * Restrictive mode: the site is cloneable, or the restrictive policy is on and it is absolute, or
 * there is no banner to ask with, or the visitor has not allowed cookies.
 */
export function isRestrictive(policy: CookiePolicy, cookieString: string): boolean {
  if (policy.cloneable) return true;
  if (!policy.restrictiveCookiePolicy) return false;
  const allowed = readCookie(COOKIE_ALLOWED_COOKIE, cookieString) === "1";
  return policy.restrictiveCookiePolicyAbsolute || !policy.cookieBannerEnabled || !allowed;
}

/** The banner asks once: until the visitor answers, when the site shows one. */
export function shouldShowBanner(policy: CookiePolicy, cookieString: string): boolean {
  return policy.cookieBannerEnabled && readCookie(COOKIE_ALLOWED_COOKIE, cookieString) === undefined;
}

/** Census tracking is active unless the page asks for no hit, or is a page type it never counts. */
export function isTrackingActive(
  page: { pageType: number; pageViewHit: boolean },
  disabled = false,
): boolean {
  return !disabled && page.pageViewHit && !UNTRACKED_PAGE_TYPES.has(page.pageType);
}

/** SPEC §5: the visitor record has five pipe-separated parts. */
interface VisitorRecord {
  visitorId: string;
  firstVisit: number;
  previousVisit: number;
  currentVisit: number;
  visits: number;
}

export function parseVisitorRecord(value: string | undefined): VisitorRecord | undefined {
  const parts = value?.split("|") ?? [];
  const [visitorId, ...rest] = parts;
  const numbers = rest.map(Number);
  if (parts.length !== 5 || !visitorId || !numbers.every((n) => Number.isInteger(n) && n > 0)) {
    return undefined;
  }
  const [firstVisit, previousVisit, currentVisit, visits] = numbers as [number, number, number, number];
  return { visitorId, firstVisit, previousVisit, currentVisit, visits };
}

function formatVisitorRecord(r: VisitorRecord): string {
  return [r.visitorId, r.firstVisit, r.previousVisit, r.currentVisit, r.visits].join("|");
}

/** SPEC §5: the visit-timestamp cookie is a positive integer. */
export function parseVisitTimestamp(value: string | undefined): number | undefined {
  if (!value || !/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}

/**
 * The visitor record after this page view: a new visitor, the same visit (the visit-timestamp cookie
 * is still alive, within 30 minutes), or a new visit of a known visitor.
 */
export function nextVisitorRecord(
  record: VisitorRecord | undefined,
  lastActivity: number | undefined,
  now: number,
  newVisitorId: () => string,
): VisitorRecord {
  if (!record) {
    return { visitorId: newVisitorId(), firstVisit: now, previousVisit: now, currentVisit: now, visits: 1 };
  }
  if (lastActivity !== undefined) return record;
  return { ...record, previousVisit: record.currentVisit, currentVisit: now, visits: record.visits + 1 };
}

/** The cookies to write after a page view (name, value, max-age in seconds). */
export function censusCookies(r: VisitorRecord, now: number): [string, string, number][] {
  return [
    ["ss_cid", r.visitorId, LONG_LIVED_SECONDS],
    ["ss_cvr", formatVisitorRecord(r), LONG_LIVED_SECONDS],
    ["ss_cpvisit", String(r.previousVisit), LONG_LIVED_SECONDS],
    ["ss_cvisit", String(r.currentVisit), SHORT_LIVED_SECONDS],
    ["ss_cvt", String(now), SHORT_LIVED_SECONDS],
  ];
}

/** The owner's ad pixel loads where the census counts the page and cookies are allowed. */
export function shouldLoadPixel(
  page: { pageType: number; pageViewHit: boolean; adPixelId: string | null },
  restrictive: boolean,
): boolean {
  return Boolean(page.adPixelId) && !restrictive && isTrackingActive(page);
}
