import { Decimal } from "@phensley/cldr";
import { beforeAll, describe, expect, it } from "vitest";
import { cldrFor, loadLocale } from "./cldr.js";
import { convertUnit, findUnit, formatUnits, rejoinUnitLists, unitArgs } from "./units.js";

const d = (s: string) => new Decimal(s);
const unit = (id: string) => {
  const u = findUnit(id);
  if (u === undefined) throw new Error(id);
  return u;
};

beforeAll(async () => {
  await Promise.all([loadLocale("en-US"), loadLocale("de-DE")]);
});

describe("unit lookup and conversion", () => {
  it("finds units by id, plural and category-prefixed id", () => {
    expect(findUnit("feet")?.id).toBe("foot");
    expect(findUnit("length-foot")?.id).toBe("foot");
    expect(findUnit("Square-Miles")?.id).toBe("square-mile");
    expect(findUnit("metric-ton")?.cldr).toBe("tonne");
    expect(findUnit("foot.inch")).toBeUndefined();
  });

  it("converts through exact factors", () => {
    expect(convertUnit(d("12"), unit("inch"), unit("foot"))?.toString()).toBe("1");
    expect(convertUnit(d("1"), unit("mile"), unit("kilometer"))?.toString()).toBe("1.609344");
    expect(convertUnit(d("1"), unit("kilobyte"), unit("bit"))?.toString()).toBe("8192");
    expect(convertUnit(d("1"), unit("hour"), unit("second"))?.toString()).toBe("3600");
  });

  it("converts temperatures with offsets", () => {
    expect(convertUnit(d("212"), unit("fahrenheit"), unit("celsius"))?.compare(d("100"))).toBe(0);
    expect(convertUnit(d("0"), unit("celsius"), unit("kelvin"))?.compare(d("273.15"))).toBe(0);
    expect(convertUnit(d("-40"), unit("celsius"), unit("fahrenheit"))?.compare(d("-40"))).toBe(0);
  });

  it("does not convert across categories", () => {
    expect(convertUnit(d("1"), unit("meter"), unit("second"))).toBeUndefined();
  });
});

describe("formatUnits", () => {
  const en = () => cldrFor("en-US")!;
  const de = () => cldrFor("de-DE")!;
  const fmt = (cldr: ReturnType<typeof en>, n: string, args: string[]) =>
    formatUnits(cldr, d(n), unitArgs(args));

  it("picks the best unit of the locale's measurement system", () => {
    expect(fmt(en(), "12345", ["in:inch"])).toBe("342.9yd");
    expect(fmt(de(), "12345", ["in:inch"])).toBe("313,6 m");
    expect(fmt(de(), "60", ["in:mile-per-hour"])).toBe("96,6 km/h");
    expect(fmt(en(), "37", ["in:celsius"])).toBe("98.6°");
  });

  it("converts to exact units, unit lists and compact families", () => {
    expect(fmt(en(), "1", ["in:foot", "out:inch", "format:long"])).toBe("12 inches");
    expect(fmt(en(), "0.5", ["in:mile", "out:mile,yard,foot"])).toBe("880yd");
    expect(fmt(en(), "1048576", ["in:byte", "compact:bytes"])).toBe("1MB");
    expect(fmt(en(), "1024", ["in:byte", "compact:bits"])).toBe("8kb");
  });

  it("breaks amounts into sequences, skipping empty units", () => {
    expect(fmt(en(), "3725", ["in:second", "sequence:hour,minute,second"])).toBe("1h 2m 5s");
    expect(fmt(en(), "3605", ["in:second", "sequence:hour,minute,second"])).toBe("1h 5s");
    expect(fmt(en(), "-3725", ["in:second", "sequence:hour,minute,second"])).toBe("-1h 2m 5s");
  });

  it("applies number options, grouping off by default", () => {
    expect(fmt(en(), "1234567", ["in:meter", "out:meter"])).toBe("1234567m");
    expect(fmt(en(), "1234567", ["in:meter", "out:meter", "group"])).toBe("1,234,567m");
    expect(fmt(en(), "1.23456", ["in:meter", "out:meter", "maxfrac:3"])).toBe("1.235m");
  });

  it("formats a plain number when nothing names a unit", () => {
    expect(fmt(en(), "1234.56", [])).toBe("1234.6");
  });

  it("puts unit names split off by message option parsing back into their list", () => {
    expect(
      rejoinUnitLists(["in:second", "sequence:hour", "minute", "second", "format:long", "group"]),
    ).toEqual(["in:second", "sequence:hour,minute,second", "format:long", "group"]);
  });
});
