/**
 * Links a buyer gets: the order's confirmation page (202 once paid, 207 while the payment is
 * settling), the subscription's page (206) and the signed, expiring links to digital files.
 */
import { downloadSignature, orderToken, subscriptionToken } from "../checkout/signing.js";
import { type OrderLineRow, type OrderRow, lineDetailsOf } from "./service.js";

/** Hours a digital download link stays valid. */
const DOWNLOAD_LINK_HOURS = 72;

export async function confirmationUrl(dataDir: string, origin: string, order: OrderRow): Promise<string> {
  const page = order.status === "pending" ? "/checkout/order-received" : "/checkout/order-confirmed";
  const url = new URL(page, origin);
  url.searchParams.set("orderId", order.id);
  url.searchParams.set("token", await orderToken(dataDir, order.id));
  return url.toString();
}

export async function subscriptionUrl(
  dataDir: string,
  origin: string,
  subscriptionId: string,
  orderId?: string,
) {
  const url = new URL("/checkout/subscription-confirmed", origin);
  url.searchParams.set("subscriptionId", subscriptionId);
  url.searchParams.set("token", await subscriptionToken(dataDir, subscriptionId));
  if (orderId) {
    url.searchParams.set("orderId", orderId);
    url.searchParams.set("orderToken", await orderToken(dataDir, orderId));
  }
  return url.toString();
}

/** Fresh signed links to the files of an order's digital products (none until it is paid). */
export async function downloadLinks(
  dataDir: string,
  origin: string,
  order: OrderRow,
  lines: readonly OrderLineRow[],
  now: Date,
) {
  if (order.status === "pending" || order.status === "cancelled" || order.status === "refunded") return [];
  const expires = now.getTime() + DOWNLOAD_LINK_HOURS * 3600_000;
  const out: { lineId: string; productName: string; url: string; expiresOn: number }[] = [];
  for (const l of lines) {
    if (!lineDetailsOf(l).digital) continue;
    const sig = await downloadSignature(dataDir, order.id, l.id, expires);
    const url = new URL(`/api/commerce/downloads/${order.id}/${l.id}`, origin);
    url.searchParams.set("expires", String(expires));
    url.searchParams.set("sig", sig);
    out.push({ lineId: l.id, productName: l.productName, url: url.toString(), expiresOn: expires });
  }
  return out;
}
