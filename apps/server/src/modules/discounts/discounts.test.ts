/**
 * Automatic discounts: the owner API (plain-words validation, nothing saved on a mistake), the
 * cart and the checkout showing the discount by name, the order keeping it, and usage limits
 * holding exactly when many buyers check out at once (on PostgreSQL when TEST_DATABASE_URL is set).
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { automaticDiscounts, discountUses, orders } from "../../db/schema.js";
import { owner, ownerSends, siteApi, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { orderBody } from "../../../test/fixtures.js";
import { Shopper, product, setStock } from "../checkout/test-helpers.js";

useDemoApp();

const db = () => t.database.db;
let vase: Awaited<ReturnType<typeof product>>;

beforeAll(async () => {
  vase = await product(db(), "hand-thrown-vase");
  await setStock(db(), vase.variants[0]!.id, 0, true);
});

async function createDiscount(body: Record<string, unknown>) {
  const res = await ownerSends("POST", "/discounts", body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().discount as { id: string; name: string; timesUsed: number };
}

async function removeAll() {
  const list = (await owner.request({ url: `${siteApi}/discounts` })).json().discounts as { id: string }[];
  for (const d of list) {
    const res = await owner.request({ method: "DELETE", url: `${siteApi}/discounts/${d.id}` });
    expect(res.statusCode).toBe(200);
  }
}

describe("the owner API", () => {
  it("creates, reads, changes and deletes a discount", async () => {
    const d = await createDiscount({
      name: "Spring sale",
      kind: "product_percentage",
      value: 20,
      appliesTo: { productIds: [vase.itemId], categoryIds: ["Ceramics"] },
      conditions: { minQuantity: 2 },
      startsAt: "2026-03-07T00:00",
      endsAt: "2026-03-09T00:00",
      usageLimit: 100,
      perCustomerLimit: 1,
      combinesWithCoupons: true,
    });
    expect(d).toMatchObject({
      name: "Spring sale",
      kind: "product_percentage",
      value: 20,
      appliesTo: { productIds: [vase.itemId], categoryIds: ["Ceramics"], shippingOptionIds: [] },
      conditions: { minSubtotalCents: 0, minQuantity: 2, firstOrderOnly: false },
      startsAt: "2026-03-07T00:00",
      endsAt: "2026-03-09T00:00",
      usageLimit: 100,
      perCustomerLimit: 1,
      timesUsed: 0,
      combinesWithCoupons: true,
      active: true,
    });
    const read = await owner.request({ url: `${siteApi}/discounts/${d.id}` });
    expect(read.json().discount).toEqual(d);
    const changed = await ownerSends("PATCH", `/discounts/${d.id}`, {
      value: 25,
      active: false,
      endsAt: null,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().discount).toMatchObject({
      value: 25,
      active: false,
      endsAt: null,
      name: "Spring sale",
    });
    expect((await owner.request({ url: `${siteApi}/discounts` })).json().discounts).toHaveLength(1);
    await removeAll();
    const gone = await owner.request({ url: `${siteApi}/discounts/${d.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe("No such discount.");
  });

  it.each([
    [
      { name: "", kind: "order_percentage", value: 10 },
      "name",
      "Give the discount a name shoppers will see.",
    ],
    [{ name: "X", kind: "half_price", value: 10 }, "kind", "Choose what the discount gives."],
    [
      { name: "X", kind: "order_percentage", value: 101 },
      "value",
      "A percentage is a whole number from 1 to 100.",
    ],
    [{ name: "X", kind: "order_amount", value: 0 }, "value", "Enter the amount off, more than 0."],
    [
      { name: "X", kind: "product_amount", value: 500 },
      "appliesTo",
      "Choose the products or categories the discount is for.",
    ],
    [
      { name: "X", kind: "buy_x_get_y", value: 100, buyXGetY: { buyQuantity: 0, getQuantity: 1 } },
      "buyQuantity",
      "Enter how many the customer buys, from 1 to 999.",
    ],
    [
      {
        name: "X",
        kind: "order_percentage",
        value: 5,
        startsAt: "2026-05-01T10:00",
        endsAt: "2026-05-01T09:00",
      },
      "endsAt",
      "The end must be after the start.",
    ],
    [
      { name: "X", kind: "order_percentage", value: 5, startsAt: "tomorrow" },
      "startsAt",
      "Enter the start as a date and a time.",
    ],
    [
      { name: "X", kind: "order_percentage", value: 5, usageLimit: -1 },
      "usageLimit",
      "A limit is 1 or more, or empty for no limit.",
    ],
  ])("refuses %j in plain words and saves nothing", async (body, field, message) => {
    const res = await ownerSends("POST", "/discounts", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: "bad_request", message, fields: { [field]: message } });
    expect((await owner.request({ url: `${siteApi}/discounts` })).json().discounts).toEqual([]);
  });

  it("keeps another owner's discounts apart", async () => {
    const d = await createDiscount({ name: "Mine", kind: "order_amount", value: 100 });
    const other = await db()
      .select()
      .from(automaticDiscounts)
      .where(and(eq(automaticDiscounts.id, d.id), eq(automaticDiscounts.websiteId, siteId)));
    expect(other).toHaveLength(1);
    const res = await owner.request({ url: `/api/owner/sites/${"0".repeat(24)}/discounts/${d.id}` });
    expect([403, 404]).toContain(res.statusCode);
    await removeAll();
  });
});

describe("in the cart, the checkout and the order", () => {
  it("shows “Free shipping over $50” in the cart once the goods reach $50, and the order keeps it", async () => {
    await createDiscount({
      name: "Free shipping over $50",
      kind: "free_shipping",
      conditions: { minSubtotalCents: 5000 },
    });
    const s = await new Shopper(t).start();
    const one = await s.add(vase.itemId, vase.variants[0]!.sku, 1);
    expect(one.shoppingCart.discounts).toEqual([]);
    const two = await s.add(vase.itemId, vase.variants[0]!.sku, 1);
    expect(two.shoppingCart.discounts).toEqual([
      expect.objectContaining({ name: "Free shipping over $50", amountCents: 0 }),
    ]);
    const cart = (await s.request({ url: "/api/commerce/shopping-cart" })).json();
    expect(cart.discounts).toHaveLength(1);
    expect(cart.discountCents).toBe(0);

    const q = (await s.quote("country=US&state=NY")).json().cart;
    expect(q.shippingCostCents).toBe(0);
    expect(q.discounts).toEqual([
      expect.objectContaining({ name: "Free shipping over $50", amountCents: 0, shippingCents: 800 }),
    ]);
    const placed = await s.order(orderBody());
    expect(placed.statusCode, placed.body).toBe(201);
    const orderId = placed.json().order.id as string;
    const ownerView = (await owner.request({ url: `${siteApi}/orders/${orderId}` })).json().order;
    expect(ownerView.shippingCents).toBe(0);
    expect(ownerView.discounts).toEqual([
      { name: "Free shipping over $50", amountCents: 0, shippingCents: 800 },
    ]);
    await removeAll();
  });

  it("takes the best discount, sets aside a coupon it does not combine with, and keeps the lines on the order", async () => {
    await createDiscount({ name: "Fifteen percent off", kind: "order_percentage", value: 15 });
    await createDiscount({ name: "Five dollars off", kind: "order_amount", value: 500 });
    const s = await new Shopper(t).start();
    const added = await s.add(vase.itemId, vase.variants[0]!.sku, 2);
    expect(added.shoppingCart.discounts).toEqual([
      expect.objectContaining({ name: "Fifteen percent off", amountCents: 1260 }),
    ]);
    expect(added.shoppingCart.discountCents).toBe(1260);
    const q = (await s.quote("country=US&state=NY&couponCodes=WELCOME10")).json().cart;
    expect(q.discounts.map((d: { name: string }) => d.name)).toEqual(["Fifteen percent off"]);
    expect(q.invalidCoupons[0].reason).toBe(
      "This code cannot be combined with “Fifteen percent off”, which saves you more.",
    );
    const placed = await s.order(orderBody({ couponCodes: ["WELCOME10"] }));
    expect(placed.statusCode, placed.body).toBe(201);
    const o = (await owner.request({ url: `${siteApi}/orders/${placed.json().order.id}` })).json().order;
    expect(o.discountCents).toBe(1260);
    expect(o.discounts).toEqual([{ name: "Fifteen percent off", amountCents: 1260, shippingCents: 0 }]);
    expect(o.coupons).toEqual([]);
    await removeAll();
  });

  it("gives a first-order discount only to a new customer, and once per customer", async () => {
    await createDiscount({
      name: "Welcome",
      kind: "order_amount",
      value: 1000,
      conditions: { firstOrderOnly: true },
      perCustomerLimit: 1,
    });
    const s = await new Shopper(t).start();
    await s.add(vase.itemId, vase.variants[0]!.sku, 1);
    // ada@example.com has ordered before; a new address has not.
    const known = await s.quote("country=US&email=ada@example.com");
    expect(known.statusCode, known.body).toBe(200);
    expect(known.json().cart.discountCents).toBe(0);
    expect((await s.quote("country=US&email=newcomer@example.com")).json().cart.discountCents).toBe(1000);
    const placed = await s.order(orderBody({ email: "newcomer@example.com" }));
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json().order.discountCents).toBe(1000);
    const again = await new Shopper(t).start();
    await again.add(vase.itemId, vase.variants[0]!.sku, 1);
    expect((await again.quote("country=US&email=newcomer@example.com")).json().cart.discountCents).toBe(0);
    await removeAll();
  });
});

describe("usage limits under concurrency", () => {
  it("with a limit of 5 and 12 buyers checking out at once, exactly 5 orders carry the discount", async () => {
    const d = await createDiscount({
      name: "First five",
      kind: "order_percentage",
      value: 50,
      usageLimit: 5,
    });
    const buyers = await Promise.all(Array.from({ length: 12 }, () => new Shopper(t).start()));
    for (const b of buyers) await b.add(vase.itemId, vase.variants[0]!.sku, 1);
    const first = await Promise.all(
      buyers.map((b, i) => b.order(orderBody({ email: `racer${i}@example.com` }))),
    );
    // A buyer who lost the race is told, uncharged, and buys at the full price on the next try.
    const lost = first.filter((r) => r.statusCode === 409);
    for (const r of lost) expect(r.json().error.message).toMatch(/usage limit/);
    expect(first.filter((r) => r.statusCode === 201).length + lost.length).toBe(12);
    const retried = await Promise.all(
      buyers.map((b, i) =>
        first[i]!.statusCode === 409
          ? b.order(orderBody({ email: `racer${i}@example.com` }))
          : Promise.resolve(first[i]!),
      ),
    );
    for (const r of retried) expect(r.statusCode, r.body).toBe(201);
    const carrying = retried.filter((r) => r.json().order.discountCents > 0);
    expect(carrying).toHaveLength(5);
    const [row] = await db().select().from(automaticDiscounts).where(eq(automaticDiscounts.id, d.id));
    expect(row!.timesUsed).toBe(5);
    const uses = await db().select().from(discountUses).where(eq(discountUses.discountId, d.id));
    expect(new Set(uses.map((u) => u.orderId))).toEqual(new Set(carrying.map((r) => r.json().order.id)));
    const stored = await db().select().from(orders).where(eq(orders.websiteId, siteId));
    expect(
      stored.filter((o) =>
        (o.details as { discounts?: { name: string }[] }).discounts?.some((x) => x.name === "First five"),
      ),
    ).toHaveLength(5);
    await removeAll();
  });
});

describe("what the store keeps of discounts", () => {
  it("a cart sees an owner's change to a discount at the next call, though nothing else changed", async () => {
    const d = await createDiscount({ name: "Ten off", kind: "order_percentage", value: 10 });
    const s = await new Shopper(t).start();
    await s.add(vase.itemId, vase.variants[0]!.sku, 1);
    const names = async () =>
      ((await s.request({ url: "/api/commerce/shopping-cart" })).json().discounts as { name: string }[]).map(
        (x) => x.name,
      );
    expect(await names()).toEqual(["Ten off"]);
    expect((await ownerSends("PATCH", `/discounts/${d.id}`, { active: false })).statusCode).toBe(200);
    expect(await names()).toEqual([]);
    expect(
      (await ownerSends("PATCH", `/discounts/${d.id}`, { active: true, name: "Ten percent off" })).statusCode,
    ).toBe(200);
    expect(await names()).toEqual(["Ten percent off"]);
    await removeAll();
    expect(await names()).toEqual([]);
  });

  it("stops applying a discount in carts as soon as an order uses it up", async () => {
    await createDiscount({ name: "Only once", kind: "order_percentage", value: 10, usageLimit: 1 });
    const [first, second] = [await new Shopper(t).start(), await new Shopper(t).start()];
    for (const s of [first, second]) await s.add(vase.itemId, vase.variants[0]!.sku, 1);
    const cartOf = async (s: Shopper) => (await s.request({ url: "/api/commerce/shopping-cart" })).json();
    expect((await cartOf(second)).discounts).toHaveLength(1);
    const placed = await first.order(orderBody({ email: "once@example.com" }));
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json().order.discountCents).toBeGreaterThan(0);
    expect((await cartOf(second)).discounts).toEqual([]);
    await removeAll();
  });
});
