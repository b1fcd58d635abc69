/**
 * Gallery options: the predicates templates use to test a gallery's `options`, and the
 * option set with its documented ranges and defaults for code that stores or renders
 * galleries (the settings panel, the server).
 */
import type { Predicate, PredicateTable } from "../types.js";
import { asBoolean, asNumber, asString, isNumber, isTruthy } from "../util/values.js";
import { get } from "./node.js";

export const GALLERY_DESIGNS = ["grid", "slideshow", "slider", "stacked"] as const;
export const GALLERY_META_POSITIONS = [
  "top",
  "top-left",
  "top-right",
  "center",
  "bottom",
  "bottom-left",
  "bottom-right",
] as const;
export const GALLERY_ACTIVE_ALIGNMENTS = ["center", "left", "right"] as const;
const GALLERY_FLAGS = [
  "autoplay",
  "auto-crop",
  "controls",
  "lightbox",
  "square-thumbs",
  "show-meta",
  "show-meta-on-hover",
  "thumbnails",
] as const;
export const GALLERY_LIGHTBOX_THEMES = ["dark", "light"] as const;

/** The gallery options that take one of a list of values: the values and the default. */
export const GALLERY_CHOICES = {
  design: { values: GALLERY_DESIGNS, default: "grid" },
  "meta-position": { values: GALLERY_META_POSITIONS, default: "bottom" },
  "active-alignment": { values: GALLERY_ACTIVE_ALIGNMENTS, default: "center" },
  lightboxTheme: { values: GALLERY_LIGHTBOX_THEMES, default: "dark" },
} as const;

export type GalleryChoice = keyof typeof GALLERY_CHOICES;
type Choice<K extends GalleryChoice> = (typeof GALLERY_CHOICES)[K]["values"][number];

type GalleryDesign = (typeof GALLERY_DESIGNS)[number];
type GalleryMetaPosition = (typeof GALLERY_META_POSITIONS)[number];
type GalleryActiveAlignment = (typeof GALLERY_ACTIVE_ALIGNMENTS)[number];

/** Numeric gallery options: allowed range (inclusive) and default. */
export const GALLERY_NUMBER_OPTIONS = {
  "autoplay-duration": { min: 1, max: 10, default: 5 },
  "thumbnail-strip-height": { min: 0, max: 200, default: 80 },
  "thumbnail-strip-margin": { min: 0, max: 60, default: 20 },
  "thumbnails-per-row": { min: 1, max: 10, default: 4 },
  padding: { min: 0, max: 50, default: 20 },
  "max-width": { min: 100, max: 300, default: 300 },
} as const;

type GalleryNumberOption = keyof typeof GALLERY_NUMBER_OPTIONS;

/** Default aspect ratio of slider galleries. */
export const DEFAULT_SLIDER_ASPECT_RATIO = 50;

interface GalleryOptions {
  design: GalleryDesign;
  "aspect-ratio": string;
  "meta-position": GalleryMetaPosition;
  "active-alignment": GalleryActiveAlignment;
  lightboxTheme: string;
  flags: Record<(typeof GALLERY_FLAGS)[number], boolean>;
  numbers: Record<GalleryNumberOption, number>;
  "show-meta-basic": boolean;
  "show-meta-only-title": boolean;
  newWindow: boolean;
  transparentBackground: boolean;
}

/** The value of a choice option, or its default when it is not one of the option's values. */
function choice<K extends GalleryChoice>(options: unknown, key: K): Choice<K> {
  const { values, default: fallback } = GALLERY_CHOICES[key];
  const text = asString(get(options, key));
  return (values as readonly string[]).includes(text) ? (text as Choice<K>) : fallback;
}

function numberIn(value: unknown, range: { min: number; max: number; default: number }): number {
  const n = isNumber(value) || typeof value === "string" ? asNumber(value) : Number.NaN;
  if (!Number.isFinite(n)) return range.default;
  return Math.min(range.max, Math.max(range.min, n));
}

/**
 * A gallery's options completed with the defaults (design grid, aspect ratio square, meta
 * position bottom, active alignment center, lightbox theme dark) and with each numeric
 * option clamped to its range (unset or unreadable values take the default).
 */
export function galleryOptions(options: unknown): GalleryOptions {
  const flags = {} as GalleryOptions["flags"];
  for (const flag of GALLERY_FLAGS) flags[flag] = isTruthy(get(options, flag));
  const numbers = {} as GalleryOptions["numbers"];
  for (const name of Object.keys(GALLERY_NUMBER_OPTIONS) as GalleryNumberOption[]) {
    numbers[name] = numberIn(get(options, name), GALLERY_NUMBER_OPTIONS[name]);
  }
  const aspect = asString(get(options, "aspect-ratio"));
  return {
    design: choice(options, "design"),
    "aspect-ratio": aspect === "" ? "square" : aspect,
    "meta-position": choice(options, "meta-position"),
    "active-alignment": choice(options, "active-alignment"),
    lightboxTheme: choice(options, "lightboxTheme"),
    flags,
    numbers,
    "show-meta-basic": isTruthy(get(options, "show-meta-basic")),
    "show-meta-only-title": isTruthy(get(options, "show-meta-only-title")),
    newWindow: isTruthy(get(options, "newWindow")),
    transparentBackground: isTruthy(get(options, "transparentBackground")),
  };
}

/** `gallery-<flag>?`: the flag is set in the `options` in context (unset is false). */
function flagPredicate(flag: string): Predicate {
  return (_args, ctx) => {
    const value = get(ctx.resolve("options"), flag);
    return value === undefined ? false : asBoolean(value);
  };
}

/** `gallery-<option>-<value>?`: the option in context has exactly that value (no default applies). */
function selectPredicate(option: string, value: string): Predicate {
  return (_args, ctx) => {
    const current = get(ctx.resolve("options"), option);
    return current !== undefined && asString(current) === value;
  };
}

/** `gallery-meta?`: the gallery shows controls or indicators. */
const galleryMetaPredicate: Predicate = (_args, ctx) => {
  const options = ctx.resolve("options");
  return isTruthy(get(options, "controls")) || isTruthy(get(options, "indicators"));
};

/** The gallery predicates, keyed with their trailing "?". */
export function galleryPredicates(): PredicateTable {
  const table: PredicateTable = { "gallery-meta?": galleryMetaPredicate };
  for (const design of GALLERY_DESIGNS)
    table[`gallery-design-${design}?`] = selectPredicate("design", design);
  for (const position of GALLERY_META_POSITIONS) {
    table[`gallery-meta-position-${position}?`] = selectPredicate("meta-position", position);
  }
  for (const alignment of GALLERY_ACTIVE_ALIGNMENTS) {
    table[`gallery-active-alignment-${alignment}?`] = selectPredicate("active-alignment", alignment);
  }
  for (const flag of GALLERY_FLAGS) table[`gallery-${flag}?`] = flagPredicate(flag);
  return table;
}
