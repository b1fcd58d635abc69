/**
 * The gallery option set (SPEC §3, §9): every option with its range and default, completed and
 * clamped, so themes and the lightbox island read one shape whatever an owner stored.
 */
import {
  DEFAULT_SLIDER_ASPECT_RATIO,
  GALLERY_CHOICES,
  GALLERY_NUMBER_OPTIONS,
  type GalleryChoice,
} from "@atelier/jsont";

/** Aspect ratios offered for cropped thumbnails, as width:height. */
const ASPECT_RATIOS: Record<string, [number, number]> = {
  square: [1, 1],
  "1:1": [1, 1],
  "4:3": [4, 3],
  "3:2": [3, 2],
  "16:9": [16, 9],
  "2:1": [2, 1],
  "3:4": [3, 4],
  "2:3": [2, 3],
  "9:16": [9, 16],
};
const FLAGS = [
  "autoplay",
  "controls",
  "auto-crop",
  "square-thumbs",
  "thumbnails",
  "show-meta",
  "show-meta-basic",
  "show-meta-only-title",
  "show-meta-on-hover",
  "lightbox",
  "newWindow",
  "transparentBackground",
] as const;
/** Flags are off unless set (as the engine's gallery predicates read them). */
const FLAG_DEFAULTS = Object.fromEntries(FLAGS.map((f) => [f, false])) as Record<
  (typeof FLAGS)[number],
  boolean
>;

/** A choice option's stored value, or its default when it is not one of the option's values. */
function choice<K extends GalleryChoice>(o: Record<string, unknown>, key: K): Choice<K> {
  const { values, default: fallback } = GALLERY_CHOICES[key];
  const v = o[key];
  return typeof v === "string" && (values as readonly string[]).includes(v) ? (v as Choice<K>) : fallback;
}

function flag(v: unknown, fallback: boolean): boolean {
  if (typeof v === "boolean") return v;
  if (v === "true" || v === 1 || v === "1") return true;
  if (v === "false" || v === 0 || v === "0") return false;
  return fallback;
}

function clamp(v: unknown, range: { min: number; max: number; default: number }): number {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) return range.default;
  return Math.min(range.max, Math.max(range.min, Math.round(n)));
}

type Choice<K extends GalleryChoice> = (typeof GALLERY_CHOICES)[K]["values"][number];

type GalleryOptions = Record<string, string | number | boolean> & {
  design: Choice<"design">;
  "aspect-ratio": string;
  "meta-position": Choice<"meta-position">;
  "active-alignment": Choice<"active-alignment">;
  lightboxTheme: Choice<"lightboxTheme">;
};

/** Every option of a gallery, completed with the defaults and clamped to its range. */
export function galleryOptions(raw: Record<string, unknown> | undefined | null): GalleryOptions {
  const o = raw ?? {};
  const out: Record<string, string | number | boolean> = {
    design: choice(o, "design"),
    "aspect-ratio":
      typeof o["aspect-ratio"] === "string" && o["aspect-ratio"] in ASPECT_RATIOS
        ? o["aspect-ratio"]
        : "square",
    "meta-position": choice(o, "meta-position"),
    "active-alignment": choice(o, "active-alignment"),
    lightboxTheme: choice(o, "lightboxTheme"),
  };
  for (const f of FLAGS) out[f] = flag(o[f], FLAG_DEFAULTS[f]);
  for (const [name, range] of Object.entries(GALLERY_NUMBER_OPTIONS)) out[name] = clamp(o[name], range);
  const [w, h] = ASPECT_RATIOS[out["aspect-ratio"] as string] ?? [1, 1];
  // Derived values themes use in inline styles.
  out.aspectRatioCss = `${w} / ${h}`;
  out.sliderHeightPercent = DEFAULT_SLIDER_ASPECT_RATIO;
  out.autoplayMs = (out["autoplay-duration"] as number) * 1000;
  return out as GalleryOptions;
}
