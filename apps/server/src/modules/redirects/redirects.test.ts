/**
 * URL mappings: the owner's rules (exact and prefix, 301 and 302) answer before a 404, bad and
 * looping rules are refused with nothing saved, and a page's or product's changed address
 * answers 301 from the old one, also after moving back.
 */
import { describe, expect, it } from "vitest";
import { siteApi as base, owner, ownerSends, t, useDemoApp } from "../../../test/demo-app.js";
import { REDIRECT_MSG, followRedirects, matchRedirect } from "./service.js";
import { eventually } from "../../../test/harness.js";

useDemoApp();

const visit = (url: string) => t.app.inject({ url });
/** A change shows a moment after its commit on PostgreSQL (the page cache hears of it by NOTIFY). */
const statusOf = (url: string) => async () => (await visit(url)).statusCode;
const locationOf = (url: string) => async () => (await visit(url)).headers.location;
const add = (payload: object) => owner.request({ method: "POST", url: `${base}/redirects`, payload });
const rules = async () =>
  (await owner.request({ url: `${base}/redirects` })).json().redirects as {
    id: string;
    from: string;
    to: string;
    status: number;
    automatic: boolean;
  }[];

describe("matching", () => {
  it("prefers an exact rule, then the longest prefix, carrying the rest where the target asks", () => {
    const set = [
      { fromPath: "/a/*", toPath: "/x" },
      { fromPath: "/a/b/*", toPath: "/y/*" },
      { fromPath: "/a/b/c", toPath: "/z" },
    ];
    expect(matchRedirect(set, "/a/b/c")?.to).toBe("/z");
    expect(matchRedirect(set, "/a/b/d/e")?.to).toBe("/y/d/e");
    expect(matchRedirect(set, "/a/q")?.to).toBe("/x");
    expect(matchRedirect(set, "/a")?.to).toBe("/x");
    expect(matchRedirect(set, "/ab")).toBeUndefined();
    expect(followRedirects([...set, { fromPath: "/z", toPath: "/a/b/c" }], "/a/b/c").loops).toBe(true);
  });

  it("matches a rule with a query when the request carries its parameters, and one-segment patterns", () => {
    const set = [
      { fromPath: "/?p=12", toPath: "/blog/post" },
      { fromPath: "/?page_id=7", toPath: "/about" },
      { fromPath: "/collections/*/products/shirt", toPath: "/shop/p/shirt" },
      { fromPath: "/products/shirt", toPath: "/shop/p/shirt" },
    ];
    expect(matchRedirect(set, "/", "p=12")?.to).toBe("/blog/post");
    expect(matchRedirect(set, "/", "post_type=post&p=12")?.to).toBe("/blog/post");
    expect(matchRedirect(set, "/", "p=123")).toBeUndefined();
    expect(matchRedirect(set, "/", "")).toBeUndefined();
    expect(matchRedirect(set, "/", "page_id=7")?.to).toBe("/about");
    expect(matchRedirect(set, "/collections/summer/products/shirt")?.to).toBe("/shop/p/shirt");
    expect(matchRedirect(set, "/collections/summer/sale/products/shirt")).toBeUndefined();
    expect(matchRedirect(set, "/collections/summer/products/shirts")).toBeUndefined();
    expect(matchRedirect(set, "/products/shirt")?.to).toBe("/shop/p/shirt");
  });
});

describe("the owner's URL mappings", () => {
  it("refuses bad rules with the field's message, duplicates and loops, saving nothing", async () => {
    const cases: [object, number, string][] = [
      [{ from: "old", to: "/shop" }, 400, REDIRECT_MSG.FROM],
      [{ from: "/old page", to: "/shop" }, 400, REDIRECT_MSG.FROM],
      [{ from: "/old?", to: "/shop" }, 400, REDIRECT_MSG.FROM],
      [{ from: "/old/*?x=1", to: "/shop" }, 400, REDIRECT_MSG.FROM],
      [{ from: "/old", to: "javascript:alert(1)" }, 400, REDIRECT_MSG.TO],
      [{ from: "/old", to: "//evil.example" }, 400, REDIRECT_MSG.TO],
      [{ from: "/old", to: "/old" }, 400, REDIRECT_MSG.SAME],
    ];
    for (const [payload, status, message] of cases) {
      const res = await add(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error.message).toBe(message);
    }
    expect((await add({ from: "/old", to: "/shop", status: 303 })).statusCode).toBe(400);
    expect((await add({ from: "/loop-a", to: "/loop-b" })).statusCode).toBe(201);
    const loop = await add({ from: "/loop-b", to: "/loop-a" });
    expect(loop.statusCode).toBe(400);
    expect(loop.json().error.message).toBe(
      "This redirect would send visitors round in a loop: /loop-b → /loop-a → /loop-b.",
    );
    expect((await add({ from: "/p1/*", to: "/p2/*" })).statusCode).toBe(201);
    expect((await add({ from: "/p2/*", to: "/p1/*" })).statusCode).toBe(400);
    const dup = await add({ from: "/loop-a", to: "/shop" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.fields.from).toBe(REDIRECT_MSG.TAKEN);
    expect((await rules()).map((r) => r.from).sort()).toEqual(["/loop-a", "/p1/*"]);
  });

  it("answers 301 or 302 before the 404, never over a page that exists", async () => {
    // A missing page, cached as 404, then mapped: the mapping answers at once.
    expect((await visit("/old-about")).statusCode).toBe(404);
    expect((await visit("/old-about")).headers["x-page-cache"]).toBe("hit");
    expect((await add({ from: "/old-about/", to: "/contact" })).statusCode).toBe(201);
    await eventually(statusOf("/old-about?utm=x")).toBe(301);
    expect((await visit("/old-about?utm=x")).headers.location).toBe("/contact?utm=x");
    expect((await add({ from: "/sale", to: "/shop", status: 302 })).statusCode).toBe(201);
    await eventually(statusOf("/sale")).toBe(302);
    expect((await add({ from: "/old-shop/*", to: "/shop/*" })).statusCode).toBe(201);
    await eventually(locationOf("/old-shop/p/linen-work-apron")).toBe("/shop/p/linen-work-apron");
    expect((await visit("/old-shop/p/linen-work-apron")).statusCode).toBe(301);
    expect((await add({ from: "/press", to: "https://example.com/press-kit" })).statusCode).toBe(201);
    await eventually(locationOf("/press")).toBe("https://example.com/press-kit");
    // An existing page is served, whatever a rule says.
    expect((await add({ from: "/shop", to: "/blog" })).statusCode).toBe(201);
    expect((await visit("/shop")).statusCode).toBe(200);
    // Removed: the 404 again.
    const sale = (await rules()).find((r) => r.from === "/sale")!;
    expect((await owner.request({ method: "DELETE", url: `${base}/redirects/${sale.id}` })).statusCode).toBe(
      200,
    );
    await eventually(statusOf("/sale")).toBe(404);
    expect((await owner.request({ method: "DELETE", url: `${base}/redirects/${sale.id}` })).statusCode).toBe(
      404,
    );
  });

  it("adds a 301 when a page's or a product's address changes, and nothing loops after moving back", async () => {
    const pages = (await owner.request({ url: `${base}/pages` })).json().pages as {
      id: string;
      urlSlug: string;
    }[];
    const blog = pages.find((p) => p.urlSlug === "blog")!;
    const rename = (urlSlug: string) => ownerSends("PATCH", `/pages/${blog.id}`, { urlSlug });
    expect((await rename("journal")).statusCode).toBe(200);
    await eventually(locationOf("/blog")).toBe("/journal");
    expect((await visit("/blog")).statusCode).toBe(301);
    await eventually(locationOf("/blog/a-week-at-the-wheel")).toBe("/journal/a-week-at-the-wheel");
    expect((await visit("/journal/a-week-at-the-wheel")).statusCode).toBe(200);
    expect((await rules()).find((r) => r.from === "/blog")).toMatchObject({
      to: "/journal",
      status: 301,
      automatic: true,
    });

    // Back again: /journal now leads to /blog, and /blog is the page itself.
    expect((await rename("blog")).statusCode).toBe(200);
    await eventually(statusOf("/blog")).toBe(200);
    await eventually(locationOf("/journal")).toBe("/blog");
    expect((await rules()).some((r) => r.from === "/blog")).toBe(false);

    const products = (await owner.request({ url: `${base}/products?q=apron` })).json();
    const apron = products.products[0];
    const full = (await owner.request({ url: `${base}/products/${apron.id}` })).json().product;
    const put = await ownerSends("PUT", `/products/${apron.id}`, {
      collectionId: full.collectionId,
      title: full.title,
      urlId: "linen-apron",
      productType: full.productType,
      variants: full.variants.map((v: Record<string, unknown>) => ({
        id: v.id,
        sku: v.sku,
        attributes: v.attributes,
        priceCents: v.priceCents,
        qtyInStock: v.qtyInStock,
      })),
      variantOptionOrdering: full.variantOptionOrdering,
    });
    expect(put.statusCode, put.body).toBe(200);
    await eventually(locationOf("/shop/p/linen-work-apron")).toBe("/shop/p/linen-apron");
  });
});
