/** `video`: the wrapper of an embedded video, with an optional thumbnail overlay. */
import type { Formatter } from "../types.js";
import { escapeAttr } from "../util/html.js";
import { asString, isTruthy } from "../util/values.js";
import { COLOR_REGIONS, focalPoint } from "./images.js";
import { get } from "./node.js";
import { quoteSafe } from "./text.js";

/**
 * `{item|video [load-false] [color-data]}`: a video wrapper carrying the item's oEmbed HTML
 * and provider. When the item has an `overlay`, a thumbnail overlay is added (its image when
 * the item has a main image, else a "no-thumb" overlay). `load-false` marks the wrapper for
 * deferred loading; `color-data` adds the thumbnail's region colours.
 */
export const videoFormatter: Formatter = (args, vars) => {
  const item = vars[0].value;
  const oembed = get(item, "oembed");
  const colorData = get(item, "colorData");
  const loadFalse = args.includes("load-false");
  const useColorData = args.includes("color-data");

  let out = '<div class="sqs-video-wrapper" ';
  if (loadFalse) out += ' data-load="false" ';
  out += `data-html="${escapeAttr(asString(get(oembed, "html")))}" `;
  out += `data-provider-name="${quoteSafe(asString(get(oembed, "providerName")))}">`;

  if (isTruthy(get(item, "overlay"))) {
    out += '<div class="sqs-video-overlay';
    if (isTruthy(get(item, "mainImageId")) || isTruthy(get(item, "systemDataId"))) {
      out += '" style="opacity: 0;">';
      out += `<img data-load="false" data-src="${quoteSafe(asString(get(item, "assetUrl")))}" `;
      out += `data-image-dimensions="${quoteSafe(asString(get(item, "originalSize")))}" `;
      out += `data-image-focal-point="${focalPoint(item)}" `;
      if (useColorData && isTruthy(colorData)) {
        for (const region of COLOR_REGIONS) {
          const color = quoteSafe(asString(get(colorData, `${region}Average`)));
          out += `data-color-${region.toLowerCase()}="#${color}" `;
        }
      }
      out += "/>";
    } else {
      out += ' no-thumb" style="opacity: 0;">';
    }
    out += '<div class="sqs-video-opaque"> </div><div class="sqs-video-icon"></div></div>';
  }
  vars[0].value = `${out}</div>`;
};
