import { describe, expect, it } from "vitest";
import {
  altText,
  childImageMetaFormatter,
  coverImageMetaFormatter,
  focalPoint,
  imageColorFormatter,
  imageFormatter,
  imageMetaFormatter,
  imageSrcsetFormatter,
} from "./images.js";
import { fakeContext, format } from "./testing.js";

const photo = {
  id: "img-42",
  title: "Harbour at dawn",
  originalSize: "1600x900",
  assetUrl: "/static/harbour.jpg",
  mediaFocalPoint: { x: 0.25, y: 0.8 },
};

describe("focal point and alt text", () => {
  it("uses the media focal point or the centre", () => {
    expect(focalPoint(photo)).toBe("0.25,0.8");
    expect(focalPoint({})).toBe("0.5,0.5");
  });

  it("derives alt text from title, then body text, then filename", () => {
    const ctx = fakeContext({});
    expect(altText(ctx, { title: "T", body: "B", filename: "f.jpg" })).toBe("T");
    expect(altText(ctx, { title: "", body: "<p>Hi</p><p>there</p>", filename: "f.jpg" })).toBe(" Hi  there ");
    expect(altText(ctx, { title: "", body: "", filename: "f.jpg" })).toBe("f.jpg");
    expect(altText(ctx, {})).toBe("");
  });

  it("caps body-derived alt text at 1000 characters", () => {
    const ctx = fakeContext({});
    expect(altText(ctx, { body: "a".repeat(1500) })).toHaveLength(1000);
  });

  it("uses the item's altText inside an image block, even when empty", () => {
    const ctx = fakeContext({ blockType: 5 });
    expect(altText(ctx, { title: "ignored", altText: "  caption " })).toBe("caption");
    expect(altText(ctx, { title: "ignored", altText: "" })).toBe("");
  });
});

describe("image meta formatters", () => {
  it("writes the loader attributes", () => {
    const out = format(imageMetaFormatter, { ...photo, licensedAssetPreview: {} }, fakeContext({}));
    expect(out).toBe(
      'data-licensed-asset-preview="true" data-src="/static/harbour.jpg" data-image="/static/harbour.jpg" ' +
        'data-image-dimensions="1600x900" data-image-focal-point="0.25,0.8" alt="Harbour at dawn" ',
    );
  });

  it("escapes the alt text and adds the component key", () => {
    const out = String(
      format(imageMetaFormatter, { title: 'Say "hi" & <go>', componentKey: "k1" }, fakeContext({})),
    );
    expect(out).toContain('data-component-key="k1" ');
    expect(out).toContain('alt="Say &quot;hi&quot; &amp; &lt;go&gt;" ');
  });

  it("picks a child image by index and is empty when there is none", () => {
    const gallery = { items: [{ title: "first" }, { title: "second", assetUrl: "/2.jpg" }] };
    const ctx = fakeContext(gallery);
    expect(format(childImageMetaFormatter, gallery, ctx, ["1"])).toContain('alt="second"');
    expect(format(childImageMetaFormatter, gallery, ctx)).toContain('alt="first"');
    expect(format(childImageMetaFormatter, gallery, ctx, ["5"])).toBe("");
  });

  it("reads the cover image of a page", () => {
    const out = format(coverImageMetaFormatter, { coverImage: photo }, fakeContext({}));
    expect(out).toContain('data-src="/static/harbour.jpg"');
  });
});

describe("image", () => {
  it("renders a noscript fallback and a lazy image", () => {
    expect(format(imageFormatter, photo, fakeContext(photo))).toBe(
      '<noscript><img src="/static/harbour.jpg" alt="Harbour at dawn" /></noscript>' +
        '<img class="thumb-image" data-src="/static/harbour.jpg" data-image="/static/harbour.jpg" ' +
        'data-image-dimensions="1600x900" data-image-focal-point="0.25,0.8" alt="Harbour at dawn" ' +
        'data-load="false" data-image-id="img-42" data-type="image" />',
    );
  });

  it("takes a class argument", () => {
    expect(format(imageFormatter, photo, fakeContext({}), ["hero"])).toContain('<img class="hero" ');
  });
});

describe("image-srcset", () => {
  it("lists width variants and adds the original as the next size up", () => {
    const image = { assetUrl: "/a.png", systemDataVariants: "800x600,100w,300w,500w" };
    expect(format(imageSrcsetFormatter, image, fakeContext({}))).toBe(
      ' srcset="/a.png?format=100w 100w,/a.png?format=300w 300w,/a.png?format=500w 500w,/a.png?format=original 750w"',
    );
  });

  it("adds no original when the largest size is listed or the size is unknown", () => {
    const full = { assetUrl: "/a.png", systemDataVariants: "1500w,2500w" };
    expect(format(imageSrcsetFormatter, full, fakeContext({}))).toBe(
      ' srcset="/a.png?format=1500w 1500w,/a.png?format=2500w 2500w"',
    );
    const odd = { assetUrl: "/a.png", systemDataVariants: "120w" };
    expect(format(imageSrcsetFormatter, odd, fakeContext({}))).toBe(' srcset="/a.png?format=120w 120w"');
  });

  it("leaves a missing image or one without variants untouched", () => {
    expect(format(imageSrcsetFormatter, undefined, fakeContext({}))).toBeUndefined();
    const none = { assetUrl: "/a.png", systemDataVariants: "800x600" };
    expect(format(imageSrcsetFormatter, none, fakeContext({}))).toBe(none);
  });
});

describe("image-color", () => {
  const image = { colorData: { topLeftAverage: "aaa", centerAverage: "123456" } };

  it("writes every region", () => {
    expect(format(imageColorFormatter, image, fakeContext({}))).toBe(
      'data-color-topLeft="#aaa" data-color-topRight="#" data-color-bottomLeft="#" data-color-bottomRight="#" data-color-center="#123456" ',
    );
  });

  it("writes one region, optionally labelled, or says it is not found", () => {
    expect(format(imageColorFormatter, image, fakeContext({}), ["center"])).toBe("#123456");
    expect(format(imageColorFormatter, image, fakeContext({}), ["center", "color"])).toBe("color: #123456");
    expect(format(imageColorFormatter, image, fakeContext({}), ["bottomLeft"])).toBe(
      '"bottomLeft" not found.',
    );
  });

  it("is missing without colour data", () => {
    expect(format(imageColorFormatter, {}, fakeContext({}))).toBeUndefined();
  });
});
