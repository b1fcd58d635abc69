/**
 * Image formatters: the `data-*` metadata the front-end image loader reads (source, size,
 * focal point, alt text), `<img>` tags, responsive `srcset`s and the averaged colours of an
 * image's regions.
 */
import type { Formatter, RenderContext } from "../types.js";
import { escapeAttr } from "../util/html.js";
import { asNumber, asString, formatNumber, isNumber, isObject, isTruthy } from "../util/values.js";
import { BLOCK_TYPE_IMAGE } from "./enums.js";
import { get, path } from "./node.js";
import { quoteSafe, removeTags } from "./text.js";

/** Image-derived alt text is capped at this many characters. */
const MAX_ALT_TEXT_LENGTH = 1000;

/** Focal point used when an image has none. */
const DEFAULT_FOCAL_POINT = "0.5,0.5";

/** The widths of the resized variants the image service produces, smallest first. */
const IMAGE_VARIANT_WIDTHS: readonly string[] = ["100w", "300w", "500w", "750w", "1000w", "1500w", "2500w"];

function numberText(v: unknown): string {
  return isNumber(v) ? formatNumber(v) : String(asNumber(v));
}

/** "x,y" of the image's `mediaFocalPoint`, or the default centre. */
export function focalPoint(media: unknown): string {
  const point = get(media, "mediaFocalPoint");
  if (point === undefined) return DEFAULT_FOCAL_POINT;
  return `${numberText(get(point, "x"))},${numberText(get(point, "y"))}`;
}

/** Alt text from a content item's own fields: its title, else its body as text (capped), else its filename. */
function altTextFromFields(item: unknown): string {
  const title = get(item, "title");
  if (isTruthy(title)) return asString(title);
  const body = get(item, "body");
  if (isTruthy(body)) {
    const text = removeTags(asString(body));
    if (text.length > 0) return text.substring(0, MAX_ALT_TEXT_LENGTH);
  }
  const filename = get(item, "filename");
  if (isTruthy(filename)) return asString(filename);
  return "";
}

/**
 * The alt text of an image. Inside an image block (the context's `blockType` is the image
 * block) the item's own `altText` is authoritative, even when empty; elsewhere it is
 * derived from the item's fields.
 */
export function altText(ctx: RenderContext, image: unknown): string {
  const blockType = ctx.resolve("blockType");
  if (blockType !== undefined && asNumber(blockType) === BLOCK_TYPE_IMAGE) {
    return asString(get(image, "altText")).trim();
  }
  return altTextFromFields(image);
}

/**
 * The loader attributes of an image, each followed by a space; "" for a missing image.
 * `alt` replaces the computed alt text when given (unescaped).
 */
function imageMeta(image: unknown, ctx: RenderContext, alt?: string): string {
  if (image === undefined) return "";
  const assetUrl = quoteSafe(asString(get(image, "assetUrl")));
  const componentKey = get(image, "componentKey");
  let out = "";
  if (isObject(get(image, "licensedAssetPreview"))) out += 'data-licensed-asset-preview="true" ';
  if (componentKey !== undefined) out += `data-component-key="${quoteSafe(asString(componentKey))}" `;
  out += `data-src="${assetUrl}" `;
  out += `data-image="${assetUrl}" `;
  out += `data-image-dimensions="${quoteSafe(asString(get(image, "originalSize")))}" `;
  out += `data-image-focal-point="${focalPoint(image)}" `;
  out += `alt="${escapeAttr(alt ?? altText(ctx, image))}" `;
  return out;
}

/** `{image|image-meta}`: the loader attributes of the image. */
export const imageMetaFormatter: Formatter = (_args, vars, ctx) => {
  vars[0].value = imageMeta(vars[0].value, ctx);
};

/** `{item|child-image-meta N}`: the loader attributes of the item's N-th child image (default 0). */
export const childImageMetaFormatter: Formatter = (args, vars, ctx) => {
  const index = args.length === 0 ? 0 : Number.parseInt(args[0], 10);
  vars[0].value = imageMeta(path(vars[0].value, ["items", index]), ctx);
};

/** `{page|cover-image-meta}`: the loader attributes of the page's cover image. */
export const coverImageMetaFormatter: Formatter = (_args, vars, ctx) => {
  vars[0].value = imageMeta(get(vars[0].value, "coverImage"), ctx);
};

/**
 * `{image|image [class]}`: a lazy-loading `<img>` (class "thumb-image" by default) with its
 * loader attributes, preceded by a `<noscript>` fallback.
 */
export const imageFormatter: Formatter = (args, vars, ctx) => {
  const image = vars[0].value;
  const cls = args.length === 1 ? args[0] : "thumb-image";
  const alt = altText(ctx, image);
  const assetUrl = quoteSafe(asString(get(image, "assetUrl")));
  let out = `<noscript><img src="${assetUrl}" alt="${escapeAttr(alt)}" /></noscript>`;
  out += `<img class="${quoteSafe(cls)}" `;
  out += imageMeta(image, ctx, alt);
  out += 'data-load="false" ';
  out += `data-image-id="${quoteSafe(asString(get(image, "id")))}" `;
  out += 'data-type="image" />';
  vars[0].value = out;
};

/**
 * `{image|image-srcset}`: a ` srcset="..."` attribute listing the image's width variants
 * (`systemDataVariants` entries ending in "w"). When the largest listed variant is not the
 * largest the service makes, the original file is added as the next size up.
 */
export const imageSrcsetFormatter: Formatter = (_args, vars) => {
  const image = vars[0].value;
  if (image === undefined) return;
  const assetUrl = quoteSafe(asString(get(image, "assetUrl")));
  const variants = asString(get(image, "systemDataVariants"))
    .split(",")
    .filter((v) => v.endsWith("w"));
  if (variants.length === 0) return;
  let original = "";
  const last = variants[variants.length - 1];
  const position = IMAGE_VARIANT_WIDTHS.indexOf(last);
  if (position !== -1 && position < IMAGE_VARIANT_WIDTHS.length - 1) {
    original = `,${assetUrl}?format=original ${IMAGE_VARIANT_WIDTHS[position + 1]}`;
  }
  const list = variants.map((v) => `${assetUrl}?format=${quoteSafe(v)} ${quoteSafe(v)}`).join(",");
  vars[0].value = ` srcset="${list}${original}"`;
};

/** The image regions whose average colour `colorData` holds, in output order. */
export const COLOR_REGIONS: readonly string[] = [
  "topLeft",
  "topRight",
  "bottomLeft",
  "bottomRight",
  "center",
];

/**
 * `{image|image-color}`: `data-color-<region>="#rrggbb"` for every region; with a region
 * argument just that colour, prefixed by `<label>: ` when a second argument is given.
 */
export const imageColorFormatter: Formatter = (args, vars) => {
  const colorData = get(vars[0].value, "colorData");
  if (colorData === undefined) {
    vars[0].value = undefined;
    return;
  }
  let out = "";
  if (args.length > 0) {
    const region = args[0];
    const color = asString(get(colorData, `${region}Average`));
    if (color.length > 0) {
      if (args.length > 1) out += `${args[1]}: `;
      out += `#${color}`;
    } else {
      out += `"${region}" not found.`;
    }
  } else {
    for (const region of COLOR_REGIONS) {
      out += `data-color-${region}="#${quoteSafe(asString(get(colorData, `${region}Average`)))}" `;
    }
  }
  vars[0].value = out;
};
