/**
 * Helpers for the checkout tests: shoppers (a cookie jar with its own address, so per-address
 * rate limits do not mix them up) and products of the demo store by slug. Order bodies are in
 * test/fixtures.ts.
 */
import type { LightMyRequestResponse } from "fastify";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contentItems, outboundEmails, productVariants } from "../../db/schema.js";
import { Browser, type TestApp, fromAddress } from "../../../test/harness.js";

let shopperCount = 0;

export class Shopper {
  readonly browser: Browser;
  readonly ip: string;
  constructor(
    readonly t: TestApp,
    host = "localhost",
  ) {
    shopperCount++;
    this.ip = `10.${(shopperCount >> 16) & 255}.${(shopperCount >> 8) & 255}.${shopperCount & 255}`;
    this.browser = fromAddress(new Browser(t.app, host), this.ip);
  }

  request(opts: Parameters<Browser["request"]>[0]): Promise<LightMyRequestResponse> {
    return this.browser.request(opts);
  }

  async start(): Promise<this> {
    await this.request({ method: "GET", url: "/" });
    return this;
  }

  async add(itemId: string, sku: string, quantity = 1, additionalFields?: unknown) {
    const res = await this.request({
      method: "POST",
      url: "/api/commerce/shopping-cart/entries",
      payload: {
        itemId,
        sku,
        quantity,
        ...(additionalFields ? { additionalFields: JSON.stringify(additionalFields) } : {}),
      },
    });
    if (res.statusCode !== 200) throw new Error(`add to cart failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  order(body: Record<string, unknown>) {
    return this.request({ method: "POST", url: "/api/commerce/orders", payload: body });
  }

  quote(query = "") {
    return this.request({ method: "GET", url: `/api/commerce/checkout/quote${query ? `?${query}` : ""}` });
  }

  /** Answers a test-mode 3-D Secure challenge as the card holder would. */
  answerChallenge(challengeId: string, outcome: "succeed" | "fail") {
    return this.request({
      method: "POST",
      url: `/api/commerce/payments/test-challenges/${challengeId}`,
      payload: { outcome },
    });
  }
}

interface DemoProduct {
  itemId: string;
  title: string;
  variants: {
    id: string;
    sku: string;
    priceCents: number;
    salePriceCents: number;
    onSale: boolean;
    qtyInStock: number;
    unlimited: boolean;
  }[];
}

export async function product(db: Db, slug: string): Promise<DemoProduct> {
  const [item] = await db.select().from(contentItems).where(eq(contentItems.urlId, slug));
  if (!item) throw new Error(`no product ${slug}`);
  const variants = await db.select().from(productVariants).where(eq(productVariants.itemId, item.id));
  variants.sort((a, b) => a.ordering - b.ordering);
  return { itemId: item.id, title: item.title, variants };
}

export async function stockOf(db: Db, variantId: string): Promise<number> {
  const [v] = await db.select().from(productVariants).where(eq(productVariants.id, variantId));
  return v!.qtyInStock;
}

export async function setStock(db: Db, variantId: string, qty: number, unlimited = false) {
  await db
    .update(productVariants)
    .set({ qtyInStock: qty, unlimited })
    .where(eq(productVariants.id, variantId));
}

export async function emailsTo(db: Db, to: string) {
  return db
    .select()
    .from(outboundEmails)
    .where(and(eq(outboundEmails.toAddress, to)));
}
