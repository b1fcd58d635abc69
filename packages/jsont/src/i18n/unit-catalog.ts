/**
 * The units the `unit` formatter knows: their categories, sizes (as exact fractions of the
 * category's base unit), CLDR names, and the names templates may call them by.
 */
import type { UnitType } from "@phensley/cldr";

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

/** The SI prefixes units here take, with their factors as exact decimal text. */
const SI_PREFIXES = {
  pico: "0.000000000001",
  nano: "0.000000001",
  micro: "0.000001",
  milli: "0.001",
  centi: "0.01",
  deci: "0.1",
  "": "1",
  kilo: "1000",
  mega: "1000000",
  giga: "1000000000",
};

/** A base unit (size 1 in its category) and its SI-prefixed forms, in the order given. */
const siUnits = (base: string, category: UnitCategory, prefixes: (keyof typeof SI_PREFIXES)[]): Row[] =>
  prefixes.map((prefix) => [`${prefix}${base}`, category, SI_PREFIXES[prefix], "1"]);

/** Bits and bytes with the binary prefixes (kilo = 1024), sized in bits: bit, byte, kilobit, kilobyte … */
function digitalUnits(): Row[] {
  const rows: Row[] = [];
  ["", "kilo", "mega", "giga", "tera", "peta"].forEach((prefix, power) => {
    const size = 1024n ** BigInt(power);
    // There is no petabit.
    if (prefix !== "peta") rows.push([`${prefix}bit`, "digital", String(size), "1"]);
    rows.push([`${prefix}byte`, "digital", String(8n * size), "1"]);
  });
  return rows;
}

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

  ...digitalUnits(),

  ...siUnits("second", "duration", ["nano", "micro", "milli", ""]),
  ["minute", "duration", "60", "1"],
  ["hour", "duration", "3600", "1"],
  ["day", "duration", "86400", "1"],
  ["week", "duration", "604800", "1"],
  // The mean Gregorian year (365.2425 days) and month (1/12 year).
  ["month", "duration", "2629746", "1"],
  ["year", "duration", "31556952", "1"],
  ["decade", "duration", "315569520", "1"],
  ["century", "duration", "3155695200", "1", undefined, ["centuries"]],

  ...siUnits("ampere", "electric-current", ["", "milli"]),
  ["ohm", "electric-resistance", "1", "1"],
  ["volt", "electric-potential", "1", "1"],

  ...siUnits("joule", "energy", ["", "kilo"]),
  ["calorie", "energy", "4.184", "1"],
  ["kilocalorie", "energy", "4184", "1"],
  ["foodcalorie", "energy", "4184", "1"],
  ["kilowatt-hour", "energy", "3600000", "1"],

  ...siUnits("hertz", "frequency", ["", "kilo", "mega", "giga"]),

  ...siUnits("meter", "length", ["pico", "nano", "micro", "milli", "centi", "deci", "", "kilo"]),
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

  ...siUnits("gram", "mass", ["micro", "milli", "", "kilo"]),
  ["carat", "mass", "0.2", "1"],
  ["metric-ton", "mass", "1000000", "1", "tonne", ["tonne"]],
  ["ounce", "mass", "28.349523125", "1"],
  ["ounce-troy", "mass", "31.1034768", "1", undefined, ["troy-ounce", "troy-ounces"]],
  ["pound", "mass", "453.59237", "1"],
  ["stone", "mass", "6350.29318", "1"],
  ["ton", "mass", "907184.74", "1"],

  ...siUnits("watt", "power", ["milli", "", "kilo", "mega", "giga"]),
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

export const u = (id: string): UnitDef => {
  const def = UNITS.get(id);
  if (def === undefined) throw new Error(`unknown unit ${id}`);
  return def;
};
export const set = (...ids: string[]): UnitDef[] => ids.map(u);
