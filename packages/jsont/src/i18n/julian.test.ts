import { describe, expect, it } from "vitest";
import {
  checkJulianDay,
  civilFromJulianDay,
  dateFields,
  isLeapYear,
  JD_GREGORIAN_CUTOVER,
  JD_MAX,
  JD_MIN,
  JD_UNIX_EPOCH,
  JulianDayRangeError,
  weekOfYear,
} from "./julian.js";

describe("Julian days", () => {
  it("maps the Unix epoch to Thursday January 1, 1970", () => {
    expect(civilFromJulianDay(JD_UNIX_EPOCH)).toMatchObject({ year: 1970, month: 1, day: 1, dayOfYear: 1 });
    expect(dateFields(0, 0)).toMatchObject({ julianDay: JD_UNIX_EPOCH, weekday: 4, hour: 0 });
  });

  it("switches from the Julian to the Gregorian calendar in October 1582", () => {
    expect(civilFromJulianDay(JD_GREGORIAN_CUTOVER)).toMatchObject({ year: 1582, month: 10, day: 15 });
    expect(civilFromJulianDay(JD_GREGORIAN_CUTOVER - 1)).toMatchObject({ year: 1582, month: 10, day: 4 });
  });

  it("covers 4713 BC to 8652 AD", () => {
    // Extended year -4712 is 4713 BC.
    expect(civilFromJulianDay(JD_MIN)).toMatchObject({ year: -4712, month: 1, day: 1 });
    expect(civilFromJulianDay(JD_MAX)).toMatchObject({ year: 8652, month: 12, day: 31 });
  });

  it("throws a range error outside Julian day 0 to 4881503", () => {
    expect(() => checkJulianDay(-1)).toThrow(JulianDayRangeError);
    expect(() => checkJulianDay(JD_MAX + 1)).toThrow(/outside the supported range 0 to 4881503/);
    expect(() => dateFields(1e15, 0)).toThrow(/4713 BC to December 31, 8652 AD/);
    expect(() => checkJulianDay(Number.NaN)).toThrow(JulianDayRangeError);
  });

  it("uses Julian leap years before 1582 and Gregorian ones after", () => {
    expect(isLeapYear(1500)).toBe(true);
    expect(isLeapYear(1700)).toBe(false);
    expect(isLeapYear(2000)).toBe(true);
    expect(isLeapYear(2024)).toBe(true);
    expect(civilFromJulianDay(JD_UNIX_EPOCH + 365 * 30 + 7 + 59)).toMatchObject({
      year: 2000,
      month: 2,
      day: 29,
    });
  });

  it("splits the time of day and applies zone offsets", () => {
    const f = dateFields(1613597165345, -5 * 3_600_000);
    expect(f).toMatchObject({ year: 2021, month: 2, day: 17, hour: 16, minute: 26, second: 5, millis: 345 });
    expect(f.weekday).toBe(3);
    expect(dateFields(-1, 0)).toMatchObject({ year: 1969, month: 12, day: 31, hour: 23, millis: 999 });
  });
});

describe("weekOfYear", () => {
  const at = (y: number, m: number, d: number) => dateFields(Date.UTC(y, m - 1, d), 0);

  it("numbers ISO weeks, including weeks that belong to the next or previous year", () => {
    expect(weekOfYear(at(2021, 2, 17), 1, 4)).toEqual({ week: 7, year: 2021 });
    expect(weekOfYear(at(2021, 1, 1), 1, 4)).toEqual({ week: 53, year: 2020 });
    expect(weekOfYear(at(2024, 12, 30), 1, 4)).toEqual({ week: 1, year: 2025 });
  });

  it("numbers US weeks (Sunday first, the week of January 1 is week 1)", () => {
    expect(weekOfYear(at(2021, 2, 17), 0, 1)).toEqual({ week: 8, year: 2021 });
    expect(weekOfYear(at(2021, 1, 1), 0, 1)).toEqual({ week: 1, year: 2021 });
    expect(weekOfYear(at(2020, 12, 31), 0, 1)).toEqual({ week: 1, year: 2021 });
  });
});
