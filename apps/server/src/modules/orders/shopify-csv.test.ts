/**
 * The orders as a Shopify orders CSV: Shopify's column names, one row per line item, the order's
 * columns on its first row, and the discounts in it (the names and codes, the amount, each
 * line's share). Only the site's owner (or a member who sees orders) gets it.
 */
import { Browser } from "../../../test/harness.js";
import { beforeAll, describe, expect, it } from "vitest";
import { owner, ownerSends, siteApi, t, useDemoApp } from "../../../test/demo-app.js";
import { address, orderBody } from "../../../test/fixtures.js";
import { csvHeader, csvRecords } from "../../lib/csv.js";
import { Shopper, product, setStock } from "../checkout/test-helpers.js";
import { SHOPIFY_ORDER_COLUMNS } from "./shopify-csv.js";

useDemoApp();
const db = () => t.database.db;
let placed: { id: string; orderNumber: number; grandTotalCents: number; discountCents: number };

beforeAll(async () => {
  const mug = await product(db(), "stoneware-mug");
  const vase = await product(db(), "hand-thrown-vase");
  await setStock(db(), mug.variants[0]!.id, 50);
  await setStock(db(), vase.variants[0]!.id, 50);
  const made = await ownerSends("POST", "/discounts", {
    name: "Ten percent, always",
    kind: "order_percentage",
    value: 10,
  });
  expect(made.statusCode, made.body).toBe(201);
  const s = await new Shopper(t).start();
  await s.add(mug.itemId, mug.variants[0]!.sku, 2);
  await s.add(vase.itemId, vase.variants[0]!.sku, 1);
  const res = await s.order(
    orderBody({
      email: "csv@example.com",
      shippingAddress: address({ firstName: "Grace", lastName: "Hopper", line2: "Apt, 4" }),
    }),
  );
  expect(res.statusCode, res.body).toBe(201);
  placed = res.json().order;
});

const cents = (text: string) => Math.round(Number(text) * 100);

describe("the Shopify orders CSV", () => {
  it("has Shopify's columns, a row per line item and the discounts", async () => {
    const res = await owner.request({ url: `${siteApi}/export/shopify-orders.csv` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename=".+-orders\.csv"$/);
    expect(csvHeader(res.body)).toEqual([...SHOPIFY_ORDER_COLUMNS]);
    for (const column of ["Name", "Email", "Financial Status", "Subtotal", "Shipping", "Taxes", "Total"])
      expect(SHOPIFY_ORDER_COLUMNS).toContain(column);

    const rows = csvRecords(res.body).filter((r) => r.get("Name") === `#${placed.orderNumber}`);
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(first.get("Email")).toBe("csv@example.com");
    expect(first.get("Financial Status")).toBe("paid");
    expect(first.get("Fulfillment Status")).toBe("unfulfilled");
    expect(first.get("Currency")).toBe("USD");
    expect(cents(first.get("Total"))).toBe(placed.grandTotalCents);
    expect(first.get("Discount Code")).toBe("Ten percent, always");
    expect(cents(first.get("Discount Amount"))).toBe(placed.discountCents);
    expect(placed.discountCents).toBeGreaterThan(0);
    expect(
      cents(first.get("Subtotal")) -
        cents(first.get("Discount Amount")) +
        cents(first.get("Shipping")) +
        cents(first.get("Taxes")),
    ).toBe(cents(first.get("Total")));
    expect(first.get("Shipping Name")).toBe("Grace Hopper");
    expect(first.get("Shipping Address2")).toBe("Apt, 4");
    expect(first.get("Created at")).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000$/);
    expect(first.get("Id")).toBe(placed.id);
    // The second line item's row: the order's name and email, its own line, no order totals.
    expect(second.get("Email")).toBe("csv@example.com");
    expect(second.get("Total")).toBe("");
    expect(second.get("Discount Amount")).toBe("");
    const items = rows.map((r) => ({
      quantity: Number(r.get("Lineitem quantity")),
      name: r.get("Lineitem name"),
      price: cents(r.get("Lineitem price")),
      sku: r.get("Lineitem sku"),
      discount: cents(r.get("Lineitem discount")),
    }));
    expect(items.map((i) => i.quantity).sort()).toEqual([1, 2]);
    for (const i of items) {
      expect(i.sku).not.toBe("");
      expect(i.price).toBeGreaterThan(0);
      expect(i.discount).toBeGreaterThan(0);
    }
    expect(items.reduce((n, i) => n + i.discount, 0)).toBe(placed.discountCents);
    expect(items.reduce((n, i) => n + i.price * i.quantity, 0)).toBe(cents(first.get("Subtotal")));
  });

  it("is the owner's only", async () => {
    const stranger = new Browser(t.app);
    const res = await stranger.request({ url: `${siteApi}/export/shopify-orders.csv` });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBeTruthy();
  });
});
