/**
 * The one layout of every email a site sends (order emails, recovery reminders, campaigns,
 * invitations, password resets): the site's logo, colours and fonts around a list of blocks,
 * rendered to email-safe HTML (tables for layout, CSS inlined as juice inlines it, image widths
 * set, no script) and to a plain-text part made from the same blocks.
 */
import type { Db } from "../../db/client.js";
import { escapeHtml } from "../../lib/escape.js";
import { fontById } from "../design/fonts.js";
import { emailDesignOf } from "../design/service.js";
import type { Website } from "../sites/service.js";
import { inlineLayoutCss, juiceEmailPage, juicedPage } from "./inline-css.js";

/** What an email takes from the site: its name, address, colours, fonts and logo. */
export interface EmailBrand {
  siteTitle: string;
  /** The site's address (origin), for the logo, relative links and the footer. */
  siteUrl: string;
  colors: {
    background: string;
    text: string;
    accent: string;
    accentText: string;
    muted: string;
    border: string;
  };
  fonts: { heading: string; body: string };
  logo: { url: string; alt: string; height: number } | null;
  buttonRadius: string;
}

export interface EmailItem {
  name: string;
  /** Options, e.g. "Size: M, Colour: Blue". */
  details?: string;
  quantity?: number;
  /** The formatted price of the line. */
  price?: string;
  imageUrl?: string | null;
  url?: string;
}

export type EmailBlock =
  | { type: "heading"; text: string }
  /** Plain text: escaped, line breaks kept. */
  | { type: "text"; text: string }
  /** Rich text the caller has already made safe (sanitised HTML), with its plain-text twin. */
  | { type: "html"; html: string; text: string }
  | { type: "button"; text: string; url: string }
  | { type: "image"; url: string; alt: string; href?: string }
  | { type: "items"; items: EmailItem[] }
  /** Label and value rows; the last one is the total, in bold. */
  | { type: "totals"; rows: [string, string][] }
  /** A row of product cards (image, name, price, link). */
  | { type: "products"; items: EmailItem[] }
  | { type: "divider" }
  | { type: "spacer"; height?: number }
  | { type: "social"; links: { label: string; url: string }[] };

export interface EmailDocument {
  /** The line mail clients show after the subject. */
  preheader?: string;
  blocks: EmailBlock[];
  /** Small print below the content: the store's address, why they get this email. */
  footer?: string[];
  /** Marketing mail: each recipient's own one-click unsubscribe link. */
  unsubscribeUrl?: string;
}

const WIDTH = 600;
const FALLBACK_FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const RADIUS = { square: "0px", rounded: "6px", pill: "999px" } as const;

export type EmailDesign = Awaited<ReturnType<typeof emailDesignOf>>;

/** The brand of a site's emails, from its design (colours, fonts, logo). */
export async function emailBrandOf(
  db: Db,
  site: Pick<Website, "id" | "title" | "theme" | "websiteType">,
  siteUrl: string,
  /** The site's email design when the caller keeps it already (per content version). */
  design?: EmailDesign,
): Promise<EmailBrand> {
  const { styles, logo } = design ?? (await emailDesignOf(db, site));
  const origin = siteUrl.replace(/\/+$/, "");
  return {
    siteTitle: site.title,
    siteUrl: origin,
    colors: { ...styles.colors },
    fonts: {
      heading: fontById(styles.fonts.heading)?.stack ?? FALLBACK_FONT,
      body: fontById(styles.fonts.body)?.stack ?? FALLBACK_FONT,
    },
    logo: logo ? { url: absolute(origin, logo.path), alt: logo.alt, height: logo.maxHeight } : null,
    buttonRadius: RADIUS[styles.buttonShape] ?? RADIUS.rounded,
  };
}

/** The brand of the platform's own emails (account security): Atelier's name and neutral colours. */
export function platformBrand(publicUrl: string): EmailBrand {
  return {
    siteTitle: "Atelier",
    siteUrl: publicUrl.replace(/\/+$/, ""),
    colors: {
      background: "#ffffff",
      text: "#1f2328",
      accent: "#2f5bd3",
      accentText: "#ffffff",
      muted: "#5b6470",
      border: "#e6e8eb",
    },
    fonts: { heading: FALLBACK_FONT, body: FALLBACK_FONT },
    logo: null,
    buttonRadius: RADIUS.rounded,
  };
}

function absolute(origin: string, url: string): string {
  try {
    return new URL(url, `${origin}/`).toString();
  } catch {
    return url;
  }
}

const attr = (s: string) => escapeHtml(s);
const textHtml = (s: string) => escapeHtml(s).replace(/\r?\n/g, "<br>");

function itemsHtml(b: EmailBrand, items: EmailItem[]): string {
  const rows = items.map((it) => {
    const img = it.imageUrl
      ? `<td class="item-img" width="64"><img src="${attr(absolute(b.siteUrl, it.imageUrl))}" width="64" height="64" alt="" style="display:block;width:64px;height:64px;object-fit:cover"></td>`
      : "";
    const name = it.url
      ? `<a href="${attr(absolute(b.siteUrl, it.url))}">${escapeHtml(it.name)}</a>`
      : escapeHtml(it.name);
    const qty = it.quantity !== undefined ? `<div class="muted">Quantity: ${it.quantity}</div>` : "";
    const details = it.details ? `<div class="muted">${escapeHtml(it.details)}</div>` : "";
    return `<tr>${img}<td class="item-name"><strong>${name}</strong>${details}${qty}</td><td class="item-price" align="right">${escapeHtml(it.price ?? "")}</td></tr>`;
  });
  return `<table role="presentation" class="items" width="100%" cellpadding="0" cellspacing="0">${rows.join("")}</table>`;
}

function productsHtml(b: EmailBrand, items: EmailItem[]): string {
  const per = Math.max(1, Math.min(3, items.length));
  const cell = Math.floor((WIDTH - 48) / per);
  const cards = items.slice(0, 3).map((it) => {
    const href = attr(absolute(b.siteUrl, it.url ?? "/"));
    const img = it.imageUrl
      ? `<a href="${href}"><img src="${attr(absolute(b.siteUrl, it.imageUrl))}" width="${cell - 16}" alt="${attr(it.name)}" style="display:block;width:100%;max-width:${cell - 16}px;height:auto"></a>`
      : "";
    return `<td class="product" valign="top" width="${cell}">${img}<p class="product-name"><a href="${href}">${escapeHtml(it.name)}</a></p>${it.price ? `<p class="muted">${escapeHtml(it.price)}</p>` : ""}</td>`;
  });
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr>${cards.join("")}</tr></table>`;
}

function blockHtml(b: EmailBrand, block: EmailBlock): string {
  switch (block.type) {
    case "heading":
      return `<h1>${escapeHtml(block.text)}</h1>`;
    case "text":
      return `<p>${textHtml(block.text)}</p>`;
    case "html":
      return `<div class="rich">${block.html}</div>`;
    case "button":
      return `<table role="presentation" cellpadding="0" cellspacing="0" class="button-wrap"><tr><td class="button"><a href="${attr(absolute(b.siteUrl, block.url))}">${escapeHtml(block.text)}</a></td></tr></table>`;
    case "image": {
      const img = `<img src="${attr(absolute(b.siteUrl, block.url))}" width="${WIDTH - 48}" alt="${attr(block.alt)}" style="display:block;width:100%;max-width:${WIDTH - 48}px;height:auto">`;
      return block.href ? `<a href="${attr(absolute(b.siteUrl, block.href))}">${img}</a>` : img;
    }
    case "items":
      return itemsHtml(b, block.items);
    case "totals":
      return `<table role="presentation" class="totals" width="100%" cellpadding="0" cellspacing="0">${block.rows
        .map(
          ([k, v], i) =>
            `<tr${i === block.rows.length - 1 ? ' class="total"' : ""}><td>${escapeHtml(k)}</td><td align="right">${escapeHtml(v)}</td></tr>`,
        )
        .join("")}</table>`;
    case "products":
      return productsHtml(b, block.items);
    case "divider":
      return `<hr>`;
    case "spacer":
      return `<div style="height:${Math.max(4, Math.min(96, block.height ?? 24))}px;line-height:1px">&nbsp;</div>`;
    case "social":
      return `<p class="social">${block.links
        .map((l) => `<a href="${attr(absolute(b.siteUrl, l.url))}">${escapeHtml(l.label)}</a>`)
        .join(" &middot; ")}</p>`;
  }
}

function blockText(b: EmailBrand, block: EmailBlock): string {
  switch (block.type) {
    case "heading":
      return block.text.toUpperCase();
    case "text":
      return block.text;
    case "html":
      return block.text;
    case "button":
      return `${block.text}: ${absolute(b.siteUrl, block.url)}`;
    case "image":
      return block.alt ? `[${block.alt}]` : "";
    case "items":
    case "products":
      return block.items
        .map((it) =>
          [
            `${it.quantity !== undefined ? `${it.quantity} × ` : ""}${it.name}${it.details ? ` (${it.details})` : ""}${it.price ? `  ${it.price}` : ""}`,
            ...(it.url ? [absolute(b.siteUrl, it.url)] : []),
          ].join("\n"),
        )
        .join("\n");
    case "totals":
      return block.rows.map(([k, v]) => `${k}: ${v}`).join("\n");
    case "divider":
      return "—";
    case "spacer":
      return "";
    case "social":
      return block.links.map((l) => `${l.label}: ${absolute(b.siteUrl, l.url)}`).join("\n");
  }
}

function stylesheet(b: EmailBrand): string {
  const c = b.colors;
  return `
body{margin:0;padding:0;background:${c.border};}
.outer{background:${c.border};}
.card{background:${c.background};color:${c.text};font-family:${b.fonts.body};font-size:16px;line-height:1.55;}
.header{padding:24px 24px 8px 24px;text-align:center;font-family:${b.fonts.heading};font-size:22px;}
.header a{color:${c.text};text-decoration:none;}
.content{padding:8px 24px 24px 24px;}
h1{font-family:${b.fonts.heading};font-size:24px;line-height:1.25;margin:16px 0 12px 0;color:${c.text};font-weight:700;}
p{margin:0 0 14px 0;}
a{color:${c.accent};}
hr{border:0;border-top:1px solid ${c.border};margin:20px 0;}
.muted{color:${c.muted};font-size:14px;}
.button-wrap{margin:8px 0 18px 0;}
.button{background:${c.accent};border-radius:${b.buttonRadius};}
.button a{display:inline-block;padding:12px 22px;color:${c.accentText};text-decoration:none;font-weight:600;font-family:${b.fonts.body};}
.items td{padding:10px 0;border-bottom:1px solid ${c.border};vertical-align:top;}
.item-img{padding-right:12px !important;}
.item-name a{color:${c.text};text-decoration:none;}
.item-price{white-space:nowrap;padding-left:12px !important;}
.totals td{padding:4px 0;}
.totals .total td{font-weight:700;border-top:1px solid ${c.border};padding-top:8px;}
.product{padding:0 8px 12px 8px;}
.product-name{margin:8px 0 2px 0;}
.product-name a{color:${c.text};text-decoration:none;font-weight:600;}
.footer{padding:16px 24px 24px 24px;color:${c.muted};font-size:12px;line-height:1.5;text-align:center;font-family:${b.fonts.body};}
.footer a{color:${c.muted};}
.preheader{display:none;max-height:0;overflow:hidden;opacity:0;}
@media (max-width:620px){.card,.footer-wrap{width:100% !important;}.content,.header,.footer{padding-left:16px !important;padding-right:16px !important;}}
`;
}

/** The email's page before inlining: the stylesheet in its head, the blocks in the layout. */
function emailPage(brand: EmailBrand, doc: EmailDocument, css: string): string {
  const title = escapeHtml(brand.siteTitle);
  const header = brand.logo
    ? `<a href="${attr(brand.siteUrl)}/"><img src="${attr(brand.logo.url)}" alt="${attr(brand.logo.alt || brand.siteTitle)}" height="${Math.min(brand.logo.height, 80)}" style="height:${Math.min(brand.logo.height, 80)}px;width:auto;border:0"></a>`
    : `<a href="${attr(brand.siteUrl)}/">${title}</a>`;
  const footerLines = [...(doc.footer ?? [])];
  const footer = [
    ...footerLines.map((l) => `<div>${escapeHtml(l)}</div>`),
    `<div><a href="${attr(brand.siteUrl)}/">${title}</a></div>`,
    ...(doc.unsubscribeUrl ? [`<div><a href="${attr(doc.unsubscribeUrl)}">Unsubscribe</a></div>`] : []),
  ].join("");
  const body = doc.blocks.map((block) => blockHtml(brand, block)).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light"><title>${title}</title><style>${css}</style></head><body>
${doc.preheader ? `<div class="preheader">${escapeHtml(doc.preheader)}</div>` : ""}
<table role="presentation" class="outer" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 8px">
<table role="presentation" class="card" width="${WIDTH}" cellpadding="0" cellspacing="0" style="width:${WIDTH}px;max-width:100%">
<tr><td class="header">${header}</td></tr>
<tr><td class="content">${body}</td></tr>
</table>
<table role="presentation" class="footer-wrap" width="${WIDTH}" cellpadding="0" cellspacing="0" style="width:${WIDTH}px;max-width:100%"><tr><td class="footer">${footer}</td></tr></table>
</td></tr></table></body></html>`;
}

function emailText(brand: EmailBrand, doc: EmailDocument): string {
  return [
    brand.siteTitle,
    "",
    ...doc.blocks.map((block) => blockText(brand, block)).filter((t) => t !== ""),
    "",
    "—",
    ...(doc.footer ?? []),
    `${brand.siteUrl}/`,
    ...(doc.unsubscribeUrl ? [`Unsubscribe: ${doc.unsubscribeUrl}`] : []),
  ]
    .join("\n\n")
    .replace(/\n{3,}/g, "\n\n");
}

/** The email as HTML (CSS inlined) and as plain text. */
export function renderEmail(brand: EmailBrand, doc: EmailDocument): { html: string; text: string } {
  const css = stylesheet(brand);
  const page = emailPage(brand, doc, css);
  // Rich HTML is markup of the sender's, which only juice (its HTML parser) reads as juice does.
  const html = doc.blocks.some((b) => b.type === "html") ? juicedPage(page) : inlineLayoutCss(page, css);
  return { html, text: emailText(brand, doc) };
}

/** `renderEmail` with juice run on the whole page: the reference its inlining is tested against. */
export function renderEmailWithJuice(brand: EmailBrand, doc: EmailDocument): { html: string; text: string } {
  return { html: juiceEmailPage(emailPage(brand, doc, stylesheet(brand))), text: emailText(brand, doc) };
}

/** The RFC 8058 headers of marketing mail: one-click unsubscribe by POST to the recipient's own link. */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}
