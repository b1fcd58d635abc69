/**
 * The store's orders as a Shopify orders CSV (the columns of Shopify's "Export orders", so the
 * file opens in tools made for Shopify's): one row per line item, the first row of an order
 * carrying the order's own columns, later rows the order's name and email and the line's. The
 * discounts are in it: "Discount Code" names each (a coupon by its code, an automatic discount by
 * its name), "Discount Amount" is their total, "Lineitem discount" each line's share.
 */
import { ProductType, fromMinorUnits } from "@atelier/commerce";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { orders } from "../../db/schema.js";
import { toCsv } from "../../lib/csv.js";
import { detailsOf, lineDetailsOf, linesOfOrders, orderJson } from "./service.js";

export const SHOPIFY_ORDER_COLUMNS = [
  "Name",
  "Email",
  "Financial Status",
  "Paid at",
  "Fulfillment Status",
  "Fulfilled at",
  "Currency",
  "Subtotal",
  "Shipping",
  "Taxes",
  "Total",
  "Discount Code",
  "Discount Amount",
  "Shipping Method",
  "Created at",
  "Lineitem quantity",
  "Lineitem name",
  "Lineitem price",
  "Lineitem sku",
  "Lineitem requires shipping",
  "Lineitem fulfillment status",
  "Lineitem discount",
  "Billing Name",
  "Billing Address1",
  "Billing Address2",
  "Billing City",
  "Billing Zip",
  "Billing Province",
  "Billing Country",
  "Shipping Name",
  "Shipping Address1",
  "Shipping Address2",
  "Shipping City",
  "Shipping Zip",
  "Shipping Province",
  "Shipping Country",
  "Cancelled at",
  "Refunded Amount",
  "Id",
] as const;
type Column = (typeof SHOPIFY_ORDER_COLUMNS)[number];

/** Shopify's time format: "2026-03-07 14:05:09 +0000" (UTC). */
function shopifyTime(value: Date | string | undefined): string {
  if (!value) return "";
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.toISOString().slice(0, 19).replace("T", " ")} +0000`;
}

/** Shopify's financial status words. */
function financialStatus(paymentStatus: string, refundedCents: number): string {
  if (paymentStatus === "cancelled") return refundedCents > 0 ? "refunded" : "voided";
  return paymentStatus;
}

function addressColumns(prefix: "Billing" | "Shipping", a: Record<string, string> | null | undefined) {
  const x = a ?? {};
  return {
    [`${prefix} Name`]: [x.firstName, x.lastName].filter(Boolean).join(" "),
    [`${prefix} Address1`]: x.line1 ?? "",
    [`${prefix} Address2`]: x.line2 ?? "",
    [`${prefix} City`]: x.city ?? "",
    [`${prefix} Zip`]: x.postalCode ?? "",
    [`${prefix} Province`]: x.state ?? "",
    [`${prefix} Country`]: x.country ?? "",
  } as Partial<Record<Column, string>>;
}

/** The site's orders (those paid for, oldest first) as Shopify's orders CSV. */
export async function ordersAsShopifyCsv(db: Db, websiteId: string): Promise<string> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.websiteId, websiteId), sql`${orders.status} <> 'pending'`))
    .orderBy(asc(orders.orderNumber));
  const allLines = await linesOfOrders(
    db,
    rows.map((o) => o.id),
  );
  const out: string[][] = [[...SHOPIFY_ORDER_COLUMNS]];
  for (const order of rows) {
    const lines = allLines.filter((l) => l.orderId === order.id);
    const json = orderJson(order, lines);
    const d = detailsOf(order);
    const money = (cents: number) => fromMinorUnits(cents, order.currency);
    const discountNames = (d.discounts ?? []).map((x) => x.couponCode ?? x.name);
    const codes = discountNames.length ? discountNames : (d.coupons ?? []).map((c) => c.code);
    const orderColumns: Partial<Record<Column, string>> = {
      "Financial Status": financialStatus(json.paymentStatus, order.refundedCents),
      "Paid at": shopifyTime(d.paidAt ?? (order.status === "pending" ? undefined : order.createdAt)),
      "Fulfillment Status": json.fulfillmentStatus === "fulfilled" ? "fulfilled" : "unfulfilled",
      "Fulfilled at": shopifyTime(d.fulfillment?.fulfilledAt),
      Currency: order.currency,
      Subtotal: money(order.subtotalCents),
      Shipping: money(order.shippingCents),
      Taxes: money(order.taxCents),
      Total: money(order.grandTotalCents),
      "Discount Code": codes.join(", "),
      "Discount Amount": money(order.discountCents),
      "Shipping Method": d.shippingOption?.name ?? "",
      "Created at": shopifyTime(order.createdAt),
      ...addressColumns("Billing", order.billingAddress ?? order.shippingAddress),
      ...addressColumns("Shipping", order.shippingAddress),
      "Cancelled at": shopifyTime(d.cancelledAt),
      "Refunded Amount": money(order.refundedCents),
      Id: order.id,
    };
    const shipped = detailsOf(order).fulfillment ? "fulfilled" : "pending";
    const lineRows = lines.length ? lines : [undefined];
    lineRows.forEach((line, i) => {
      const row: Partial<Record<Column, string>> = {
        Name: `#${order.orderNumber}`,
        Email: order.email,
        ...(i === 0 ? orderColumns : {}),
        ...(line
          ? {
              "Lineitem quantity": String(line.quantity),
              "Lineitem name": [line.productName, ...Object.values(line.attributes)].join(" - "),
              "Lineitem price": money(line.unitPriceCents),
              "Lineitem sku": line.sku,
              "Lineitem requires shipping": String(line.productType === ProductType.PHYSICAL),
              "Lineitem fulfillment status": shipped,
              "Lineitem discount": money(lineDetailsOf(line).discountCents ?? 0),
            }
          : {}),
      };
      out.push(SHOPIFY_ORDER_COLUMNS.map((c) => row[c] ?? ""));
    });
  }
  return toCsv(out);
}
