/**
 * Formatters over "WIDTHxHEIGHT" size strings (an image's `originalSize`): each side,
 * proportional resizing, and the image-service variant width to request.
 */
import type { Formatter } from "../types.js";
import { asString } from "../util/values.js";

const INVALID_SIZE_MESSAGE = "Invalid source parameter. Pass in 'originalSize'";

/** The two sides of a "WxH" string as integers, or null when it is not of that form. */
function splitDimensions(value: unknown): [number, number] | null {
  const parts = asString(value).split("x");
  if (parts.length !== 2) return null;
  return [Number.parseInt(parts[0], 10), Number.parseInt(parts[1], 10)];
}

/** Truncates toward zero to a 32-bit integer; non-finite values give 0. */
function toInt(n: number): number {
  return n | 0;
}

/**
 * The other side of `size` scaled so that one side equals `requested`: the width for a
 * requested height when `forHeight`, else the height for a requested width.
 */
function resize(size: unknown, forHeight: boolean, requested: number): number | string {
  const parts = splitDimensions(size);
  if (parts === null) return INVALID_SIZE_MESSAGE;
  const [width, height] = parts;
  return toInt(forHeight ? width * (requested / height) : height * (requested / width));
}

/** Variant width buckets: the first bound the width does not exceed picks the variant. */
const WIDTH_BUCKETS: readonly [number, string][] = [
  [100, "100w"],
  [300, "300w"],
  [500, "500w"],
  [750, "750w"],
  [1000, "1000w"],
];

/** The smallest image-service variant at least `width` wide (1500w above 1000). */
export function variantForWidth(width: number): string {
  for (const [bound, variant] of WIDTH_BUCKETS) {
    if (!(width > bound)) return variant;
  }
  return "1500w";
}

function side(index: 0 | 1): Formatter {
  return (_args, vars) => {
    const parts = splitDimensions(vars[0].value);
    const n = parts === null ? Number.NaN : parts[index];
    vars[0].value = Number.isNaN(n) ? undefined : n;
  };
}

/** `{size|width}`: the width of a "WxH" size. */
export const widthFormatter: Formatter = side(0);

/** `{size|height}`: the height of a "WxH" size. */
export const heightFormatter: Formatter = side(1);

/** `{size|resizedHeightForWidth W}`: the height of the size scaled to width W. */
export const resizedHeightForWidthFormatter: Formatter = (args, vars) => {
  vars[0].value = resize(vars[0].value, false, Number.parseInt(args[0], 10));
};

/** `{size|resizedWidthForHeight H}`: the width of the size scaled to height H. */
export const resizedWidthForHeightFormatter: Formatter = (args, vars) => {
  vars[0].value = resize(vars[0].value, true, Number.parseInt(args[0], 10));
};

/** `{size|squarespaceThumbnailForWidth W}`: the variant to request for width W. */
export const thumbnailForWidthFormatter: Formatter = (args, vars) => {
  vars[0].value = variantForWidth(Number.parseInt(args[0], 10));
};

/** `{size|squarespaceThumbnailForHeight H}`: the variant to request to show the size at height H. */
export const thumbnailForHeightFormatter: Formatter = (args, vars) => {
  const width = resize(vars[0].value, true, Number.parseInt(args[0], 10));
  vars[0].value = typeof width === "number" ? variantForWidth(width) : width;
};
