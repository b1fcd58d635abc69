import { describe, expect, it } from "vitest";
import { fakeContext, format } from "./testing.js";
import { videoFormatter } from "./video.js";

const clip = {
  oembed: { html: '<iframe src="x"></iframe>', providerName: "vimeo" },
  originalSize: "1280x720",
  assetUrl: "/thumb.jpg",
  overlay: true,
  systemDataId: "sd",
  colorData: {
    topLeftAverage: "010101",
    topRightAverage: "020202",
    bottomLeftAverage: "030303",
    bottomRightAverage: "040404",
    centerAverage: "050505",
  },
};

describe("video", () => {
  it("wraps the embed with a thumbnail overlay and colours", () => {
    expect(format(videoFormatter, clip, fakeContext({}), ["load-false", "color-data"])).toBe(
      '<div class="sqs-video-wrapper"  data-load="false" data-html="&lt;iframe src=&quot;x&quot;&gt;&lt;/iframe&gt;" ' +
        'data-provider-name="vimeo"><div class="sqs-video-overlay" style="opacity: 0;"><img data-load="false" ' +
        'data-src="/thumb.jpg" data-image-dimensions="1280x720" data-image-focal-point="0.5,0.5" ' +
        'data-color-topleft="#010101" data-color-topright="#020202" data-color-bottomleft="#030303" ' +
        'data-color-bottomright="#040404" data-color-center="#050505" />' +
        '<div class="sqs-video-opaque"> </div><div class="sqs-video-icon"></div></div></div>',
    );
  });

  it("uses a no-thumb overlay without a main image, and no overlay when off", () => {
    const noThumb = { ...clip, systemDataId: undefined };
    expect(format(videoFormatter, noThumb, fakeContext({}))).toContain(
      '<div class="sqs-video-overlay no-thumb" style="opacity: 0;"><div class="sqs-video-opaque">',
    );
    expect(format(videoFormatter, { ...clip, overlay: false }, fakeContext({}))).toBe(
      '<div class="sqs-video-wrapper" data-html="&lt;iframe src=&quot;x&quot;&gt;&lt;/iframe&gt;" data-provider-name="vimeo"></div>',
    );
  });
});
