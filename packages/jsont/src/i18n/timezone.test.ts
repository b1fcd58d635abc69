import { TZ } from "@phensley/timezone";
import { describe, expect, it } from "vitest";
import type { RenderContext } from "../types.js";
import {
  DEFAULT_TIME_ZONE,
  resolveZoneId,
  timeZoneOffset,
  usableZoneId,
  websiteTimeZone,
  zoneAt,
} from "./timezone.js";

const ctxWithRoot = (root: unknown): RenderContext => ({
  locale: "en-US",
  now: 0,
  node: () => root,
  resolve: () => undefined,
  root: () => root,
  error: () => {},
  renderPartial: () => undefined,
});

describe("time zones", () => {
  it("reads website.timeZone from the context root, defaulting to New York", () => {
    expect(websiteTimeZone(ctxWithRoot({ website: { timeZone: "Europe/Paris" } }))).toBe("Europe/Paris");
    expect(websiteTimeZone(ctxWithRoot({ website: {} }))).toBe(DEFAULT_TIME_ZONE);
    expect(websiteTimeZone(ctxWithRoot([]))).toBe("America/New_York");
  });

  it("gives offsets in minutes east of UTC", () => {
    expect(timeZoneOffset(Date.UTC(2021, 1, 17), "America/New_York")).toBe(-300);
    expect(timeZoneOffset(new Date(Date.UTC(2021, 6, 1)), "America/New_York")).toBe(-240);
    expect(timeZoneOffset(0, "Asia/Kolkata")).toBe(330);
  });

  it("throws 'Invalid argument' unless given a Date or a number", () => {
    expect(() => timeZoneOffset("2021-02-17", "UTC")).toThrow("Invalid argument");
    expect(() => timeZoneOffset(undefined, "UTC")).toThrow("Invalid argument");
    expect(() => timeZoneOffset({}, "UTC")).toThrow("Invalid argument");
  });

  it("warns 'No timezone data loaded' and falls back to UTC for unknown zones", () => {
    const warnings: string[] = [];
    const info = zoneAt("Mars/Olympus", 0, (m) => warnings.push(m));
    expect(info.offset).toBe(0);
    expect(warnings[0]).toMatch(/^No timezone data loaded/);
    expect(usableZoneId("Mars/Olympus", (m) => warnings.push(m))).toBe("UTC");
    expect(warnings).toHaveLength(2);
  });

  it("gives the library's answer at every instant, in any order, around transitions", () => {
    const zones = [
      "America/New_York",
      "Europe/Paris",
      "Australia/Lord_Howe",
      "Asia/Kolkata",
      "Africa/Casablanca",
    ];
    // New York's 2021 spring-forward instant, and a spread of instants in random order.
    const edge = Date.UTC(2021, 2, 14, 7);
    const instants = [edge - 1, edge, edge + 1, edge - 1, -1e13, 0, 1e12, 4e12, 1.6e12, 1.2e11, edge];
    for (let i = 0; i < 300; i++) instants.push(Math.round((Math.random() - 0.3) * 6e12));
    for (const ms of instants) {
      for (const zone of zones) {
        const ours = zoneAt(zone, ms);
        const lib = TZ.fromUTC(zone, ms);
        expect({ abbr: ours.abbr, offset: ours.offset, dst: ours.dst }, `${zone} ${ms}`).toEqual({
          abbr: lib?.abbr,
          offset: lib?.offset,
          dst: lib?.dst,
        });
      }
    }
  });

  it("accepts aliases of zones", () => {
    expect(resolveZoneId("SystemV/PST8PDT")).toBe("America/Los_Angeles");
    expect(zoneAt("US/Eastern", Date.UTC(2021, 0, 1)).offset).toBe(-5 * 3_600_000);
  });
});
