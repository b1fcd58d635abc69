import { describe, expect, it } from "vitest";
import { sanitizeRichText } from "./sanitize-html.js";

const LIBRARY = "/media/0123456789abcdef01234567/kiln.png";

describe("images in rich text", () => {
  it("keeps an image from the media library or https: with its alt, pixel size and one alignment", () => {
    expect(
      sanitizeRichText(
        `<p><img src="${LIBRARY}" alt="Kiln" width="300" height="200" class="alignleft size-medium wp-image-5" style="border:0" onerror="x" srcset="a 1x"></p>`,
      ),
    ).toBe(`<p><img src="${LIBRARY}" alt="Kiln" width="300" height="200" class="image-left" /></p>`);
    expect(sanitizeRichText('<img src="https://cdn.example/a.jpg" class="aligncenter">')).toBe(
      '<img src="https://cdn.example/a.jpg" alt="" class="image-center" />',
    );
    expect(sanitizeRichText(`<img src="${LIBRARY}" class="alignright">`)).toContain('class="image-right"');
    expect(sanitizeRichText(`<img src="${LIBRARY}" class="alignnone">`)).toContain('class="image-inline"');
    expect(sanitizeRichText(`<img src="${LIBRARY}" class="image-center">`)).toContain('class="image-center"');
    expect(sanitizeRichText(`<img src="${LIBRARY}" width="100%" height="-3">`)).toBe(
      `<img src="${LIBRARY}" alt="" />`,
    );
  });

  it("drops images from anywhere else, and what it dropped before", () => {
    for (const src of [
      "http://old.example/a.jpg",
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "/media/../../etc/passwd",
      "/elsewhere/a.png",
      "//cdn.example/a.png",
      "",
    ])
      expect(sanitizeRichText(`<p>a<img src="${src}">b</p>`), src).toBe("<p>ab</p>");
    expect(
      sanitizeRichText("<img src=x onerror=alert(1)>ok<script>alert(2)</script><iframe src=x></iframe>"),
    ).toBe("ok");
    expect(
      sanitizeRichText(
        '<figure><img src="https://a.example/b.png" alt="B"><figcaption>B</figcaption></figure>',
      ),
    ).toBe('<img src="https://a.example/b.png" alt="B" />B');
  });
});
