/**
 * Site design through the real app: the owner API's rules (colours, fonts, themes, limits, custom
 * CSS break-outs, partial changes, resets, images of the site's own library, tenancy), and what
 * the published pages show of it at once (the :root block, data-theme, fonts, logo, icons,
 * sharing image, custom CSS), including a theme switch that keeps content and styles.
 */
import { contrastRatio, TEXT_CONTRAST_PAIRS } from "@atelier/owner-api";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { owner, siteApi, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { type Browser, eventually, signedUpOwner } from "../../../test/harness.js";
import { multipartUpload } from "../../../test/multipart.js";
import { CSS_MSG, customCssProblem, decodeCss } from "./css-guard.js";
import { DESIGN_MSG, themeCatalog } from "./service.js";
import { STYLE_MSG, applyStylePatch, effectiveStyles } from "./styles.js";
import { typeScale } from "./tokens.js";

let url: string;

useDemoApp();
beforeAll(() => {
  url = `${siteApi}/design`;
});

const get = async () => (await owner.request({ url })).json();
const patch = (payload: object) => owner.request({ method: "PATCH", url, payload });
const page = (path = "/") => t.app.inject({ url: path, headers: { host: "localhost" } });
/** A change shows a moment after its commit on PostgreSQL (the page cache hears of it by NOTIFY). */
const html = async (path = "/") => (await page(path)).body;

async function upload(b: Browser, site: string, color: string, name = "image.png") {
  const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: color } })
    .png()
    .toBuffer();
  const res = await b.request({
    method: "POST",
    url: `/api/owner/websites/${site}/media`,
    ...multipartUpload({ bytes: png, filename: name, contentType: "image/png" }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().media as { id: string; assetUrl: string };
}

describe("rules without the app", () => {
  it("finds break-outs however they are spelled, and lets ordinary CSS through", () => {
    expect(decodeCss("<\\73 cript>")).toBe("<script>");
    expect(customCssProblem("a{color:red}\n@import 'theme-extra.css';")).toBeUndefined();
    expect(customCssProblem("@import url(/local.css);")).toBeUndefined();
    for (const [css, what] of [
      ["</style><script>alert(1)</script>", "</style>"],
      ["</STYLE >", "</style>"],
      ["a{} <script src=x>", "<script>"],
      ["a{background:url(<\\73 cript)}", "<script>"],
      ['@import "https://evil.example/x.css";', "an @import of another site's stylesheet"],
      ["@import url(//evil.example/x.css);", "an @import of another site's stylesheet"],
      ["@import url( 'http://evil.example/x.css' );", "an @import of another site's stylesheet"],
      ["a{background:url(javascript:alert(1))}", "javascript: URLs"],
      ["a{background:url(java/**/script:alert(1))}", "javascript: URLs"],
      ["a{background:url(\\6a avascript:alert(1))}", "javascript: URLs"],
      ["a{width:expression(alert(1))}", "expression()"],
    ] as const) {
      expect(customCssProblem(css), css).toBe(CSS_MSG.found(what));
    }
    expect(customCssProblem(`a{}${" ".repeat(100 * 1024)}`)).toBe(CSS_MSG.TOO_LARGE);
    expect(customCssProblem(" ".repeat(100 * 1024))).toBeUndefined();
  });

  it("gives every theme defaults that are valid styles with AA contrast", () => {
    expect(themeCatalog().length).toBeGreaterThanOrEqual(6);
    for (const theme of themeCatalog()) {
      const { fields, styles } = applyStylePatch({}, theme.styles as never);
      expect(fields, theme.name).toEqual({});
      expect(effectiveStyles(theme.styles, styles), theme.name).toEqual(theme.styles);
      for (const { fg, bg } of TEXT_CONTRAST_PAIRS)
        expect(
          contrastRatio(theme.styles.colors[fg], theme.styles.colors[bg]),
          `${theme.name} ${fg}`,
        ).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("computes a growing type scale", () => {
    const steps = typeScale(1.25);
    const max = (n: number) => Number(/([\d.]+)rem\)$/.exec(steps[`--step-${n}`]!)?.[1]);
    expect(steps["--step-1"]).toBe("1.25rem");
    for (let n = 3; n <= 5; n++) expect(max(n)).toBeGreaterThan(max(n - 1));
    expect(Number(/([\d.]+)rem\)$/.exec(typeScale(1.5)["--step-5"]!)?.[1])).toBeGreaterThan(max(5));
  });
});

describe("the design API", () => {
  it("answers the theme, six themes, the styles with their defaults, fonts and no images", async () => {
    const res = await owner.request({ url });
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.theme).toBe("commerce");
    expect(d.themes.length).toBeGreaterThanOrEqual(6);
    expect(d.themes.map((x: { id: string }) => x.id)).toEqual(
      expect.arrayContaining(["commerce", "classic", "cover", "market", "studio", "harvest"]),
    );
    for (const theme of d.themes) {
      expect(theme.name).toBeTruthy();
      expect(theme.websiteTypes.length).toBeGreaterThan(0);
    }
    expect(d.styles).toEqual(d.defaults);
    expect(d.defaults.colors.accent).toBe("#2f4a3e");
    expect(d.overrides).toEqual({});
    expect(d.fonts.filter((f: { id: string }) => !f.id.startsWith("system-")).length).toBeGreaterThanOrEqual(
      12,
    );
    expect(d).toMatchObject({ customCss: "", logo: null, siteIcon: null, socialImage: null });
  });

  it("is documented in the OpenAPI document, with the style model", async () => {
    const doc = (await t.app.inject({ url: "/api/openapi.json" })).json();
    const path = doc.paths["/api/owner/sites/{siteId}/design"];
    expect(Object.keys(path).sort()).toEqual(["get", "patch"]);
    const body = path.patch.requestBody.content["application/json"].schema;
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining([
        "theme",
        "styles",
        "customCss",
        "logoMediaId",
        "siteIconMediaId",
        "socialImageMediaId",
      ]),
    );
    const styles = path.get.responses["200"].content["application/json"].schema.properties.styles;
    expect(Object.keys(styles.properties).sort()).toEqual([
      "buttonShape",
      "buttonStyle",
      "colors",
      "contentWidth",
      "fontSizeBase",
      "fonts",
      "headingScale",
      "spacing",
    ]);
  });

  it("refuses bad colours, fonts, themes, numbers and choices with the field's message, saving nothing", async () => {
    const before = await get();
    const cases: [object, string, string][] = [
      [{ styles: { colors: { accent: "#12345" } } }, "styles.colors.accent", STYLE_MSG.COLOR],
      [{ styles: { colors: { text: "rgb(0, 0, 0)" } } }, "styles.colors.text", STYLE_MSG.COLOR],
      [{ styles: { colors: { background: "red" } } }, "styles.colors.background", STYLE_MSG.COLOR],
      [{ styles: { colors: { border: "#ggg" } } }, "styles.colors.border", STYLE_MSG.COLOR],
      [{ styles: { colors: { muted: "#1234567" } } }, "styles.colors.muted", STYLE_MSG.COLOR],
      [{ styles: { fonts: { heading: "comic-sans" } } }, "styles.fonts.heading", STYLE_MSG.FONT],
      [{ theme: "fancy" }, "theme", DESIGN_MSG.THEME],
      [{ styles: { fontSizeBase: 13 } }, "styles.fontSizeBase", STYLE_MSG.fontSizeBase],
      [{ styles: { fontSizeBase: 16.5 } }, "styles.fontSizeBase", STYLE_MSG.fontSizeBase],
      [{ styles: { headingScale: 1.7 } }, "styles.headingScale", STYLE_MSG.headingScale],
      [{ styles: { contentWidth: 2000 } }, "styles.contentWidth", STYLE_MSG.contentWidth],
      [{ styles: { spacing: "roomy" } }, "styles.spacing", STYLE_MSG.spacing],
      [{ styles: { buttonShape: "circle" } }, "styles.buttonShape", STYLE_MSG.buttonShape],
      [{ styles: { buttonStyle: "ghost" } }, "styles.buttonStyle", STYLE_MSG.buttonStyle],
      [{ logoMaxHeight: 10 }, "logoMaxHeight", DESIGN_MSG.LOGO_HEIGHT],
      [{ logoMediaId: "0123456789abcdef01234567" }, "logoMediaId", DESIGN_MSG.MEDIA],
      [{ customCss: `a{}${"x".repeat(100 * 1024)}` }, "customCss", CSS_MSG.TOO_LARGE],
      [{ customCss: "a{}</style><script>alert(1)</script>" }, "customCss", CSS_MSG.found("</style>")],
      [{ customCss: "<script>alert(1)</script>" }, "customCss", CSS_MSG.found("<script>")],
      [
        { customCss: "@import url('https://evil.example/x.css');" },
        "customCss",
        CSS_MSG.found("an @import of another site's stylesheet"),
      ],
      [
        { customCss: "a{background:url(javascript:alert(1))}" },
        "customCss",
        CSS_MSG.found("javascript: URLs"),
      ],
      [{ customCss: "a{width:expression(alert(1))}" }, "customCss", CSS_MSG.found("expression()")],
    ];
    for (const [payload, field, message] of cases) {
      // A good change next to the bad one is not saved either.
      const res = await patch({
        ...payload,
        styles: { colors: { accent: "#ff0000" }, ...("styles" in payload ? (payload.styles as object) : {}) },
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.fields[field], JSON.stringify(payload)).toBe(message);
      expect(res.json().error.message).toBe(Object.values(res.json().error.fields)[0]);
    }
    expect((await patch({ styles: { colors: { accent: 12 } } })).statusCode).toBe(400);
    expect((await patch({ unknown: true })).statusCode).toBe(400);
    expect(await get()).toEqual(before);
  });

  it("merges partial changes, normalises colours and resets a key or everything with null", async () => {
    let res = await patch({ styles: { colors: { accent: "#C33" }, buttonShape: "pill" } });
    expect(res.statusCode, res.body).toBe(200);
    res = await patch({ styles: { fonts: { heading: "lora" }, colors: { text: "#222222" } } });
    let d = res.json();
    expect(d.styles.colors).toMatchObject({ accent: "#cc3333", text: "#222222", background: "#fbfaf7" });
    expect(d.styles.fonts).toEqual({ heading: "lora", body: "inter" });
    expect(d.styles.buttonShape).toBe("pill");
    expect(d.overrides).toEqual({
      colors: { accent: "#cc3333", text: "#222222" },
      fonts: { heading: "lora" },
      buttonShape: "pill",
    });
    d = (await patch({ styles: { colors: { accent: null }, buttonShape: null } })).json();
    expect(d.styles.colors.accent).toBe(d.defaults.colors.accent);
    expect(d.styles.buttonShape).toBe(d.defaults.buttonShape);
    expect(d.styles.colors.text).toBe("#222222");
    d = (await patch({ styles: null })).json();
    expect(d.styles).toEqual(d.defaults);
    expect(d.overrides).toEqual({});
  });

  it("previews the CSS of unsaved styles for the editing frame, saving nothing", async () => {
    const before = await get();
    const preview = (styles: object | null) =>
      owner.request({ method: "POST", url: `${url}/preview`, payload: { styles } });
    const res = await preview({ colors: { accent: "#abc" }, fonts: { body: "merriweather" } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().styles.colors.accent).toBe("#aabbcc");
    expect(res.json().css).toContain('@font-face{font-family:"Merriweather"');
    // The dashboard's preview is there to show the font: it swaps it in.
    expect(res.json().css).toContain("font-display:swap");
    expect(res.json().css).toContain(":root{--color-accent:#aabbcc");
    // Inter stays for the headings only: no longer its body faces.
    expect(res.json().css).toContain('font-family:"Inter";font-style:normal;font-weight:600');
    expect(res.json().css).not.toContain('font-family:"Inter";font-style:italic');
    const bad = await preview({ colors: { accent: "blue" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields["styles.colors.accent"]).toBe(STYLE_MSG.COLOR);
    expect((await preview(null)).json().css).not.toContain(":root");
    expect(await get()).toEqual(before);
  });

  it("warns when text falls below WCAG AA contrast", async () => {
    const d = (await patch({ styles: { colors: { text: "#bbbbbb" } } })).json();
    expect(d.warnings.map((w: { field: string }) => w.field)).toContain("styles.colors.text");
    expect((await patch({ styles: { colors: { text: null } } })).json().warnings).toEqual([]);
    // Muted text is checked too, and the ratio reads as the Styles screen shows it (rounded down).
    const muted = (await patch({ styles: { colors: { muted: "#949494" } } })).json().warnings;
    expect(muted).toEqual([
      {
        field: "styles.colors.muted",
        message: expect.stringMatching(
          /^Muted text on background has a contrast of \d\.\d:1, below the 4\.5:1 that WCAG AA asks for\.$/,
        ),
      },
    ]);
    expect((await patch({ styles: { colors: { muted: null } } })).json().warnings).toEqual([]);
  });

  it("is not another owner's to read or change", async () => {
    const eve = await signedUpOwner(t, "eve-design@example.com");
    const before = await get();
    const read = await eve.request({ url });
    expect(read.statusCode).toBe(404);
    expect(read.json().error.message).toBe("No such site.");
    const write = await eve.request({ method: "PATCH", url, payload: { customCss: "body{display:none}" } });
    expect(write.statusCode).toBe(404);
    // Nor may an owner use another site's image.
    const evesSite = (
      await eve.request({
        method: "POST",
        url: "/api/owner/sites",
        payload: { title: "Eve", theme: "classic" },
      })
    ).json().site.id;
    const theirs = await upload(eve, evesSite, "#00ff00");
    const steal = await patch({ logoMediaId: theirs.id });
    expect(steal.statusCode).toBe(400);
    expect(steal.json().error.fields.logoMediaId).toBe(DESIGN_MSG.MEDIA);
    expect(await get()).toEqual(before);
  });
});

describe("the published site", () => {
  it("carries data-theme, the theme's fonts and no :root block while nothing is changed", async () => {
    const body = await html("/");
    expect(body).toContain('data-theme="commerce"');
    expect(body).not.toContain('id="site-styles"');
    // The commerce theme is set in Inter: its faces only, optional (a late face never moves the
    // page; it was swap, which re-wrapped text under the visitor), and the body's regular preloaded.
    const faces = [...body.matchAll(/@font-face\{font-family:"([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(faces)).toEqual(new Set(["Inter"]));
    expect(body).toContain("font-display:optional");
    expect(body).not.toContain("font-display:swap");
    const preload =
      /<link rel="preload" href="(\/assets\/fonts\/inter-400-normal\.[a-f0-9]{12}\.woff2)" as="font"/.exec(
        body,
      );
    expect(preload).toBeTruthy();
    const font = await t.app.inject({ url: preload![1]! });
    expect(font.statusCode).toBe(200);
    expect(font.headers["content-type"]).toBe("font/woff2");
    expect(font.headers["cache-control"]).toContain("immutable");
    expect(font.rawPayload.subarray(0, 4).toString("latin1")).toBe("wOF2");
    expect(
      (await t.app.inject({ url: "/assets/fonts/inter-400-normal.000000000000.woff2" })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: "/assets/fonts/..%2f..%2fpackage.json" })).statusCode).toBe(404);
  });

  it("shows a change at once: the :root block after the theme CSS, the fonts used, custom CSS last", async () => {
    const warm = await page("/shop");
    expect(warm.statusCode).toBe(200);
    expect((await page("/shop")).headers["x-page-cache"]).toBe("hit");
    const res = await patch({
      styles: {
        colors: { accent: "#cc3333" },
        fonts: { heading: "playfair-display", body: "system-sans" },
        buttonStyle: "outline",
        contentWidth: 1000,
      },
      customCss: ".site-title{letter-spacing:.2em}",
    });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(async () => (await html("/shop")).includes("--color-accent:#cc3333")).toBe(true);
    const body = await html("/shop");
    const root = /<style id="site-styles">(:root\{[^<]*\})<\/style>/.exec(body)?.[1] ?? "";
    expect(root).toContain("--color-accent:#cc3333");
    expect(root).toContain('--font-heading:"Playfair Display"');
    expect(root).toContain("--button-bg:transparent");
    expect(root).toContain("--container:1000px");
    // Only what differs from the theme: the background and the scale are not there.
    expect(root).not.toContain("--color-bg:");
    expect(root).not.toContain("--step-");
    const faces = new Set([...body.matchAll(/@font-face\{font-family:"([^"]+)"/g)].map((m) => m[1]));
    expect(faces).toEqual(new Set(["Playfair Display"]));
    const themeCss = body.indexOf('<link rel="stylesheet" href="/assets/themes/commerce.');
    const custom =
      /<link rel="stylesheet" id="custom-css" href="(\/assets\/site-css\/custom\.[a-f0-9]{12}\.css)">/.exec(
        body,
      );
    expect(themeCss).toBeGreaterThan(-1);
    expect(custom).toBeTruthy();
    expect(body.indexOf('id="site-styles"')).toBeGreaterThan(themeCss);
    expect(body.indexOf('id="custom-css"')).toBeGreaterThan(body.indexOf('id="site-styles"'));
    const css = await t.app.inject({ url: custom![1]!, headers: { host: "localhost" } });
    expect(css.statusCode).toBe(200);
    expect(css.headers["content-type"]).toContain("text/css");
    expect(css.headers["cache-control"]).toContain("immutable");
    expect(css.body).toBe(".site-title{letter-spacing:.2em}");
    // Every theme stylesheet reads the tokens it is given.
    const sheet = (await t.app.inject({ url: /href="(\/assets\/themes\/[^"]+)"/.exec(body)![1]! })).body;
    for (const token of [
      "--button-bg",
      "--button-radius",
      "--font-size-base",
      "--container",
      "--color-accent",
    ])
      expect(sheet, token).toContain(`var(${token})`);
    // Reset: back to the theme's own look.
    await patch({ styles: null, customCss: "" });
    await eventually(async () => (await html("/shop")).includes('id="site-styles"')).toBe(false);
    expect(await html("/shop")).not.toContain('id="custom-css"');
  });

  it("keeps content and styles when the theme changes, on every page", async () => {
    const before = (await page("/shop?format=json")).json();
    await patch({ styles: { colors: { accent: "#0055aa" } } });
    const res = await patch({ theme: "harvest" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().theme).toBe("harvest");
    expect(res.json().styles.colors.accent).toBe("#0055aa");
    expect(res.json().defaults.fonts.heading).toBe("playfair-display");
    await eventually(async () => (await html("/shop")).includes('data-theme="harvest"')).toBe(true);
    for (const path of ["/", "/shop", "/blog", "/events", "/does-not-exist"]) {
      const body = await html(path);
      expect(body, path).toContain('data-theme="harvest"');
      expect(body, path).toContain("--color-accent:#0055aa");
      expect(body, path).toMatch(
        /<link rel="stylesheet" href="\/assets\/themes\/harvest\.[a-f0-9]{12}\.css">/,
      );
    }
    // Harvest sets its headings in Playfair Display, also in italic, and its text in Lora.
    const faces = [
      ...(await html("/")).matchAll(/@font-face\{font-family:"([^"]+)";font-style:(\w+);font-weight:(\d+)/g),
    ].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    expect(faces.sort()).toEqual([
      "Lora italic 400",
      "Lora normal 400",
      "Lora normal 700",
      "Playfair Display italic 600",
      "Playfair Display normal 600",
    ]);
    const after = (await page("/shop?format=json")).json();
    expect(after.items.map((i: { title: string }) => i.title)).toEqual(
      before.items.map((i: { title: string }) => i.title),
    );
    await patch({ theme: "commerce", styles: null });
    await eventually(async () => (await html("/")).includes('data-theme="commerce"')).toBe(true);
  });

  it("shows the logo, the site icons and the default sharing image", async () => {
    const logo = await upload(owner, siteId, "#123456", "logo.png");
    const icon = await upload(owner, siteId, "#aa2200", "icon.png");
    const social = await upload(owner, siteId, "#00aa22", "share.png");
    const res = await patch({
      logoMediaId: logo.id,
      logoAlt: 'Atelier "Demo" logo',
      logoMaxHeight: 64,
      siteIconMediaId: icon.id,
      socialImageMediaId: social.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().logo).toEqual({
      mediaId: logo.id,
      url: logo.assetUrl,
      alt: 'Atelier "Demo" logo',
      maxHeight: 64,
    });
    expect(res.json().siteIcon).toEqual({ mediaId: icon.id, url: icon.assetUrl });
    await eventually(async () => (await html("/")).includes("site-logo")).toBe(true);
    const body = await html("/");
    expect(body).toContain(
      `<img class="site-logo" src="${logo.assetUrl}" alt="Atelier &quot;Demo&quot; logo" width="400" height="200" style="max-height:64px">`,
    );
    const links: Record<string, string> = {};
    for (const m of body.matchAll(
      /<link rel="(icon|apple-touch-icon)"(?: type="image\/png")? sizes="(\d+)x\d+" href="([^"]+)">/g,
    ))
      links[`${m[1]} ${m[2]}`] = m[3]!;
    expect(Object.keys(links).sort()).toEqual(["apple-touch-icon 180", "icon 16", "icon 192", "icon 32"]);
    for (const [key, href] of Object.entries(links)) {
      const png = await t.app.inject({ url: href, headers: { host: "localhost" } });
      expect(png.statusCode, key).toBe(200);
      expect(png.headers["content-type"]).toBe("image/png");
      expect(png.headers["cache-control"]).toContain("immutable");
      const meta = await sharp(png.rawPayload).metadata();
      const size = Number(key.split(" ")[1]);
      expect([meta.format, meta.width, meta.height]).toEqual(["png", size, size]);
    }
    // Another site's host does not serve this site's icon.
    expect(
      (await t.app.inject({ url: links["icon 32"]!, headers: { host: "nowhere.localhost" } })).statusCode,
    ).toBe(404);
    // The home page has no image of its own: it shares the site's default.
    expect(body).toContain(
      `<meta property="og:image" content="http://localhost${social.assetUrl}?format=1500w">`,
    );
    expect(body).toContain('<meta name="twitter:card" content="summary_large_image">');
    // Removing the logo brings the title back.
    await patch({ logoMediaId: null, siteIconMediaId: null, socialImageMediaId: null });
    await eventually(async () => (await html("/")).includes("site-logo")).toBe(false);
    expect(await html("/")).toContain('<a class="site-title" href="/">Atelier Demo</a>');
  });
});
