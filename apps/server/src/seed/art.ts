/**
 * Generated artwork for the demo site: calm, flat still-life illustrations as SVG, so the demo
 * looks real without downloading a single image.
 */

const palettes = [
  { bg: "#efe6da", fg: "#b5653f", accent: "#3d5a4c" },
  { bg: "#e4ebe6", fg: "#3d5a4c", accent: "#c99a52" },
  { bg: "#ebe3ef", fg: "#6b4e7a", accent: "#e0a458" },
  { bg: "#f3ede4", fg: "#2f3e52", accent: "#c4553d" },
  { bg: "#e6edf3", fg: "#35607e", accent: "#d9b26f" },
  { bg: "#f4e9e1", fg: "#8c4a32", accent: "#51735f" },
  { bg: "#ece9e2", fg: "#4a4a44", accent: "#b98a4e" },
  { bg: "#e9efe4", fg: "#55733f", accent: "#a8553a" },
];

export type Motif = "vessel" | "cloth" | "board" | "circle" | "arch" | "stack" | "card" | "bag" | "landscape";

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function motifShapes(motif: Motif, fg: string, accent: string, r: number): string {
  switch (motif) {
    case "vessel":
      return `<path d="M470 300 q-10 90 -90 160 q-70 70 -40 220 q20 120 260 120 q240 0 260 -120 q30 -150 -40 -220 q-80 -70 -90 -160 z" fill="${fg}"/>
<rect x="455" y="270" width="290" height="40" rx="14" fill="${fg}"/>
<path d="M360 640 q240 40 480 0" stroke="${accent}" stroke-width="14" fill="none" stroke-linecap="round"/>`;
    case "cloth":
      return `<path d="M330 300 h540 l-40 600 h-460 z" fill="${fg}"/>
<path d="M380 380 h440 M370 470 h460 M365 560 h470" stroke="${accent}" stroke-width="10" opacity=".55"/>
<rect x="520" y="240" width="160" height="90" rx="20" fill="none" stroke="${fg}" stroke-width="22"/>`;
    case "board":
      return `<rect x="330" y="380" width="540" height="420" rx="${60 + (r % 80)}" fill="${fg}"/>
<circle cx="600" cy="330" r="48" fill="none" stroke="${fg}" stroke-width="26"/>
<path d="M400 520 q200 -50 400 0 M410 640 q190 50 380 0" stroke="${accent}" stroke-width="8" fill="none" opacity=".6"/>`;
    case "circle":
      return `<circle cx="600" cy="600" r="270" fill="${fg}"/><circle cx="600" cy="600" r="120" fill="${accent}"/>`;
    case "arch":
      return `<path d="M360 900 v-320 a240 240 0 0 1 480 0 v320 z" fill="${fg}"/><circle cx="600" cy="520" r="70" fill="${accent}"/>`;
    case "stack":
      return `<rect x="380" y="720" width="440" height="90" rx="18" fill="${fg}"/>
<rect x="410" y="620" width="380" height="90" rx="18" fill="${accent}"/>
<rect x="440" y="520" width="320" height="90" rx="18" fill="${fg}" opacity=".8"/>
<rect x="470" y="420" width="260" height="90" rx="18" fill="${accent}" opacity=".8"/>`;
    case "card":
      return `<rect x="300" y="420" width="600" height="370" rx="36" fill="${fg}"/>
<rect x="350" y="480" width="170" height="110" rx="16" fill="${accent}"/>
<path d="M350 700 h330" stroke="#fff" stroke-width="20" stroke-linecap="round" opacity=".75"/>`;
    case "bag":
      return `<path d="M380 470 h440 l40 430 h-520 z" fill="${fg}"/>
<path d="M490 480 v-70 a110 110 0 0 1 220 0 v70" stroke="${fg}" stroke-width="26" fill="none"/>
<circle cx="600" cy="660" r="60" fill="${accent}"/>`;
    case "landscape":
      return `<circle cx="830" cy="360" r="90" fill="${accent}"/>
<path d="M0 820 l300 -330 l220 240 l170 -170 l510 470 v170 h-1200 z" fill="${fg}"/>
<path d="M0 960 q300 -120 600 -40 t600 -30 v310 h-1200 z" fill="${fg}" opacity=".7"/>`;
  }
}

/** A 1200×1200 (or 1600×1000 for landscapes) SVG for the given name. */
export function artworkSvg(name: string, motif: Motif): { svg: string; width: number; height: number } {
  const h = hash(name);
  const p = palettes[h % palettes.length]!;
  const width = 1200;
  const height = motif === "landscape" ? 900 : 1200;
  const shapes = motifShapes(motif, p.fg, p.accent, h);
  const shadowY =
    motif === "landscape" ? "" : `<ellipse cx="600" cy="960" rx="330" ry="34" fill="#000" opacity=".07"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1200 ${height}">
<title>${name.replace(/[<&>"]/g, "")}</title>
<rect width="1200" height="${height}" fill="${p.bg}"/>
${shadowY}
${shapes}
</svg>`;
  return { svg, width, height };
}
