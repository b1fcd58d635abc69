/**
 * `@font-face` rules of every curated font, for the dashboard's Design → Styles screen: its font
 * list shows each family in its own face, and its preview frame can show a font the site does not
 * use yet. Browsers download only the files a page actually uses; published pages never load this.
 */
import type { FastifyPluginAsync } from "fastify";
import { FONTS, type FontFile, fontFaceCss, fontFile } from "./fonts.js";

const WEIGHTS = [400, 500, 600, 700];

let css: string | undefined;

function allFontFacesCss(): string {
  if (css === undefined) {
    const faces = FONTS.flatMap((f) =>
      WEIGHTS.map((weight) => fontFile(f.id, { weight, style: "normal" })).filter(
        (x): x is FontFile => x !== undefined,
      ),
    );
    css = fontFaceCss(faces);
  }
  return css;
}

export const fontPreviewRoutes: FastifyPluginAsync = async (app) => {
  app.get("/assets/font-preview.css", { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type("text/css; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(allFontFacesCss()),
  );
};
