import { describe, expect, it } from "vitest";
import { galleryOptions, galleryPredicates } from "./gallery.js";
import { fakeContext } from "./testing.js";

const table = galleryPredicates();
const test = (name: string, options: unknown) => table[name]([], fakeContext({}).push({ options }));

describe("gallery predicates", () => {
  it("select options match exactly, with no default", () => {
    expect(test("gallery-design-slider?", { design: "slider" })).toBe(true);
    expect(test("gallery-design-grid?", {})).toBe(false);
    expect(test("gallery-meta-position-top-left?", { "meta-position": "top-left" })).toBe(true);
    expect(test("gallery-meta-position-top?", { "meta-position": "top-left" })).toBe(false);
    expect(test("gallery-active-alignment-right?", { "active-alignment": "right" })).toBe(true);
  });

  it("flags are true only when set", () => {
    expect(test("gallery-autoplay?", { autoplay: true })).toBe(true);
    expect(test("gallery-square-thumbs?", { "square-thumbs": "true" })).toBe(true);
    expect(test("gallery-lightbox?", { lightbox: false })).toBe(false);
    expect(test("gallery-thumbnails?", {})).toBe(false);
  });

  it("gallery-meta? is on with controls or indicators", () => {
    expect(test("gallery-meta?", { indicators: true })).toBe(true);
    expect(test("gallery-meta?", {})).toBe(false);
  });
});

/** The numeric gallery options, in the order they are given here. */
const numbers = (
  autoplayDuration: number,
  stripHeight: number,
  stripMargin: number,
  perRow: number,
  padding: number,
  maxWidth: number,
) => ({
  "autoplay-duration": autoplayDuration,
  "thumbnail-strip-height": stripHeight,
  "thumbnail-strip-margin": stripMargin,
  "thumbnails-per-row": perRow,
  padding,
  "max-width": maxWidth,
});

describe("gallery options", () => {
  it("fills in the defaults", () => {
    const o = galleryOptions({});
    expect(o.design).toBe("grid");
    expect(o["aspect-ratio"]).toBe("square");
    expect(o["meta-position"]).toBe("bottom");
    expect(o["active-alignment"]).toBe("center");
    expect(o.lightboxTheme).toBe("dark");
    expect(o.numbers).toEqual(numbers(5, 80, 20, 4, 20, 300));
    expect(o.flags.autoplay).toBe(false);
  });

  it("clamps numbers to their ranges and rejects unknown choices", () => {
    const o = galleryOptions({
      design: "carousel",
      "autoplay-duration": 0,
      "thumbnail-strip-height": 500,
      "thumbnail-strip-margin": "30",
      "thumbnails-per-row": 11,
      padding: -3,
      "max-width": 50,
      lightbox: true,
    });
    expect(o.design).toBe("grid");
    expect(o.numbers).toEqual(numbers(1, 200, 30, 10, 0, 100));
    expect(o.flags.lightbox).toBe(true);
  });
});
