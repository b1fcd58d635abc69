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
import { type CLDR, Decimal, type MathContext, type UnitFormatOptions, type UnitType } from "@phensley/cldr";
import { numberOption, splitOption } from "./options.js";

export type UnitCategory =
  | "acceleration"
  | "angle"
  | "area"
  | "concentration"
  | "consumption"
  | "digital"
  | "duration"
  | "electric-current"
  | "electric-resistance"
  | "electric-potential"
  | "energy"
  | "frequency"
  | "length"
  | "light"
  | "mass"
  | "power"
  | "pressure"
  | "speed"
  | "temperature"
  | "volume";

export interface UnitDef {
  /** Identifier used in templates. */
  readonly id: string;
  readonly category: UnitCategory;
  /** The CLDR unit used to format it. */
  readonly cldr: UnitType;
  /** Size in the category's base unit as a fraction, or `undefined` when not convertible. */
  readonly num?: string;
  readonly den?: string;
}

const PI = "3.14159265358979323846264338327950288419716939937510";

// [id, category, factor numerator, factor denominator, CLDR unit when different, extra aliases]
type Row = [string, UnitCategory, string | null, string, string?, string[]?];

const ROWS: Row[] = [
  ["g-force", "acceleration", "9.80665", "1", undefined, ["g"]],
  [
    "meter-per-second-squared",
    "acceleration",
    "1",
    "1",
    "meter-per-square-second",
    ["meter-per-square-second"],
  ],

  ["arc-minute", "angle", "1", "60", undefined, ["arcminute"]],
  ["arc-second", "angle", "1", "3600", undefined, ["arcsecond"]],
  ["degree", "angle", "1", "1"],
  ["radian", "angle", "180", PI],
  ["revolution", "angle", "360", "1"],

  ["acre", "area", "4046.8564224", "1"],
  ["hectare", "area", "10000", "1"],
  ["square-centimeter", "area", "0.0001", "1"],
  ["square-foot", "area", "0.09290304", "1", undefined, ["square-feet"]],
  ["square-inch", "area", "0.00064516", "1", undefined, ["square-inches"]],
  ["square-kilometer", "area", "1000000", "1"],
  ["square-meter", "area", "1", "1"],
  ["square-mile", "area", "2589988.110336", "1"],
  ["square-yard", "area", "0.83612736", "1"],

  ["karat", "concentration", null, "1"],
  ["milligram-per-deciliter", "concentration", null, "1", "milligram-ofglucose-per-deciliter"],
  ["millimole-per-liter", "concentration", null, "1"],
  ["part-per-million", "concentration", null, "1", "part-per-1e6", ["parts-per-million"]],
  ["percent", "concentration", null, "1"],
  ["permille", "concentration", null, "1"],

  [
    "liter-per-100-kilometer",
    "consumption",
    null,
    "1",
    undefined,
    ["liter-per-100kilometers", "liters-per-100kilometers"],
  ],
  ["liter-per-kilometer", "consumption", null, "1"],
  ["mile-per-gallon", "consumption", null, "1"],
  ["mile-per-gallon-imperial", "consumption", null, "1"],

  ["bit", "digital", "1", "1"],
  ["byte", "digital", "8", "1"],
  ["kilobit", "digital", "1024", "1"],
  ["kilobyte", "digital", "8192", "1"],
  ["megabit", "digital", "1048576", "1"],
  ["megabyte", "digital", "8388608", "1"],
  ["gigabit", "digital", "1073741824", "1"],
  ["gigabyte", "digital", "8589934592", "1"],
  ["terabit", "digital", "1099511627776", "1"],
  ["terabyte", "digital", "8796093022208", "1"],
  ["petabyte", "digital", "9007199254740992", "1"],

  ["nanosecond", "duration", "0.000000001", "1"],
  ["microsecond", "duration", "0.000001", "1"],
  ["millisecond", "duration", "0.001", "1"],
  ["second", "duration", "1", "1"],
  ["minute", "duration", "60", "1"],
  ["hour", "duration", "3600", "1"],
  ["day", "duration", "86400", "1"],
  ["week", "duration", "604800", "1"],
  // The mean Gregorian year (365.2425 days) and month (1/12 year).
  ["month", "duration", "2629746", "1"],
  ["year", "duration", "31556952", "1"],
  ["decade", "duration", "315569520", "1"],
  ["century", "duration", "3155695200", "1", undefined, ["centuries"]],

  ["ampere", "electric-current", "1", "1"],
  ["milliampere", "electric-current", "0.001", "1"],
  ["ohm", "electric-resistance", "1", "1"],
  ["volt", "electric-potential", "1", "1"],

  ["joule", "energy", "1", "1"],
  ["kilojoule", "energy", "1000", "1"],
  ["calorie", "energy", "4.184", "1"],
  ["kilocalorie", "energy", "4184", "1"],
  ["foodcalorie", "energy", "4184", "1"],
  ["kilowatt-hour", "energy", "3600000", "1"],

  ["hertz", "frequency", "1", "1"],
  ["kilohertz", "frequency", "1000", "1"],
  ["megahertz", "frequency", "1000000", "1"],
  ["gigahertz", "frequency", "1000000000", "1"],

  ["picometer", "length", "0.000000000001", "1"],
  ["nanometer", "length", "0.000000001", "1"],
  ["micrometer", "length", "0.000001", "1"],
  ["millimeter", "length", "0.001", "1"],
  ["centimeter", "length", "0.01", "1"],
  ["decimeter", "length", "0.1", "1"],
  ["meter", "length", "1", "1"],
  ["kilometer", "length", "1000", "1"],
  ["point", "length", "0.0254", "72"],
  ["inch", "length", "0.0254", "1", undefined, ["inches"]],
  ["foot", "length", "0.3048", "1", undefined, ["feet"]],
  ["yard", "length", "0.9144", "1"],
  ["fathom", "length", "1.8288", "1"],
  ["furlong", "length", "201.168", "1"],
  ["mile", "length", "1609.344", "1"],
  ["nautical-mile", "length", "1852", "1"],
  ["mile-scandinavian", "length", "10000", "1", undefined, ["miles-scandinavian"]],
  ["astronomical-unit", "length", "149597870700", "1"],
  ["light-year", "length", "9460730472580800", "1"],
  // 648000/π astronomical units, with π/648000 evaluated to 16 significant digits.
  ["parsec", "length", "30856775814913679.4976354800", "1"],

  ["lux", "light", "1", "1"],

  ["microgram", "mass", "0.000001", "1"],
  ["milligram", "mass", "0.001", "1"],
  ["carat", "mass", "0.2", "1"],
  ["gram", "mass", "1", "1"],
  ["kilogram", "mass", "1000", "1"],
  ["metric-ton", "mass", "1000000", "1", "tonne", ["tonne"]],
  ["ounce", "mass", "28.349523125", "1"],
  ["ounce-troy", "mass", "31.1034768", "1", undefined, ["troy-ounce", "troy-ounces"]],
  ["pound", "mass", "453.59237", "1"],
  ["stone", "mass", "6350.29318", "1"],
  ["ton", "mass", "907184.74", "1"],

  ["milliwatt", "power", "0.001", "1"],
  ["watt", "power", "1", "1"],
  ["kilowatt", "power", "1000", "1"],
  ["megawatt", "power", "1000000", "1"],
  ["gigawatt", "power", "1000000000", "1"],
  ["horsepower", "power", "745.69987158227022", "1"],

  ["hectopascal", "pressure", "1", "1"],
  ["millibar", "pressure", "1", "1"],
  ["inch-hg", "pressure", "33.8638864", "1", "inch-ofhg", ["inches-hg", "inch-ofhg"]],
  [
    "millimeter-of-mercury",
    "pressure",
    "1.33322387415",
    "1",
    "millimeter-ofhg",
    ["millimeters-of-mercury", "millimeter-ofhg"],
  ],
  [
    "pound-per-square-inch",
    "pressure",
    "68.9475729317831",
    "1",
    "pound-force-per-square-inch",
    ["pounds-per-square-inch", "pound-force-per-square-inch"],
  ],

  ["meter-per-second", "speed", "1", "1"],
  ["kilometer-per-hour", "speed", "1000", "3600"],
  ["mile-per-hour", "speed", "1609.344", "3600"],
  ["knot", "speed", "1852", "3600", undefined, ["knots"]],

  ["celsius", "temperature", "1", "1", undefined, ["c"]],
  ["fahrenheit", "temperature", "1", "1", undefined, ["f"]],
  ["kelvin", "temperature", "1", "1", undefined, ["k"]],
  ["generic", "temperature", null, "1", "temperature", ["degrees-generic", "generic-degrees"]],

  ["milliliter", "volume", "0.000001", "1"],
  ["cubic-centimeter", "volume", "0.000001", "1"],
  ["centiliter", "volume", "0.00001", "1"],
  ["deciliter", "volume", "0.0001", "1"],
  ["liter", "volume", "0.001", "1"],
  ["hectoliter", "volume", "0.1", "1"],
  ["cubic-meter", "volume", "1", "1"],
  ["megaliter", "volume", "1000", "1"],
  ["cubic-kilometer", "volume", "1000000000", "1"],
  ["teaspoon", "volume", "0.00000492892159375", "1"],
  ["tablespoon", "volume", "0.00001478676478125", "1"],
  ["fluid-ounce", "volume", "0.0000295735295625", "1"],
  ["cup", "volume", "0.0002365882365", "1"],
  ["cup-metric", "volume", "0.00025", "1", undefined, ["cups-metric"]],
  ["pint", "volume", "0.000473176473", "1"],
  ["pint-metric", "volume", "0.0005", "1", undefined, ["pints-metric"]],
  ["quart", "volume", "0.000946352946", "1"],
  ["gallon", "volume", "0.003785411784", "1"],
  ["gallon-imperial", "volume", "0.00454609", "1", undefined, ["gallons-imperial"]],
  ["cubic-inch", "volume", "0.000016387064", "1", undefined, ["cubic-inches"]],
  ["cubic-foot", "volume", "0.028316846592", "1", undefined, ["cubic-feet"]],
  ["cubic-yard", "volume", "0.764554857984", "1"],
  ["bushel", "volume", "0.03523907016688", "1"],
  ["acre-foot", "volume", "1233.48183754752", "1", undefined, ["acre-feet"]],
  ["cubic-mile", "volume", "4168181825.440579584", "1"],
];

const UNITS = new Map<string, UnitDef>();
/** Prefixes accepted before unit ids ("length-foot"), when they differ from the category name. */
const CATEGORY_PREFIXES: Partial<Record<UnitCategory, string[]>> = {
  concentration: ["concentr", "concentration"],
  "electric-current": ["electric"],
  "electric-resistance": ["electric"],
  "electric-potential": ["electric"],
};

for (const [id, category, num, den, cldr, aliases] of ROWS) {
  const def: UnitDef = { id, category, cldr: (cldr ?? id) as UnitType, num: num ?? undefined, den };
  const names = [id, ...(aliases ?? [])];
  // Regular plurals ("meters", "square-yards") are accepted too.
  if (!id.endsWith("s") && !id.endsWith("z") && !id.endsWith("h") && !id.includes("-per-"))
    names.push(`${id}s`);
  const prefixes = CATEGORY_PREFIXES[category] ?? [category];
  for (const name of names) {
    if (!UNITS.has(name)) UNITS.set(name, def);
    for (const prefix of prefixes) UNITS.set(`${prefix}-${name}`, def);
  }
}

/** The unit an identifier names ("foot", "feet", "length-foot"), or `undefined`. */
export function findUnit(id: string): UnitDef | undefined {
  return UNITS.get(id.trim().toLowerCase());
}

const u = (id: string): UnitDef => {
  const def = UNITS.get(id);
  if (def === undefined) throw new Error(`unknown unit ${id}`);
  return def;
};
const set = (...ids: string[]): UnitDef[] => ids.map(u);

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

/** The default family of units of a category in a measurement system. */
function defaultFactorSet(category: UnitCategory, ms: MeasurementSystem): UnitDef[] | undefined {
  switch (category) {
    case "angle":
      return FACTOR_SETS.angle;
    case "area":
      return english(ms) ? FACTOR_SETS.areaEnglish : FACTOR_SETS.area;
    case "digital":
      return FACTOR_SETS.bytes;
    case "duration":
      return FACTOR_SETS.duration;
    case "energy":
      return FACTOR_SETS.energy;
    case "frequency":
      return FACTOR_SETS.frequency;
    case "length":
      return english(ms) ? FACTOR_SETS.lengthEnglish : FACTOR_SETS.length;
    case "mass":
      return english(ms) ? FACTOR_SETS.massEnglish : FACTOR_SETS.mass;
    case "power":
      return FACTOR_SETS.power;
    case "volume":
      return english(ms) ? FACTOR_SETS.volumeEnglish : FACTOR_SETS.volume;
    default:
      return undefined;
  }
}

/** A `compact:` name: a family of units, or a single locale-dependent unit. */
function compactTarget(name: string, cldr: CLDR, ms: MeasurementSystem): UnitDef | UnitDef[] | undefined {
  switch (name) {
    case "consumption":
      return localeUnit("consumption", cldr, ms);
    case "light":
      return u("lux");
    case "speed":
      return localeUnit("speed", cldr, ms);
    case "temp":
    case "temperature":
      return localeUnit("temperature", cldr, ms);
    case "angle":
    case "angles":
      return FACTOR_SETS.angle;
    case "area":
      return english(ms) ? FACTOR_SETS.areaEnglish : FACTOR_SETS.area;
    case "bit":
    case "bits":
      return FACTOR_SETS.bits;
    case "byte":
    case "bytes":
      return FACTOR_SETS.bytes;
    case "duration":
      return FACTOR_SETS.duration;
    case "duration-large":
      return FACTOR_SETS.durationLarge;
    case "duration-small":
      return FACTOR_SETS.durationSmall;
    case "energy":
      return FACTOR_SETS.energy;
    case "frequency":
      return FACTOR_SETS.frequency;
    case "length":
      return english(ms) ? FACTOR_SETS.lengthEnglish : FACTOR_SETS.length;
    case "mass":
      return english(ms) ? FACTOR_SETS.massEnglish : FACTOR_SETS.mass;
    case "power":
      return FACTOR_SETS.power;
    case "volume":
      return english(ms) ? FACTOR_SETS.volumeEnglish : FACTOR_SETS.volume;
    case "liquid":
      return english(ms) ? FACTOR_SETS.liquidEnglish : FACTOR_SETS.liquid;
    default:
      return undefined;
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

export interface UnitArgs {
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
