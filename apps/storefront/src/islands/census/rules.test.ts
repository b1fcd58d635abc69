import { describe, expect, it } from "vitest";
import {
  censusCookies,
  isRestrictive,
  isTrackingActive,
  shouldLoadPixel,
  nextVisitorRecord,
  parseVisitTimestamp,
  parseVisitorRecord,
  shouldShowBanner,
} from "./rules.js";

const policy = (p: Partial<Parameters<typeof isRestrictive>[0]> = {}) => ({
  cookieBannerEnabled: false,
  restrictiveCookiePolicy: false,
  restrictiveCookiePolicyAbsolute: false,
  ...p,
});

describe("cookie policy (SPEC §4)", () => {
  it("is restrictive for a cloneable site, whatever the settings", () => {
    expect(isRestrictive(policy({ cloneable: true }), "")).toBe(true);
  });
  it("is not restrictive without the restrictive policy", () => {
    expect(isRestrictive(policy({ cookieBannerEnabled: true }), "")).toBe(false);
  });
  it("with the restrictive policy: absolute, or no banner, or no allowed cookie", () => {
    const on = { restrictiveCookiePolicy: true, cookieBannerEnabled: true };
    expect(
      isRestrictive(policy({ ...on, restrictiveCookiePolicyAbsolute: true }), "ss_cookieAllowed=1"),
    ).toBe(true);
    expect(isRestrictive(policy({ restrictiveCookiePolicy: true }), "ss_cookieAllowed=1")).toBe(true);
    expect(isRestrictive(policy(on), "")).toBe(true);
    expect(isRestrictive(policy(on), "ss_cookieAllowed=0")).toBe(true);
    expect(isRestrictive(policy(on), "a=b; ss_cookieAllowed=1")).toBe(false);
  });
  it("shows the banner until the visitor answers", () => {
    expect(shouldShowBanner(policy({ cookieBannerEnabled: true }), "")).toBe(true);
    expect(shouldShowBanner(policy({ cookieBannerEnabled: true }), "ss_cookieAllowed=0")).toBe(false);
    expect(shouldShowBanner(policy(), "")).toBe(false);
  });
});

describe("census tracking (SPEC §4)", () => {
  it("skips not-found, lock-screen and member-area-denied pages, and pages without a hit", () => {
    for (const pageType of [100, 103, 106])
      expect(isTrackingActive({ pageType, pageViewHit: true })).toBe(false);
    expect(isTrackingActive({ pageType: 102, pageViewHit: false })).toBe(false);
    expect(isTrackingActive({ pageType: 2, pageViewHit: true })).toBe(true);
    expect(isTrackingActive({ pageType: 2, pageViewHit: true }, true)).toBe(false);
  });
});

describe("visitor cookies (SPEC §5, §9)", () => {
  it("takes a visitor record of five parts only", () => {
    expect(parseVisitorRecord("v1|10|20|30|3")).toEqual({
      visitorId: "v1",
      firstVisit: 10,
      previousVisit: 20,
      currentVisit: 30,
      visits: 3,
    });
    for (const bad of [undefined, "", "v1|10|20|30", "v1|10|20|30|3|4", "|10|20|30|3", "v1|x|20|30|3"]) {
      expect(parseVisitorRecord(bad)).toBeUndefined();
    }
  });
  it("takes a visit timestamp that is a positive integer only", () => {
    expect(parseVisitTimestamp("1700000000000")).toBe(1700000000000);
    for (const bad of [undefined, "", "0", "-5", "1.5", "abc"])
      expect(parseVisitTimestamp(bad)).toBeUndefined();
  });
  it("starts a visitor, keeps a live visit, and counts a new visit after 30 minutes", () => {
    const first = nextVisitorRecord(undefined, undefined, 1000, () => "new");
    expect(first).toEqual({
      visitorId: "new",
      firstVisit: 1000,
      previousVisit: 1000,
      currentVisit: 1000,
      visits: 1,
    });
    expect(nextVisitorRecord(first, 1500, 2000, () => "x")).toBe(first);
    expect(nextVisitorRecord(first, undefined, 9000, () => "x")).toEqual({
      visitorId: "new",
      firstVisit: 1000,
      previousVisit: 1000,
      currentVisit: 9000,
      visits: 2,
    });
  });
  it("writes the five census cookies: long-lived 2 years, short-lived 30 minutes", () => {
    const cookies = censusCookies(
      { visitorId: "v", firstVisit: 1, previousVisit: 2, currentVisit: 3, visits: 4 },
      5,
    );
    expect(cookies).toEqual([
      ["ss_cid", "v", 63_072_000],
      ["ss_cvr", "v|1|2|3|4", 63_072_000],
      ["ss_cpvisit", "2", 63_072_000],
      ["ss_cvisit", "3", 1800],
      ["ss_cvt", "5", 1800],
    ]);
  });
});

describe("the owner's ad pixel (SPEC §1)", () => {
  it("loads only with an id, on counted pages, and where cookies are allowed", () => {
    const page = { pageType: 2, pageViewHit: true, adPixelId: "1234567890" };
    expect(shouldLoadPixel(page, false)).toBe(true);
    expect(shouldLoadPixel(page, true)).toBe(false);
    expect(shouldLoadPixel({ ...page, adPixelId: null }, false)).toBe(false);
    expect(shouldLoadPixel({ ...page, pageType: 100 }, false)).toBe(false);
  });
});
