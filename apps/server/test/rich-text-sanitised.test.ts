/**
 * Owner-authored rich text never reaches a page as live markup: every rich-text field of every
 * entity is sanitised on write (owner API) and again on render (whatever is stored), in the HTML
 * of the published pages and in their `?format=json`.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../src/db/schema.js";
import { owner, siteId, t, useDemoApp } from "./demo-app.js";

const PAYLOADS = [
  `<img src=x onerror=alert(1)>"><script>alert(2)</script>`,
  `<a href="javascript:alert(3)">j</a><a href=" jav&#x09;ascript:alert(4)">k</a>`,
  `<a href="data:text/html,<script>alert(5)</script>">d</a><img src="data:text/html;base64,PHNjcmlwdD4=">`,
  `<svg onload=alert(6)><circle r="1"/></svg><math><mi onclick=alert(7)>x</mi></math>`,
  `<style>body{display:none}</style><p style="x" onmouseover="alert(8)">styled</p>`,
  `<p <img src=x onerror=alert(9)>broken <b>bold <iframe src="https://evil.example"></iframe>`,
];
const PAYLOAD = PAYLOADS.join("");

/** Live markup a payload could leave behind, in HTML or in JSON strings. */
const DANGERS: [string, RegExp][] = [
  ["script element from content", /<script>alert/i],
  ["event handler attribute", /<[a-z][^<>]*\son[a-z]+\s*=/i],
  ["javascript: URL", /<[a-z][^<>]*\s(href|src)\s*=\s*\\?["']?\s*jav[^"'>]*script:/i],
  ["data: URL in a link or frame", /<[a-z][^<>]*\s(href|src)\s*=\s*\\?["']?data:text/i],
  ["svg or math from content", /<svg onload|<math>/i],
  ["style element from content", /<style>body\{display:none/i],
  ["iframe from rich text", /<iframe[^>]*evil\.example/i],
];

function dangersIn(text: string): string[] {
  return DANGERS.filter(([, re]) => re.test(text)).map(
    ([name, re]) =>
      `${name}: …${text.slice(Math.max(0, re.exec(text)!.index - 60), re.exec(text)!.index + 160)}…`,
  );
}

// Direct database writes below do not announce content changes: render every page afresh.
useDemoApp({ env: { PAGE_CACHE: "false" } });

async function pageAndJson(path: string): Promise<{ html: string; json: string }> {
  const html = await t.app.inject({ url: path });
  const json = await t.app.inject({ url: `${path}?format=json` });
  expect({ path, html: html.statusCode, json: json.statusCode }).toEqual({ path, html: 200, json: 200 });
  return { html: html.body, json: json.body };
}

describe("rich text on published pages", () => {
  it("sanitises what is stored on the way out: bodies, excerpts, form messages, tagline, button text", async () => {
    const db = t.database.db;
    const [site] = await db.select().from(s.websites).where(eq(s.websites.id, siteId));
    await db.update(s.websites).set({ tagline: PAYLOAD }).where(eq(s.websites.id, siteId));
    const items = await db.select().from(s.contentItems).where(eq(s.contentItems.websiteId, site!.id));
    for (const item of items) {
      const sc = item.structuredContent as Record<string, unknown> | null;
      await db
        .update(s.contentItems)
        .set({
          body: PAYLOAD,
          excerpt: PAYLOAD,
          ...(sc?.productType
            ? { structuredContent: { ...sc, useCustomAddButtonText: true, customAddButtonText: PAYLOAD } }
            : {}),
        })
        .where(eq(s.contentItems.id, item.id));
    }
    await db
      .update(s.forms)
      .set({ submissionMessage: PAYLOAD, submissionHtml: PAYLOAD, disclaimerMessage: PAYLOAD })
      .where(eq(s.forms.websiteId, site!.id));

    const product = items.find((i) => (i.structuredContent as { productType?: number } | null)?.productType);
    const shop = JSON.parse((await pageAndJson("/shop")).json);
    const blog = JSON.parse((await pageAndJson("/blog")).json);
    const events = JSON.parse((await pageAndJson("/events")).json);
    const paths = [
      "/",
      "/shop",
      `/shop/p/${product!.urlId}`,
      "/blog",
      blog.items[0].fullUrl,
      "/events",
      events.upcoming?.[0]?.fullUrl ?? events.items?.[0]?.fullUrl,
      "/contact",
    ].filter(Boolean) as string[];
    expect(shop.items.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const path of paths) {
      const { html, json } = await pageAndJson(path);
      for (const d of dangersIn(html)) found.push(`${path} (HTML): ${d}`);
      for (const d of dangersIn(json)) found.push(`${path} (JSON): ${d}`);
    }
    expect(found).toEqual([]);
    // The harmless parts of the rich text survive.
    const post = JSON.parse((await pageAndJson(blog.items[0].fullUrl)).json);
    expect(post.item.body).toContain("<b>bold ");
    expect(post.item.excerpt).toContain("styled");
  });

  it("stores only sanitised rich text from the owner API: products, posts, forms", async () => {
    const base = `/api/owner/sites/${siteId}`;
    const pages = (await owner.request({ url: `${base}/pages` })).json().pages as {
      id: string;
      kind: string;
    }[];
    const blog = pages.find((p) => p.kind === "blog")!;
    const post = await owner.request({
      method: "POST",
      url: `${base}/collections/${blog.id}/items`,
      payload: { title: "Sanitised", body: PAYLOAD, excerpt: PAYLOAD, publishOn: Date.now() - 1000 },
    });
    expect(post.statusCode).toBe(201);
    const stored = post.json().item;
    expect(dangersIn(stored.body)).toEqual([]);
    expect(dangersIn(stored.excerpt)).toEqual([]);
    expect(stored.excerpt).toContain("styled");

    const shop = pages.find((p) => p.kind === "products")!;
    const created = await owner.request({
      method: "POST",
      url: `${base}/products`,
      payload: {
        collectionId: shop.id,
        title: "Sanitised Mug",
        productType: 1,
        body: PAYLOAD,
        excerpt: PAYLOAD,
        useCustomAddButtonText: true,
        customAddButtonText: "<b>Buy</b> <script>alert(10)</script>now",
        variants: [{ attributes: {}, priceCents: 1000, qtyInStock: 1 }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json().product;
    expect(dangersIn(product.body)).toEqual([]);
    expect(dangersIn(product.excerpt)).toEqual([]);
    expect(product.customAddButtonText).toBe("Buy now");

    const forms = (await owner.request({ url: `${base}/forms` })).json().forms as { id: string }[];
    const patched = await owner.request({
      method: "PATCH",
      url: `${base}/forms/${forms[0]!.id}`,
      payload: { submissionMessage: PAYLOAD, submissionHtml: PAYLOAD, disclaimerMessage: PAYLOAD },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const [form] = await t.database.db.select().from(s.forms).where(eq(s.forms.id, forms[0]!.id));
    expect(dangersIn(`${form!.submissionMessage}${form!.submissionHtml}${form!.disclaimerMessage}`)).toEqual(
      [],
    );
  });
});
