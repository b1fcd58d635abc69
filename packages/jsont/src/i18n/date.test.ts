import { describe, expect, it } from "vitest";
import { ENGLISH_NAMES, formatOffset, sameDay, strftime } from "./date.js";
import { JulianDayRangeError } from "./julian.js";

const T = 1613597165345; // Wed Feb 17 2021 16:26:05.345 EST
const NY = "America/New_York";

describe("strftime", () => {
  it("expands composite conversions", () => {
    expect(strftime("%c", T, NY)).toBe("Wed, Feb 17, 2021 4:26:05 PM EST");
    expect(strftime("%D|%F|%x|%X|%r|%R|%T", T, NY)).toBe(
      "02/17/21|2021-02-17|02/17/2021|04:26:05 PM|4:26:05 PM|16:26|16:26:05",
    );
  });

  it("pads with zeros or spaces as strftime does", () => {
    const t = Date.UTC(2021, 2, 7, 8, 5, 9); // Sun Mar 7 2021 03:05:09 EST
    expect(strftime("[%d][%e][%k][%l][%H][%I][%j][%v]", t, NY)).toBe(
      "[07][ 7][ 3][ 3][03][03][066][ 7-Mar-2021]",
    );
  });

  it("knows weekdays, weeks, quarters and epoch fields", () => {
    expect(strftime("%u %w %U %W %V %G %g %q %C %s %N", T, NY)).toBe(
      "3 3 08 08 07 2021 21 1 20 1613597165 345000000",
    );
    const sunday = Date.UTC(2021, 1, 21, 12);
    expect(strftime("%u %w", sunday, NY)).toBe("7 0");
  });

  it("prints zone offsets and abbreviations, in summer too", () => {
    const july = Date.UTC(2021, 6, 1, 12);
    expect(strftime("%z %Z", july, NY)).toBe("-04:00 EDT");
    expect(strftime("%z %Z", july, "Asia/Kolkata")).toBe("+05:30 IST");
    expect(formatOffset(-90)).toBe("-01:30");
  });

  it("keeps literal text, escapes and unknown conversions", () => {
    expect(strftime("100%% on %Y, %Q and %", T, NY)).toBe("100% on 2021, %Q and %");
    expect(strftime("%n%t", T, NY)).toBe("\n\t");
  });

  it("uses the month and weekday names it is given", () => {
    const names = { ...ENGLISH_NAMES, weekdaysLong: ["di", "lu", "ma", "me", "je", "ve", "sa"] };
    expect(strftime("%A", T, NY, names)).toBe("me");
  });

  it("rejects instants outside the supported Julian day range", () => {
    expect(() => strftime("%Y", -3e14, NY)).toThrow(JulianDayRangeError);
  });

  it("formats dates before the Gregorian cutover on the Julian calendar", () => {
    const t = Date.UTC(1582, 9, 15) - 86_400_000; // the day before the cutover
    expect(strftime("%Y-%m-%d", t, "UTC")).toBe("1582-10-04");
  });
});

describe("sameDay", () => {
  it("compares calendar days in the zone", () => {
    // 00:30 UTC on the 18th is still the 17th in New York.
    expect(sameDay(Date.UTC(2021, 1, 17, 15), Date.UTC(2021, 1, 18, 0, 30), NY)).toBe(true);
    expect(sameDay(Date.UTC(2021, 1, 17, 15), Date.UTC(2021, 1, 18, 0, 30), "UTC")).toBe(false);
  });
});
