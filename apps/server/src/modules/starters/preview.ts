/**
 * A starter's screenshot for the dashboard's "new site" cards: a drawing of its home page in its
 * theme's colours, with its navigation, headline and the same generated artwork its site gets.
 */
import { escapeXml } from "../../lib/escape.js";
import { readThemeInfo } from "../../render/themes.js";
import { type Motif, artworkSvg } from "../../seed/art.js";
import type { Starter } from "./kit.js";

/** One generated artwork placed in the drawing, scaled into its box. */
function art(name: string, motif: Motif, x: number, y: number, w: number, h: number): string {
  const inner = artworkSvg(name, motif).svg.replace(/<title>[\s\S]*?<\/title>/, "");
  return inner.replace(
    /^<svg [^>]*viewBox="([^"]+)">/,
    (_m, box: string) =>
      `<svg x="${x}" y="${y}" width="${w}" height="${h}" viewBox="${box}" preserveAspectRatio="xMidYMid slice">`,
  );
}

/** The pictures a starter's cards show: its products, posts or gallery, else variations of its motif. */
function cardArt(starter: Starter): { name: string; motif: Motif }[] {
  const pages = starter.pages;
  const fromItems = pages.flatMap((p) => [
    ...(p.products ?? []).map((x) => ({ name: x.title, motif: x.motif })),
    ...(p.posts ?? []).map((x) => ({ name: x.title, motif: x.motif })),
    ...(p.images ?? []).map((x) => ({ name: x.title, motif: x.motif })),
  ]);
  if (fromItems.length >= 3) return fromItems.slice(0, 3);
  const motifs: Motif[] = ["circle", "arch", "vessel"];
  return motifs.map((motif, i) => ({ name: `${starter.name} ${i + 1}`, motif }));
}

/** The starter's screenshot, 1280 × 800. */
export function starterScreenshotSvg(starter: Starter): string {
  const { colors } = readThemeInfo(starter.theme).styles as unknown as {
    colors: Record<string, string>;
  };
  const bg = colors.background ?? "#ffffff";
  const fg = colors.text ?? "#111111";
  const accent = colors.accent ?? "#333333";
  const accentText = colors.accentText ?? "#ffffff";
  const muted = colors.muted ?? "#666666";
  const nav = starter.pages
    .filter((p) => !p.isHome)
    .map(
      (p, i) => `<text x="${760 + i * 120}" y="58" font-size="20" fill="${fg}">${escapeXml(p.title)}</text>`,
    )
    .join("");
  const cards = cardArt(starter)
    .map((c, i) => {
      const x = 80 + i * 384;
      return `${art(c.name, c.motif, x, 560, 352, 200)}<text x="${x}" y="790" font-size="18" fill="${muted}">${escapeXml(c.name)}</text>`;
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="800" viewBox="0 0 1280 800" font-family="Helvetica, Arial, sans-serif">
<title>${escapeXml(starter.name)}</title>
<rect width="1280" height="800" fill="${bg}"/>
<text x="80" y="60" font-size="26" font-weight="700" fill="${fg}">${escapeXml(starter.name)}</text>
${nav}
<line x1="0" y1="100" x2="1280" y2="100" stroke="${muted}" stroke-opacity=".25"/>
${art(`${starter.name} hero`, starter.motif, 680, 140, 520, 380)}
<text x="80" y="250" font-size="50" font-weight="700" fill="${fg}">${escapeXml(starter.tagline.split(" ").slice(0, 3).join(" "))}</text>
<text x="80" y="310" font-size="50" font-weight="700" fill="${fg}">${escapeXml(starter.tagline.split(" ").slice(3).join(" "))}</text>
<text x="80" y="370" font-size="22" fill="${muted}">${escapeXml(starter.description.slice(0, 52))}</text>
<rect x="80" y="420" width="220" height="56" rx="28" fill="${accent}"/>
<text x="190" y="455" font-size="20" text-anchor="middle" fill="${accentText}">Get started</text>
${cards}
</svg>`;
}
