/**
 * The `unit` formatter: converts a quantity between units and formats it with CLDR unit
 * patterns, e.g. `{n|unit in:inch out:centimeter}`, `{n|unit in:second sequence:hour,minute}`,
 * `{n|unit in:byte compact:bytes}`.
 *
 * Arguments: `in:` the input unit; `out:` an exact output unit, or a comma list of units to
 * pick the best one from; `sequence:` a comma list of units to break the amount into
 * ("1028′ 9″"); `compact:` a family of units to pick the best one from (bytes, bits, length,
 * duration, …) or a locale-dependent unit (temperature, speed, consumption, light);
 * `format:` narrow (default), short or long; number options (`group`, `maxfrac:` …).
 * The best unit is the largest one in which the amount is at least 1. With only `in:`, the
 * amount is shown in the best unit of the locale's measurement system.
 */
import { type CLDR, Decimal, type MathContext, type UnitFormatOptions } from "@phensley/cldr";
import { numberOption, splitOption } from "./options.js";
import { type UnitCategory, type UnitDef, findUnit, set, u } from "./unit-catalog.js";

export { findUnit } from "./unit-catalog.js";

/** Families of units to pick the best unit from, largest first. */
const FACTOR_SETS = {
  angle: set("degree", "arc-minute", "arc-second"),
  area: set("square-kilometer", "square-meter", "square-centimeter"),
  areaEnglish: set("square-mile", "square-foot", "square-inch"),
  bits: set("terabit", "gigabit", "megabit", "kilobit", "bit"),
  bytes: set("terabyte", "gigabyte", "megabyte", "kilobyte", "byte"),
  duration: set("century", "year", "month", "day", "hour", "minute", "second"),
  durationLarge: set("century", "year", "month", "day"),
  durationSmall: set("day", "hour", "minute", "second"),
  energy: set("kilojoule", "joule"),
  frequency: set("gigahertz", "megahertz", "kilohertz", "hertz"),
  length: set("kilometer", "meter", "centimeter"),
  lengthEnglish: set("mile", "yard", "foot", "inch"),
  mass: set("metric-ton", "kilogram", "gram", "milligram"),
  massEnglish: set("ton", "pound", "ounce"),
  power: set("gigawatt", "megawatt", "kilowatt", "watt", "milliwatt"),
  volume: set("cubic-kilometer", "cubic-meter", "cubic-centimeter"),
  volumeEnglish: set("cubic-mile", "cubic-yard", "cubic-foot", "cubic-inch"),
  liquid: set("megaliter", "hectoliter", "liter", "deciliter", "centiliter", "milliliter"),
  liquidEnglish: set("gallon", "quart", "pint", "cup", "fluid-ounce"),
};

type MeasurementSystem = "metric" | "us" | "uk";

function measurementSystem(cldr: CLDR): MeasurementSystem {
  const system = cldr.General.measurementSystem();
  return system === "us" || system === "uk" ? system : "metric";
}

const english = (ms: MeasurementSystem): boolean => ms !== "metric";

/** The unit a locale uses for a category where it uses exactly one (temperature, speed …). */
function localeUnit(category: UnitCategory, cldr: CLDR, ms: MeasurementSystem): UnitDef | undefined {
  switch (category) {
    case "temperature":
      return ms === "us" || cldr.General.measurementSystem("temperature") === "us"
        ? u("fahrenheit")
        : u("celsius");
    case "speed":
      return english(ms) ? u("mile-per-hour") : u("kilometer-per-hour");
    case "consumption":
      return ms === "us"
        ? u("mile-per-gallon")
        : ms === "uk"
          ? u("mile-per-gallon-imperial")
          : u("liter-per-100-kilometer");
    case "light":
      return u("lux");
    case "pressure":
      return u("millibar");
    default:
      return undefined;
  }
}

/** A family of metric units, and the one used instead in English systems where it differs. */
interface Family {
  metric: UnitDef[];
  english?: UnitDef[];
}

const inSystem = (family: Family, ms: MeasurementSystem): UnitDef[] =>
  english(ms) && family.english !== undefined ? family.english : family.metric;

/** Each category's default family of units. */
const DEFAULT_FAMILIES: Partial<Record<UnitCategory, Family>> = {
  angle: { metric: FACTOR_SETS.angle },
  area: { metric: FACTOR_SETS.area, english: FACTOR_SETS.areaEnglish },
  digital: { metric: FACTOR_SETS.bytes },
  duration: { metric: FACTOR_SETS.duration },
  energy: { metric: FACTOR_SETS.energy },
  frequency: { metric: FACTOR_SETS.frequency },
  length: { metric: FACTOR_SETS.length, english: FACTOR_SETS.lengthEnglish },
  mass: { metric: FACTOR_SETS.mass, english: FACTOR_SETS.massEnglish },
  power: { metric: FACTOR_SETS.power },
  volume: { metric: FACTOR_SETS.volume, english: FACTOR_SETS.volumeEnglish },
};

/** The default family of units of a category in a measurement system. */
function defaultFactorSet(category: UnitCategory, ms: MeasurementSystem): UnitDef[] | undefined {
  const family = Object.hasOwn(DEFAULT_FAMILIES, category) ? DEFAULT_FAMILIES[category] : undefined;
  return family === undefined ? undefined : inSystem(family, ms);
}

/** A `compact:` name: a family of units, or a single locale-dependent unit. */
function compactTarget(name: string, cldr: CLDR, ms: MeasurementSystem): UnitDef | UnitDef[] | undefined {
  switch (name) {
    case "consumption":
    case "light":
    case "speed":
      return localeUnit(name, cldr, ms);
    case "temp":
    case "temperature":
      return localeUnit("temperature", cldr, ms);
    case "angles":
      return FACTOR_SETS.angle;
    case "bit":
    case "bits":
      return FACTOR_SETS.bits;
    case "byte":
    case "bytes":
      return FACTOR_SETS.bytes;
    case "duration-large":
      return FACTOR_SETS.durationLarge;
    case "duration-small":
      return FACTOR_SETS.durationSmall;
    case "liquid":
      return inSystem({ metric: FACTOR_SETS.liquid, english: FACTOR_SETS.liquidEnglish }, ms);
    case "digital":
      // Not a compact name (digital amounts are "bits" or "bytes").
      return undefined;
    default:
      // A category's name: its default family (angle, area, duration, energy, length …).
      return defaultFactorSet(name as UnitCategory, ms);
  }
}

/** The unit to assume as input when only the output is known. */
function inputFor(exact: UnitDef, cldr: CLDR, ms: MeasurementSystem): UnitDef {
  if (exact.category === "digital") return exact.id.endsWith("bit") ? u("bit") : u("byte");
  if (exact.category === "frequency") return u("hertz");
  const local = localeUnit(exact.category, cldr, ms);
  if (local !== undefined) return local;
  const family = defaultFactorSet(exact.category, ms);
  return family !== undefined ? family[family.length - 1] : exact;
}

const MATH: MathContext = { precision: 60 };
const ONE = new Decimal(1);

const convertible = (a: UnitDef, b: UnitDef): boolean =>
  a.category === b.category && a.num !== undefined && b.num !== undefined;

/** Temperature in kelvin. */
function toKelvin(v: Decimal, unit: UnitDef): Decimal {
  switch (unit.id) {
    case "celsius":
      return v.add("273.15");
    case "fahrenheit":
      return v.add("459.67").multiply(5).divide(9, MATH);
    default:
      return v;
  }
}

function fromKelvin(k: Decimal, unit: UnitDef): Decimal {
  switch (unit.id) {
    case "celsius":
      return k.subtract("273.15");
    case "fahrenheit":
      return k.multiply(9).divide(5, MATH).subtract("459.67");
    default:
      return k;
  }
}

/** Converts an amount between two units of one category; `undefined` when they are not convertible. */
export function convertUnit(value: Decimal, from: UnitDef, to: UnitDef): Decimal | undefined {
  if (from === to) return value;
  if (!convertible(from, to)) return undefined;
  if (from.category === "temperature") return fromKelvin(toKelvin(value, from), to);
  const num = value.multiply(from.num as string).multiply(to.den as string);
  const den = new Decimal(from.den as string).multiply(to.num as string);
  return num.divide(den, MATH);
}

/** The largest unit of a family in which the amount is at least 1 (else the smallest). */
function best(value: Decimal, from: UnitDef, family: readonly UnitDef[]): { value: Decimal; unit: UnitDef } {
  const sorted = sortLargestFirst(family);
  let last: { value: Decimal; unit: UnitDef } | undefined;
  for (const unit of sorted) {
    const v = convertUnit(value, from, unit);
    if (v === undefined) continue;
    last = { value: v, unit };
    if (v.compare(ONE, true) >= 0) return last;
  }
  return last ?? { value, unit: from };
}

function sortLargestFirst(units: readonly UnitDef[]): UnitDef[] {
  const size = (d: UnitDef) => new Decimal(d.num ?? "1").divide(d.den ?? "1", MATH);
  return [...units].sort((a, b) => size(b).compare(size(a)));
}

/** Breaks an amount into whole amounts of the larger units and the rest in the smallest. */
function sequence(
  value: Decimal,
  from: UnitDef,
  units: readonly UnitDef[],
): { value: Decimal; unit: UnitDef }[] {
  const sorted = sortLargestFirst(units.filter((x) => convertible(from, x)));
  if (sorted.length === 0) return [{ value, unit: from }];
  const negative = value.isNegative();
  let rest = value.abs();
  const out: { value: Decimal; unit: UnitDef }[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const unit = sorted[i];
    const v = convertUnit(rest, from, unit) as Decimal;
    if (i === sorted.length - 1) {
      if (!v.isZero() || out.length === 0) out.push({ value: v, unit });
      break;
    }
    const whole = v.toInteger();
    if (whole.isZero()) continue;
    out.push({ value: whole, unit });
    rest = rest.subtract(convertUnit(whole, unit, from) as Decimal);
    if (rest.isZero()) break;
  }
  if (negative && out.length > 0) out[0] = { value: out[0].value.negate(), unit: out[0].unit };
  return out;
}

function unitList(value: string): UnitDef[] | undefined {
  const units: UnitDef[] = [];
  for (const part of value.split(",")) {
    const def = findUnit(part);
    if (def === undefined || (units.length > 0 && def.category !== units[0].category)) return undefined;
    units.push(def);
  }
  return units.length > 0 ? units : undefined;
}

interface UnitArgs {
  input?: UnitDef;
  exact?: UnitDef;
  exactList?: UnitDef[];
  compact?: string;
  sequence?: UnitDef[];
  options: UnitFormatOptions;
}

/**
 * Message tags split their options at commas too (`sequence:hour,minute` arrives as
 * `sequence:hour`, `minute`): puts unit names that follow a unit-list option back into it.
 */
export function rejoinUnitLists(options: readonly string[]): string[] {
  const out: string[] = [];
  for (const opt of options) {
    const prev = out.length > 0 ? out[out.length - 1] : undefined;
    if (
      prev !== undefined &&
      !opt.includes(":") &&
      findUnit(opt) !== undefined &&
      (prev.startsWith("sequence:") || prev.startsWith("out:"))
    ) {
      out[out.length - 1] = `${prev},${opt}`;
    } else {
      out.push(opt);
    }
  }
  return out;
}

/** Parses the `unit` formatter's arguments. */
export function unitArgs(args: readonly string[]): UnitArgs {
  const out: UnitArgs = { options: { length: "narrow", group: false, maximumFractionDigits: 1 } };
  for (const arg of args) {
    const [key, value] = splitOption(arg);
    switch (key) {
      case "in":
        out.input = findUnit(value);
        break;
      case "out":
        if (value.includes(",")) out.exactList = unitList(value);
        else out.exact = findUnit(value);
        break;
      case "compact":
        out.compact = value;
        break;
      case "sequence":
        if (out.sequence === undefined && out.compact === undefined) out.sequence = unitList(value);
        break;
      case "format":
        if (value === "long" || value === "short" || value === "narrow") out.options.length = value;
        break;
      default:
        numberOption(key, value, out.options);
        break;
    }
  }
  return out;
}

/** Converts and formats an amount per the `unit` formatter's arguments. */
export function formatUnits(cldr: CLDR, amount: Decimal, spec: UnitArgs): string {
  const ms = measurementSystem(cldr);
  const opts = spec.options;
  let input = spec.input;
  let exact = spec.exact;
  let family: UnitDef[] | undefined;

  if (spec.compact !== undefined) {
    const target = compactTarget(spec.compact, cldr, ms);
    if (Array.isArray(target)) family = target;
    else if (target !== undefined) exact = target;
  } else if (spec.exactList !== undefined) {
    family = spec.exactList;
  } else if (spec.sequence !== undefined) {
    family = spec.sequence;
  }

  if (input === undefined && spec.compact === undefined) {
    // The output unit tells what the amount measures. A compact form alone does not: it is too
    // fuzzy ("temperature" is Celsius or Fahrenheit by locale), so the amount stays a number.
    if (exact !== undefined) input = inputFor(exact, cldr, ms);
    else if (family !== undefined) input = family[family.length - 1];
  }

  if (input === undefined) {
    // Nothing says what the amount measures: a plain number.
    return cldr.Numbers.formatDecimal(amount, opts);
  }

  const format = (value: Decimal, unit: UnitDef) =>
    cldr.Units.formatQuantity({ value, unit: unit.cldr }, opts);

  if (exact !== undefined) {
    const v = convertUnit(amount, input, exact);
    return v === undefined ? format(amount, input) : format(v, exact);
  }
  if (
    family !== undefined &&
    spec.sequence !== undefined &&
    spec.compact === undefined &&
    spec.exactList === undefined
  ) {
    return sequence(amount, input, family)
      .map((q) => format(q.value, q.unit))
      .join(" ");
  }
  if (family === undefined) {
    const local = localeUnit(input.category, cldr, ms);
    if (local !== undefined && input.category !== "pressure") {
      const v = convertUnit(amount, input, local);
      return v === undefined ? format(amount, input) : format(v, local);
    }
    family = defaultFactorSet(input.category, ms);
    if (family === undefined) return format(amount, input);
  }
  const b = best(amount, input, family);
  return format(b.value, b.unit);
}
