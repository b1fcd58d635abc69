/**
 * A campaign in the shared email layout: its blocks become the layout's blocks (text, image,
 * button, a product card or a row of them, divider, spacer, the site's social links), with the
 * store's address in the footer and the recipient's own unsubscribe link. The copy is rendered
 * once per campaign (juice is slow) with RECIPIENT_TOKEN where each recipient's token goes.
 */
import { formatMoney } from "@atelier/commerce";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { type StoredCampaignBlock, campaignSettings, media } from "../../db/schema.js";
import { htmlToText, sanitizeRichText } from "../../lib/sanitize-html.js";
import { productsByIds } from "../catalog/service.js";
import { type EmailBlock, type EmailItem, emailBrandOf, renderEmail } from "../email/layout.js";
import { mediaUrl } from "../media/storage.js";
import { type Website, settingsOf } from "../sites/service.js";
import { CLICK_PATH, OPEN_PATH, RECIPIENT_TOKEN, UNSUBSCRIBE_PATH } from "./links.js";

export interface CampaignContent {
  subject: string;
  previewText: string;
  blocks: StoredCampaignBlock[];
  tracking: boolean;
}

export interface RenderedCampaign {
  html: string;
  text: string;
  /** The absolute URLs of the HTML's links, in order (tracked campaigns redirect through them). */
  links: string[];
}

/** The store's postal address every campaign's footer shows. */
export async function postalAddressOf(db: Db, websiteId: string): Promise<string> {
  const [row] = await db.select().from(campaignSettings).where(eq(campaignSettings.websiteId, websiteId));
  return row?.postalAddress ?? "";
}

async function layoutBlocks(db: Db, site: Website, blocks: StoredCampaignBlock[]): Promise<EmailBlock[]> {
  const { site: settings, store } = await settingsOf(db, site.id);
  const currency = store?.currency ?? "USD";
  const productIds = blocks.flatMap((b) =>
    b.type === "product" ? [b.productId] : b.type === "products" ? b.productIds : [],
  );
  const products = await productsByIds(db, site.id, productIds);
  const mediaIds = blocks.flatMap((b) => (b.type === "image" ? [b.mediaId] : []));
  const files = mediaIds.length
    ? await db
        .select({ id: media.id, filename: media.filename })
        .from(media)
        .where(and(eq(media.websiteId, site.id), inArray(media.id, mediaIds)))
    : [];
  const fileOf = new Map(files.map((f) => [f.id, f.filename]));
  const item = (id: string): EmailItem[] => {
    const p = products.get(id);
    if (!p) return [];
    const prices = p.variants.map((v) => (v.onSale ? v.salePriceCents : v.priceCents));
    const low = prices.length ? Math.min(...prices) : undefined;
    return [
      {
        name: p.title,
        price: low === undefined ? undefined : formatMoney(low, currency),
        imageUrl: p.imageUrl ?? null,
        url: p.url,
      },
    ];
  };
  const out: EmailBlock[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case "text": {
        const html = sanitizeRichText(b.html);
        out.push({ type: "html", html, text: htmlToText(html.replace(/<\/(p|h\d|li)>/gi, "\n")) });
        break;
      }
      case "image": {
        const file = fileOf.get(b.mediaId);
        if (file) out.push({ type: "image", url: mediaUrl(b.mediaId, file), alt: b.alt, href: b.url });
        break;
      }
      case "button":
        out.push({ type: "button", text: b.text, url: b.url });
        break;
      case "product":
        out.push({ type: "products", items: item(b.productId) });
        break;
      case "products":
        out.push({ type: "products", items: b.productIds.flatMap(item) });
        break;
      case "divider":
        out.push({ type: "divider" });
        break;
      case "spacer":
        out.push({ type: "spacer" });
        break;
      case "social":
        out.push({
          type: "social",
          links: (settings?.socialLinks ?? []).map((l) => ({
            label: l.service.charAt(0).toUpperCase() + l.service.slice(1),
            url: l.profileUrl,
          })),
        });
        break;
    }
  }
  return out.filter((b) => !("items" in b) || b.items.length > 0);
}

/**
 * The campaign's copy with RECIPIENT_TOKEN standing for the recipient: HTML (CSS inlined) and
 * plain text, the unsubscribe link in both, and with tracking the open pixel and every link of
 * the HTML turned into `/email/click/<token>/<n>` (n: the link's place in `links`).
 */
export async function renderCampaign(
  db: Db,
  site: Website,
  origin: string,
  content: CampaignContent,
): Promise<RenderedCampaign> {
  const brand = await emailBrandOf(db, site, origin);
  const address = await postalAddressOf(db, site.id);
  const unsubscribeUrl = `${brand.siteUrl}${UNSUBSCRIBE_PATH}${RECIPIENT_TOKEN}`;
  const rendered = renderEmail(brand, {
    preheader: content.previewText || undefined,
    blocks: await layoutBlocks(db, site, content.blocks),
    footer: [
      ...(address ? [address] : []),
      `You get this email because you joined the mailing list of ${site.title}.`,
    ],
    unsubscribeUrl,
  });
  const links: string[] = [];
  let html = rendered.html;
  if (content.tracking) {
    html = html.replace(/href="(https?:\/\/[^"]+)"/g, (whole, url: string) => {
      if (url === unsubscribeUrl) return whole;
      const n = links.length;
      links.push(url.replace(/&amp;/g, "&"));
      return `href="${brand.siteUrl}${CLICK_PATH}${RECIPIENT_TOKEN}/${n}"`;
    });
    html = html.replace(
      "</body>",
      `<img src="${brand.siteUrl}${OPEN_PATH}${RECIPIENT_TOKEN}.gif" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0"></body>`,
    );
  }
  return { html, text: rendered.text, links };
}

/** One recipient's copy. */
export function personalise(rendered: RenderedCampaign, token: string): { html: string; text: string } {
  return {
    html: rendered.html.replaceAll(RECIPIENT_TOKEN, token),
    text: rendered.text.replaceAll(RECIPIENT_TOKEN, token),
  };
}
