/** The buyer's emails of an order: the order confirmation and the gift card sent to its recipient. */
import { formatMoney } from "@atelier/commerce";
import type { Config } from "../../config.js";
import type { Db, Tx } from "../../db/client.js";
import {
  type EmailBlock,
  type EmailDesign,
  type EmailDocument,
  emailBrandOf,
  renderEmail,
} from "../email/layout.js";
import { type EmailMessage, queueEmail } from "../email/service.js";
import type { Website } from "../sites/service.js";
import { type OrderLineRow, type OrderRow, detailsOf, discountLinesOf } from "./service.js";

function addressLines(a: Record<string, string> | null | undefined): string[] {
  if (!a) return [];
  const name = [a.firstName, a.lastName].filter(Boolean).join(" ");
  const cityLine = [a.city, a.state, a.postalCode].filter(Boolean).join(" ");
  return [name, a.line1, a.line2, cityLine, a.country].filter((x): x is string => Boolean(x));
}

export interface ConfirmationExtras {
  orderUrl: string;
  downloads: { productName: string; url: string; expiresOn: number }[];
  giftCards: { last4: string; amountCents: number; recipientEmail: string }[];
  subscriptions: { productName: string; text: string }[];
}

/** The order confirmation's plain text and the document of its HTML. */
export function orderConfirmation(
  site: Pick<Website, "title">,
  order: OrderRow,
  lines: readonly OrderLineRow[],
  extras: ConfirmationExtras,
): { text: string; doc: EmailDocument } {
  const money = (c: number) => formatMoney(c, order.currency);
  const d = detailsOf(order);
  const rows = lines.map((l) => {
    const attrs = Object.values(l.attributes).join(", ");
    return {
      name: attrs ? `${l.productName} (${attrs})` : l.productName,
      qty: l.quantity,
      total: money(l.unitPriceCents * l.quantity),
    };
  });
  const totals: [string, string][] = [["Subtotal", money(order.subtotalCents)]];
  // Each discount by its name (an automatic discount, or "Discount (CODE)" for a coupon).
  for (const x of discountLinesOf(d))
    totals.push([x.name, x.amountCents ? `-${money(x.amountCents)}` : "Free shipping"]);
  if (d.shippingOption || order.shippingCents)
    totals.push([
      `Shipping${d.shippingOption ? ` (${d.shippingOption.name})` : ""}`,
      money(order.shippingCents),
    ]);
  if (order.taxCents) totals.push(["Tax", money(order.taxCents)]);
  totals.push(["Total", money(order.grandTotalCents)]);
  if (d.giftCardCents) totals.push(["Paid with gift cards", `-${money(d.giftCardCents)}`]);
  if (d.giftCardCents) totals.push(["Paid by card", money(order.grandTotalCents - d.giftCardCents)]);
  const ship = addressLines(order.shippingAddress);
  const bill = addressLines(order.billingAddress);

  const text = [
    `Thank you for your order from ${site.title}!`,
    "",
    `Order #${order.orderNumber}${order.testMode ? " (test order: no money was taken)" : ""}`,
    "",
    ...rows.map((r) => `${r.qty} × ${r.name}  ${r.total}`),
    "",
    ...totals.map(([k, v]) => `${k}: ${v}`),
    ...(ship.length ? ["", "Shipping to:", ...ship] : []),
    ...(bill.length ? ["", "Billing address:", ...bill] : []),
    ...(extras.downloads.length
      ? [
          "",
          "Your downloads (links valid for 72 hours; the order page always has fresh ones):",
          ...extras.downloads.map((x) => `${x.productName}: ${x.url}`),
        ]
      : []),
    ...(extras.giftCards.length
      ? [
          "",
          ...extras.giftCards.map(
            (g) => `A ${money(g.amountCents)} gift card (ending ${g.last4}) was sent to ${g.recipientEmail}.`,
          ),
        ]
      : []),
    ...(extras.subscriptions.length
      ? ["", ...extras.subscriptions.map((s) => `Subscription: ${s.productName}, ${s.text}.`)]
      : []),
    "",
    `See your order: ${extras.orderUrl}`,
  ].join("\n");

  const blocks: EmailBlock[] = [
    { type: "heading", text: "Thank you for your order!" },
    {
      type: "text",
      text: `Order #${order.orderNumber} from ${site.title}${order.testMode ? " (test order: no money was taken)" : ""}`,
    },
    { type: "items", items: rows.map((r) => ({ name: r.name, quantity: r.qty, price: r.total })) },
    { type: "totals", rows: totals },
  ];
  if (ship.length) blocks.push({ type: "text", text: ["Shipping to", ...ship].join("\n") });
  if (bill.length) blocks.push({ type: "text", text: ["Billing address", ...bill].join("\n") });
  if (extras.downloads.length)
    blocks.push(
      { type: "heading", text: "Your downloads" },
      { type: "items", items: extras.downloads.map((x) => ({ name: x.productName, url: x.url })) },
      { type: "text", text: "Links are valid for 72 hours; your order page always has fresh ones." },
    );
  for (const g of extras.giftCards)
    blocks.push({
      type: "text",
      text: `A ${money(g.amountCents)} gift card (ending ${g.last4}) was sent to ${g.recipientEmail}.`,
    });
  for (const sub of extras.subscriptions)
    blocks.push({ type: "text", text: `Subscription: ${sub.productName}, ${sub.text}.` });
  blocks.push({ type: "button", text: "See your order", url: extras.orderUrl });
  return { text, doc: { preheader: `Order #${order.orderNumber}`, blocks } };
}

/** The order confirmation: lines, totals, addresses, downloads; through the outbox. */
export async function queueOrderConfirmation(
  tx: Tx,
  config: Config,
  site: Pick<Website, "id" | "title" | "theme" | "websiteType">,
  order: OrderRow,
  lines: readonly OrderLineRow[],
  extras: ConfirmationExtras,
  design?: EmailDesign,
): Promise<string> {
  return queueEmail(tx, config, await orderConfirmationEmail(tx, site, order, lines, extras, design));
}

/** The order confirmation, in the site's email design (read unless `design` is given). */
export async function orderConfirmationEmail(
  db: Db | Tx,
  site: Pick<Website, "id" | "title" | "theme" | "websiteType">,
  order: OrderRow,
  lines: readonly OrderLineRow[],
  extras: ConfirmationExtras,
  design?: EmailDesign,
): Promise<EmailMessage> {
  const { text, doc } = orderConfirmation(site, order, lines, extras);
  const brand = await emailBrandOf(db, site, new URL(extras.orderUrl).origin, design);
  const { html } = renderEmail(brand, doc);
  return {
    websiteId: site.id,
    to: order.email,
    subject: `Your order #${order.orderNumber} from ${site.title}`,
    text,
    html,
    fromName: site.title,
  };
}

export interface GiftCardEmail {
  to: string;
  code: string;
  amountCents: number;
  currency: string;
  fromEmail: string;
  recipientName?: string;
  message?: string;
  shopUrl: string;
}

/** The gift card email's plain text and the document of its HTML. */
export function giftCardEmail(
  site: Pick<Website, "title">,
  g: GiftCardEmail,
): { text: string; doc: EmailDocument; subject: string } {
  const amount = formatMoney(g.amountCents, g.currency);
  const hello = g.recipientName ? `Hello ${g.recipientName},` : "Hello,";
  const text = [
    hello,
    "",
    `${g.fromEmail} sent you a ${amount} gift card for ${site.title}.`,
    ...(g.message ? ["", `“${g.message}”`] : []),
    "",
    `Your gift card code: ${g.code}`,
    "",
    `Enter it at checkout: ${g.shopUrl}. Whatever you do not spend stays on the card.`,
  ].join("\n");
  const doc: EmailDocument = {
    preheader: `A ${amount} gift card for ${site.title}`,
    blocks: [
      { type: "text", text: hello },
      { type: "text", text: `${g.fromEmail} sent you a ${amount} gift card for ${site.title}.` },
      ...(g.message ? [{ type: "text" as const, text: `“${g.message}”` }] : []),
      { type: "heading", text: g.code },
      { type: "text", text: "Enter it at checkout. Whatever you do not spend stays on the card." },
      { type: "button", text: `Shop at ${site.title}`, url: g.shopUrl },
    ],
  };
  return { text, doc, subject: `A ${amount} gift card for ${site.title}` };
}

export async function queueGiftCardEmail(
  tx: Tx,
  config: Config,
  site: Pick<Website, "id" | "title" | "theme" | "websiteType">,
  g: GiftCardEmail,
): Promise<string> {
  const { text, doc, subject } = giftCardEmail(site, g);
  const brand = await emailBrandOf(tx, site, new URL(g.shopUrl).origin);
  const { html } = renderEmail(brand, doc);
  return queueEmail(tx, config, {
    websiteId: site.id,
    to: g.to,
    subject,
    text,
    html,
    fromName: site.title,
  });
}
