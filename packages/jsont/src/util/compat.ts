/**
 * Compatibility levels. A fix that changes output ships with its legacy behaviour kept
 * below a threshold level; a render at level L applies every fix whose threshold is <= L.
 * The default level is 0 (every legacy behaviour on), which is what templates and the
 * conformance cases expect unless they ask for a level (`:PROPERTIES` `level=N`).
 */
import type { RenderContext } from "../types.js";

/** Lowest level at which each patch's fixed behaviour applies. */
const PATCHES = {
  /** The partial depth counter leaks on a depth breach inside an include. */
  PARTIAL_DEPTH_LEAK: 1,
  /** Comparisons of mixed types are not a total order. */
  COMPARE_TOTAL_ORDER: 1,
  TWITTER_BUTTON_USERNAME: 1,
  MONEY_BAD_DECIMAL: 1,
  MONEY_LOCALE_SYMBOLS: 1,
  MONEY_DOUBLE_ROUNDING: 1,
  /** `mod 0` divides by zero (the instruction fails). */
  MOD_ZERO: 1,
  /** `nth?` with modulus 0 divides by zero (the block fails). */
  NTH_MODULO_ZERO: 1,
  /** `truncate` with a negative length fails. */
  TRUNCATE_NEGATIVE: 1,
  HUMANIZE_DATE_TZ: 1,
  WEEK_MONDAY_ANCHOR: 1,
  SUBPATH_PARENT_SCOPE: 2,
  /** `htmlattr`/`htmltag` leave the single quote as is. */
  HTMLATTR_QUOTE: 2,
  SOCIAL_BUTTON_ATTRIBUTES: 2,
  TWITTER_LINKS_RAW_HTML: 2,
  /** `json`/`json-pretty` emit raw U+2028/U+2029. */
  JSON_LINE_SEPARATORS: 2,
  /** `encode-space` replaces every whitespace character, not just spaces. */
  ENCODE_SPACE_WHITESPACE: 2,
  MONEY_BLANK_PARSE: 2,
  MONEY_UNKNOWN_CURRENCY: 2,
  LEGACY_MONEY_BAD_CURRENCY: 2,
  SPLIT_DIMENSIONS_NONNUMERIC: 2,
  DATETIME_MISSING_EPOCH: 2,
  MESSAGE_ARG_URL_SPLIT: 2,
  CURRENT_TYPE_ARITY: 2,
  /** A keyword predicate argument (`true`) with surrounding whitespace is not JSON. */
  JSON_START_KEYWORD: 2,
  COLOR_WEIGHT_LENGTH: 2,
  /** `format` has no `{{`/`}}` escapes and a bad tag can start a new one. */
  FORMAT_STATE_DIGITS: 2,
  /** `encode-uri` renders "null" for a lone surrogate. */
  ENCODE_URI_SURROGATE: 2,
  /** `encode-uri`/`encode-uri-component` encode `'` as %27. */
  ENCODE_URI_QUOTE: 2,
  CART_QUANTITY_MISSING: 2,
  VARIED_PRICES_NON_ARRAY: 2,
  TIMEZONE_NULL_LITERAL: 3,
  SUMMARY_FIELD_TITLE_ESCAPES: 3,
  PRODUCT_PRICE_TRUE_SLOT: 3,
  DATETIME_INTERVAL_RAW: 3,
  EVAL_INTEGRAL_LONG: 3,
  SCARCITY_MISSING_FIELD: 3,
  STOCK_OVERFLOW: 3,
} as const;

type PatchName = keyof typeof PATCHES;

/** The render's compatibility level (0 when the context does not say). */
function compatLevel(ctx: RenderContext): number {
  const level = ctx.compatLevel;
  return typeof level === "number" && Number.isFinite(level) ? level : 0;
}

/** True when the legacy behaviour of `patch` applies to this render. */
export function legacy(ctx: RenderContext, patch: PatchName): boolean {
  return compatLevel(ctx) < PATCHES[patch];
}
