/**
 * Whether measurements (weights, dimensions, temperature…) should be shown in metric units.
 * Decided, in order, by: a unit the current product or variant declares for its shipping
 * weight or size; the store's measurement standard (`storeSettings.measurementStandard`,
 * METRIC or IMPERIAL); the measurement system of the render locale (CLDR); metric otherwise.
 */
import { variantsOf } from "@atelier/commerce";
import { cldrFor } from "../i18n/cldr.js";
import type { RenderContext } from "../types.js";
import { asString } from "../util/values.js";
import { getPath } from "./nodes.js";

const METRIC_UNITS = new Set([
  "KILOGRAM",
  "GRAM",
  "KG",
  "G",
  "CENTIMETER",
  "METER",
  "MILLIMETER",
  "CM",
  "M",
  "MM",
]);
const IMPERIAL_UNITS = new Set(["POUND", "OUNCE", "LB", "OZ", "INCH", "FOOT", "YARD", "IN", "FT"]);

function unitSystem(unit: unknown): boolean | undefined {
  const name = asString(unit).trim().toUpperCase();
  if (METRIC_UNITS.has(name)) return true;
  if (IMPERIAL_UNITS.has(name)) return false;
  return undefined;
}

/** The system a product or variant declares through its shipping weight or size unit. */
function declaredSystem(node: unknown): boolean | undefined {
  const candidates = [node, ...variantsOf(node)];
  for (const candidate of candidates) {
    for (const field of ["shippingWeight", "shippingSize", "weight", "dimensions"]) {
      const system = unitSystem(getPath(candidate, field, "unit"));
      if (system !== undefined) return system;
    }
  }
  return undefined;
}

function storeStandard(ctx: RenderContext): boolean | undefined {
  const value =
    ctx.resolve(["websiteSettings", "storeSettings", "measurementStandard"]) ??
    ctx.resolve(["storeSettings", "measurementStandard"]);
  const standard = asString(value).trim().toUpperCase();
  if (standard === "METRIC") return true;
  if (standard === "IMPERIAL") return false;
  return undefined;
}

function localeSystem(ctx: RenderContext, category: string): boolean | undefined {
  const cldr = cldrFor(ctx.locale || "en-US");
  if (cldr === undefined) return undefined;
  try {
    // The general system covers the United States; the temperature category adds the
    // few territories that use Fahrenheit while measuring everything else in metric.
    if (cldr.General.measurementSystem() === "us") return false;
    return category === "temperature" ? cldr.General.measurementSystem("temperature") !== "us" : true;
  } catch {
    return undefined;
  }
}

/** `{.units-metric? [category]}`: true when measurements of the category are metric here. */
export function unitsMetric(args: string[], ctx: RenderContext): boolean {
  const category = (args[0] ?? "").trim().toLowerCase();
  if (category !== "temperature") {
    const declared = declaredSystem(ctx.node());
    if (declared !== undefined) return declared;
    const store = storeStandard(ctx);
    if (store !== undefined) return store;
  }
  return localeSystem(ctx, category) ?? true;
}
