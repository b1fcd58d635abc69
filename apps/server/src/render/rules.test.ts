/**
 * The renderer's pure rules: HTML sanitising, gallery options, embeds, menus, search queries, cache,
 * what goes into a theme's stylesheet.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { snippetHtml, toPrefixQuery } from "../modules/search/service.js";
import { parseVariant, safeFilename, variantWidthsFor } from "../modules/media/service.js";
import { embedFor, mapLink, parseMenuText, readLayout } from "./blocks.js";
import { PageCache } from "./cache.js";
import { galleryOptions } from "./gallery.js";
import { cartLabel } from "./routes.js";
import { htmlToText, safeUrl, sanitizeHtml } from "./sanitize.js";
import { THEMES_DIR, loadTheme, readThemeInfo } from "./themes.js";

describe("sanitizeHtml", () => {
  it("keeps formatting, links and images", () => {
    expect(
      sanitizeHtml(
        '<h2>Hi</h2><p>A <a href="/x" title="t">link</a> and <img src="https://a.b/c.png" alt="c"></p>',
      ),
    ).toBe('<h2>Hi</h2><p>A <a href="/x" title="t">link</a> and <img src="https://a.b/c.png" alt="c" /></p>');
  });

  it("drops scripts, styles, event handlers and dangerous URLs", () => {
    const out = sanitizeHtml(
      '<p onclick="x()">a</p><script>alert(1)</script><style>p{}</style><a href="javascript:alert(1)">b</a><a href=" jav&#x09;ascript:alert(2)">c</a><img src="data:text/html,<b>" onerror="y()"><svg onload="z()"><circle/></svg>',
    );
    expect(out).toBe("<p>a</p><a>b</a><a>c</a><img />");
  });

  it("keeps HTTPS iframes only where allowed, sandboxed, and never data-island", () => {
    const html =
      '<iframe src="https://player.example/v" allow="autoplay; camera" onload="x"></iframe><iframe src="http://x.example/"></iframe><div data-island="checkout" data-id="7">x</div>';
    expect(sanitizeHtml(html)).toBe('<div data-id="7">x</div>');
    expect(sanitizeHtml(html, { allowIframes: true })).toBe(
      '<iframe src="https://player.example/v" allow="autoplay" sandbox="allow-scripts allow-same-origin allow-popups allow-presentation allow-forms" loading="lazy"></iframe><div data-id="7">x</div>',
    );
  });

  it("forces safe link targets and closes what is left open", () => {
    expect(sanitizeHtml('<a href="https://x.example" target="_top">x')).toBe(
      '<a href="https://x.example" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    expect(sanitizeHtml("<ul><li>one<li>two</ul></div>")).toBe("<ul><li>one</li><li>two</li></ul>");
    expect(sanitizeHtml("1 < 2 & 3 > 2")).toBe("1 &lt; 2 &amp; 3 &gt; 2");
  });

  it("filters styles that load things or escape the page", () => {
    expect(sanitizeHtml('<p style="color: red; background: url(x); position: fixed">x</p>')).toBe(
      '<p style="color: red">x</p>',
    );
  });

  it("tells safe URLs from unsafe ones, and turns HTML into text", () => {
    expect(safeUrl("mailto:a@b.c", { tag: "a" })).toBe("mailto:a@b.c");
    expect(safeUrl("mailto:a@b.c", { tag: "img" })).toBeUndefined();
    expect(safeUrl("vbscript:x")).toBeUndefined();
    expect(safeUrl("/path?q=1")).toBe("/path?q=1");
    expect(htmlToText("<p>Tom &amp; Jerry</p><script>x()</script><p>again</p>")).toBe("Tom & Jerry again");
  });
});

describe("gallery options", () => {
  it("completes the option set with the SPEC's defaults", () => {
    expect(galleryOptions({})).toMatchObject({
      design: "grid",
      "aspect-ratio": "square",
      "meta-position": "bottom",
      "active-alignment": "center",
      lightboxTheme: "dark",
      "autoplay-duration": 5,
      "thumbnail-strip-height": 80,
      "thumbnail-strip-margin": 20,
      "thumbnails-per-row": 4,
      padding: 20,
      "max-width": 300,
      autoplay: false,
      lightbox: false,
      sliderHeightPercent: 50,
    });
  });

  it("clamps every number to its range and refuses unknown choices", () => {
    const o = galleryOptions({
      design: "carousel",
      "autoplay-duration": 0,
      "thumbnail-strip-height": 999,
      "thumbnail-strip-margin": -1,
      "thumbnails-per-row": "12",
      padding: 51,
      "max-width": 50,
      "meta-position": "middle",
      "active-alignment": "right",
      lightboxTheme: "light",
      "aspect-ratio": "16:9",
      lightbox: "true",
    });
    expect(o).toMatchObject({
      design: "grid",
      "autoplay-duration": 1,
      "thumbnail-strip-height": 200,
      "thumbnail-strip-margin": 0,
      "thumbnails-per-row": 10,
      padding: 50,
      "max-width": 100,
      "meta-position": "bottom",
      "active-alignment": "right",
      lightboxTheme: "light",
      aspectRatioCss: "16 / 9",
      lightbox: true,
      autoplayMs: 1000,
    });
  });
});

describe("blocks", () => {
  it("embeds YouTube, Vimeo and SoundCloud links, and nothing else", () => {
    expect(embedFor("https://youtu.be/dQw4w9WgXcQ")?.html).toContain(
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
    );
    expect(embedFor("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3")?.providerName).toBe("YouTube");
    expect(embedFor("https://vimeo.com/76979871")?.html).toContain("https://player.vimeo.com/video/76979871");
    expect(embedFor("https://soundcloud.com/a/b")?.providerName).toBe("SoundCloud");
    expect(embedFor("https://example.com/video")).toBeUndefined();
    expect(embedFor("not a url")).toBeUndefined();
  });

  it("reads menu text: sections and 'name | price | description' lines", () => {
    expect(parseMenuText("# Drinks\nTea | 3.00 | Loose leaf\nCoffee | 3.50\n\n# Cakes\nScone")).toEqual([
      {
        title: "",
        sections: [
          {
            title: "Drinks",
            items: [
              { name: "Tea", price: "3.00", description: "Loose leaf" },
              { name: "Coffee", price: "3.50", description: "" },
            ],
          },
          { title: "Cakes", items: [{ name: "Scone", price: "", description: "" }] },
        ],
      },
    ]);
  });

  it("reads a layout defensively and keeps at most 60 blocks", () => {
    const blocks = Array.from({ length: 40 }, (_, i) => ({ id: `b${i}`, type: "text" }));
    const layout = readLayout({
      rows: [
        {
          columns: [
            { span: 6, blocks },
            { span: 99, blocks },
          ],
        },
        null,
        { columns: "x" },
        { columns: [{ blocks: [1, null] }] },
      ],
    });
    expect(layout.rows).toHaveLength(1);
    expect(layout.rows[0]!.columns.map((c) => [c.span, c.blocks.length])).toEqual([
      [6, 40],
      [6, 20],
    ]);
    expect(readLayout(null)).toEqual({ rows: [] });
  });

  it("links a place to a map by its coordinates or its address", () => {
    expect(mapLink({ lat: 1.5, lng: -2 }, "x")).toBe(
      "https://www.openstreetmap.org/?mlat=1.5&mlon=-2#map=16/1.5/-2",
    );
    expect(mapLink(undefined, "1 Quay St, Portsmouth")).toBe(
      "https://www.openstreetmap.org/search?query=1%20Quay%20St%2C%20Portsmouth",
    );
  });
});

describe("search queries and snippets", () => {
  it("turns words into a prefix query and nothing into nothing", () => {
    expect(toPrefixQuery("Linen  apro")).toBe("'linen':* & 'apro':*");
    expect(toPrefixQuery("o'brien & <x>")).toBe("'o':* & 'brien':* & 'x':*");
    expect(toPrefixQuery(" ,;! ")).toBeUndefined();
  });

  it("escapes snippets but the highlight marks", () => {
    expect(snippetHtml("a \u0001linen\u0002 <b>apron</b> &amp; more")).toBe(
      "a <mark>linen</mark> &lt;b&gt;apron&lt;/b&gt; &amp; more",
    );
  });

  it("marks with an ellipsis where a snippet is cut out of its text", () => {
    const text = "Our mugs are thrown by hand.\n  Each \u00a0one &amp; its glaze differ. Wash them cool.";
    expect(snippetHtml("Our \u0001mugs\u0002 are thrown", text)).toBe("Our <mark>mugs</mark> are thrown…");
    expect(snippetHtml("its \u0001glaze\u0002 differ. Wash them cool.", text)).toBe(
      "…its <mark>glaze</mark> differ. Wash them cool.",
    );
    expect(snippetHtml("\u0001mugs\u0002 are … one &amp; its", text)).toBe(
      "…<mark>mugs</mark> are … one &amp; its…",
    );
    expect(snippetHtml(text, text)).toBe(
      "Our mugs are thrown by hand. Each one &amp; its glaze differ. Wash them cool.",
    );
  });
});

describe("images", () => {
  it("offers the SPEC's width buckets up to the original's width", () => {
    expect(variantWidthsFor(1200)).toEqual([100, 300, 500, 750, 1000]);
    expect(variantWidthsFor(4000)).toEqual([100, 300, 500, 750, 1000, 1500]);
    expect(variantWidthsFor(60)).toEqual([100]);
    expect(parseVariant("750w")).toBe(750);
    expect(parseVariant("original")).toBeUndefined();
    expect(parseVariant("200w")).toBeUndefined();
    expect(safeFilename("../Été Photo (1).JPEG", "image/jpeg")).toBe("ete-photo-1.jpg");
  });
});

describe("cart count and page cache", () => {
  it("caps the header count at 100, shown as 100+", () => {
    expect([0, 1, 100, 101, 150].map(cartLabel)).toEqual(["0", "1", "100", "100+", "100+"]);
  });

  it("answers a page only for the version it was rendered at and evicts the oldest", () => {
    const cache = new PageCache(2, 1_000_000);
    const page = (version: number) => ({
      version,
      status: 200,
      parts: ["x"],
      bodies: new Map(),
      ready: new Map(),
      bytes: 10,
    });
    cache.set("a", page(1));
    expect(cache.get("a", 1)).toBeDefined();
    expect(cache.get("a", 2)).toBeUndefined();
    cache.set("a", page(3));
    cache.set("a", page(2));
    expect(cache.get("a", 3)).toBeDefined();
    cache.set("b", page(1));
    cache.set("c", page(1));
    expect(cache.size).toBe(2);
    expect(cache.get("a", 3)).toBeUndefined();
  });
});

describe("theme stylesheets", () => {
  it("have the centred masthead's rules where theme.json asks for it", () => {
    const centred = readFileSync(path.join(THEMES_DIR, "base/css/masthead/centred.css"), "utf8");
    for (const name of ["classic", "harvest"]) expect(loadTheme(name).css).toContain(centred);
    for (const name of ["commerce", "cover"]) {
      expect(readThemeInfo(name).masthead).toBe("row");
      expect(loadTheme(name).css).not.toContain(centred);
    }
  });

  it("set the shop grid's columns from theme.json's productGridColumns", () => {
    expect(loadTheme("commerce").css).toContain("--grid-columns:4");
    expect(loadTheme("classic").css).toContain("--grid-columns:3");
  });

  it("refuse a theme.json with an unknown masthead or a grid of no sense", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-theme-"));
    const odd = (meta: object) => {
      writeFileSync(path.join(dir, "odd/theme.json"), JSON.stringify({ title: "Odd", ...meta }));
      return () => readThemeInfo("odd", dir);
    };
    try {
      mkdirSync(path.join(dir, "odd"));
      expect(odd({ masthead: "left" })).toThrow(/masthead must be one of row, centred/);
      for (const columns of [0, 2.5, "3", 7])
        expect(odd({ settings: { productGridColumns: columns } })).toThrow(/productGridColumns/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
