/** The buyer's emails of an order: the order confirmation and the gift card sent to its recipient. */
import { formatMoney } from "@atelier/commerce";
import type { Config } from "../../config.js";
import type { Tx } from "../../db/client.js";
import { escapeHtml } from "../../lib/escape.js";
import { queueEmail } from "../email/service.js";
import type { Website } from "../sites/service.js";
import { type OrderLineRow, type OrderRow, detailsOf, discountLinesOf } from "./service.js";

function addressLines(a: Record<string, string> | null | undefined): string[] {
  if (!a) return [];
  const name = [a.firstName, a.lastName].filter(Boolean).join(" ");
  const cityLine = [a.city, a.state, a.postalCode].filter(Boolean).join(" ");
  return [name, a.line1, a.line2, cityLine, a.country].filter((x): x is string => Boolean(x));
}

interface ConfirmationExtras {
  orderUrl: string;
  downloads: { productName: string; url: string; expiresOn: number }[];
  giftCards: { last4: string; amountCents: number; recipientEmail: string }[];
  subscriptions: { productName: string; text: string }[];
}

/** The order confirmation: lines, totals, addresses, downloads; through the outbox. */
export async function queueOrderConfirmation(
  tx: Tx,
  config: Config,
  site: Pick<Website, "id" | "title">,
  order: OrderRow,
  lines: readonly OrderLineRow[],
  extras: ConfirmationExtras,
): Promise<string> {
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

  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#222;max-width:600px;margin:auto">
<h1 style="font-size:22px">Thank you for your order!</h1>
<p>Order <strong>#${order.orderNumber}</strong> from ${escapeHtml(site.title)}${order.testMode ? " <em>(test order: no money was taken)</em>" : ""}</p>
<table style="width:100%;border-collapse:collapse">${rows
    .map(
      (r) =>
        `<tr><td style="padding:4px 0">${r.qty} × ${escapeHtml(r.name)}</td><td style="text-align:right">${escapeHtml(r.total)}</td></tr>`,
    )
    .join("")}</table>
<hr><table style="width:100%">${totals
    .map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td style="text-align:right">${escapeHtml(v)}</td></tr>`)
    .join("")}</table>
${ship.length ? `<h2 style="font-size:16px">Shipping to</h2><p>${ship.map(escapeHtml).join("<br>")}</p>` : ""}
${bill.length ? `<h2 style="font-size:16px">Billing address</h2><p>${bill.map(escapeHtml).join("<br>")}</p>` : ""}
${extras.downloads.length ? `<h2 style="font-size:16px">Your downloads</h2><ul>${extras.downloads.map((x) => `<li><a href="${escapeHtml(x.url)}">${escapeHtml(x.productName)}</a></li>`).join("")}</ul><p>Links are valid for 72 hours; your order page always has fresh ones.</p>` : ""}
${extras.giftCards.map((g) => `<p>A ${escapeHtml(money(g.amountCents))} gift card (ending ${escapeHtml(g.last4)}) was sent to ${escapeHtml(g.recipientEmail)}.</p>`).join("")}
${extras.subscriptions.map((s) => `<p>Subscription: ${escapeHtml(s.productName)}, ${escapeHtml(s.text)}.</p>`).join("")}
<p><a href="${escapeHtml(extras.orderUrl)}">See your order</a></p></body></html>`;

  return queueEmail(tx, config, {
    websiteId: site.id,
    to: order.email,
    subject: `Your order #${order.orderNumber} from ${site.title}`,
    text,
    html,
    fromName: site.title,
  });
}

export async function queueGiftCardEmail(
  tx: Tx,
  config: Config,
  site: Pick<Website, "id" | "title">,
  g: {
    to: string;
    code: string;
    amountCents: number;
    currency: string;
    fromEmail: string;
    recipientName?: string;
    message?: string;
    shopUrl: string;
  },
): Promise<string> {
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
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;max-width:600px;margin:auto">
<p>${escapeHtml(hello)}</p><p>${escapeHtml(g.fromEmail)} sent you a <strong>${escapeHtml(amount)}</strong> gift card for ${escapeHtml(site.title)}.</p>
${g.message ? `<blockquote>${escapeHtml(g.message)}</blockquote>` : ""}
<p style="font-size:20px;letter-spacing:2px"><strong>${escapeHtml(g.code)}</strong></p>
<p>Enter it at checkout on <a href="${escapeHtml(g.shopUrl)}">${escapeHtml(site.title)}</a>. Whatever you do not spend stays on the card.</p></body></html>`;
  return queueEmail(tx, config, {
    websiteId: site.id,
    to: g.to,
    subject: `A ${amount} gift card for ${site.title}`,
    text,
    html,
    fromName: site.title,
  });
}
