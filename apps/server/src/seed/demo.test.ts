import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp, freshDatabase } from "../../test/harness.js";
import { count } from "drizzle-orm";
import { websites } from "../db/schema.js";
import { signUp } from "../modules/accounts/service.js";
import { seedDemoIfEmpty } from "./demo.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

type Variant = {
  sku: string;
  attributes: Record<string, string>;
  priceMoney: { value: string; currency: string };
  qtyInStock: number;
  unlimited: boolean;
  onSale: boolean;
};
type Product = {
  id: string;
  title: string;
  fullUrl: string;
  structuredContent: { productType: number; isSubscribable: boolean; variants: Variant[] };
};

describe("the demo store", () => {
  it("answers 200 HTML on every page of the demo", async () => {
    const b = new Browser(t.app);
    for (const url of ["/", "/shop", "/blog", "/events", "/gallery", "/contact", "/cart", "/search"]) {
      const res = await b.visit(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toContain("text/html");
      expect(res.body, url).toContain("Atelier Demo");
    }
    expect((await b.visit("/no-such-page")).statusCode).toBe(404);
  });

  it("has at least 16 products covering every product type, stock, sale and subscription case", async () => {
    const res = await t.app.inject({ url: "/shop?format=json", headers: { host: "localhost" } });
    expect(res.statusCode).toBe(200);
    const items = res.json().items as Product[];
    expect(items.length).toBeGreaterThanOrEqual(16);
    const types = new Set(items.map((i) => i.structuredContent.productType));
    expect([...types].sort()).toEqual([1, 2, 3, 4]);
    const physical = items.filter((i) => i.structuredContent.productType === 1);
    const soldOut = physical.filter((i) =>
      i.structuredContent.variants.every((v) => !v.unlimited && v.qtyInStock <= 0),
    );
    expect(soldOut.length).toBeGreaterThanOrEqual(1);
    const onSale = items.filter((i) => i.structuredContent.variants.some((v) => v.onSale));
    expect(onSale.length).toBeGreaterThanOrEqual(2);
    const limited = physical
      .flatMap((i) => i.structuredContent.variants)
      .filter((v) => !v.unlimited && v.qtyInStock >= 2 && v.qtyInStock <= 10);
    expect(limited.length).toBeGreaterThan(0);
    const sizeAndColour = physical.find((i) =>
      i.structuredContent.variants.some((v) => v.attributes.Size && v.attributes.Color),
    );
    expect(sizeAndColour).toBeDefined();
    expect(
      items.some((i) => i.structuredContent.isSubscribable && i.structuredContent.productType === 1),
    ).toBe(true);
    for (const item of items) {
      expect(item.fullUrl).toMatch(/^\/shop\/p\/[a-z0-9-]+$/);
      for (const v of item.structuredContent.variants) {
        expect(v.sku).toBeTruthy();
        expect(v.priceMoney.currency).toBe("USD");
        expect(v.priceMoney.value).toMatch(/^\d+\.\d\d$/);
      }
    }
    const page = await t.app.inject({ url: items[0]!.fullUrl, headers: { host: "localhost" } });
    expect(page.statusCode).toBe(200);
  });

  it("has a blog with authors, categories, tags and comments, events past and upcoming, a gallery and a contact form", async () => {
    const get = async (url: string) => (await t.app.inject({ url, headers: { host: "localhost" } })).json();
    const blog = await get("/blog?format=json");
    expect(blog.collection.itemCount).toBeGreaterThanOrEqual(6);
    expect(blog.items[0].author.displayName).toBeTruthy();
    expect(blog.items[0].categories.length).toBeGreaterThan(0);
    const commented = await get(`${blog.items[0].fullUrl}?format=json`);
    expect(commented.comments.length).toBeGreaterThan(0);
    const events = await get("/events?format=json");
    expect(events.upcoming.length).toBeGreaterThan(0);
    expect(events.past.length).toBeGreaterThan(0);
    expect(events.upcoming[0].location.addressLine1).toBeTruthy();
    const gallery = await get("/gallery?format=json");
    expect(gallery.items.length).toBeGreaterThanOrEqual(6);
    const contact = await get("/contact?format=json");
    const form = contact.layout.rows
      .flatMap((r: any) => r.columns.flatMap((c: any) => c.blocks))
      .find((b: any) => b.type === "form").form;
    const byId = Object.fromEntries(form.fields.map((f: any) => [f.id, f]));
    expect(Object.keys(byId)).toEqual(["name", "email", "phone", "subject", "message"]);
    expect(byId.email.required).toBe(true);
    expect(byId.message.required).toBe(true);
    expect(byId.subject.type).toBe("select");
    expect(byId.message.type).toBe("textarea");
  });

  it("serves the generated images", async () => {
    const shop = (await t.app.inject({ url: "/shop?format=json", headers: { host: "localhost" } })).json();
    const img = await t.app.inject({ url: shop.items[0].assetUrl, headers: { host: "localhost" } });
    expect(img.statusCode).toBe(200);
    expect(img.headers["content-type"]).toBe("image/svg+xml");
    expect(img.body).toContain("<svg");
  });

  it("never touches a database that already has a website", async () => {
    const again = await seedDemoIfEmpty(t.database.db, t.config, { now: () => new Date() });
    expect(again.seeded).toBe(false);
    const shop = (await t.app.inject({ url: "/shop?format=json", headers: { host: "localhost" } })).json();
    expect(shop.items.length).toBe(18);
  });

  it("never touches a database that has an owner account but no website yet", async () => {
    const fresh = await freshDatabase();
    try {
      // The owner signed up with the demo owner's email, on a start without the demo.
      await signUp(fresh.database.db, { email: t.config.demoOwnerEmail, password: "their own password" });
      const result = await seedDemoIfEmpty(fresh.database.db, t.config, { now: () => new Date() });
      expect(result.seeded).toBe(false);
      const [{ n }] = await fresh.database.db.select({ n: count() }).from(websites);
      expect(Number(n)).toBe(0);
    } finally {
      await fresh.database.close();
      await fresh.drop();
    }
  });

  it("keeps private fields out of the page context", async () => {
    const res = await t.app.inject({ url: "/contact?format=json-pretty", headers: { host: "localhost" } });
    expect(res.body).toContain('\n  "website"');
    for (const secret of [
      "passwordHash",
      "password_hash",
      "tokenHash",
      "storagePath",
      "notifyEmail",
      "captchaSecretKey",
    ]) {
      expect(res.body).not.toContain(secret);
    }
  });
});
