/**
 * The trash through the real app: a deleted product (variants, images, categories) leaves the
 * shop, search and the sitemap, waits in the trash, and comes back on sale with the same URL and
 * stock; a URL taken meanwhile gets a free variant and the owner is told; forms, pages with their
 * items and media files come back too; after 30 days the job queue deletes them, files included.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { siteApi as base, owner, ownerSends, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { ownerWithSite, signIn } from "../../../test/harness.js";
import { multipartUpload } from "../../../test/multipart.js";
import { DAY_MS } from "../../lib/clock.js";
import { runDueJobs } from "../jobs/service.js";
import { published } from "../owner-sites/published.test-helper.js";
import { queuePrune } from "./jobs.js";

let now = new Date("2026-11-20T12:00:00Z");
const clock = { now: () => new Date(now) };

useDemoApp({ clock });

let shopId: string;
beforeAll(async () => {
  shopId = (await owner.request({ url: `${base}/pages` }))
    .json()
    .pages.find((p: { kind: string }) => p.kind === "products").id;
});

async function upload(color: string) {
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: color } })
    .png()
    .toBuffer();
  const res = await owner.request({
    method: "POST",
    url: `/api/owner/websites/${siteId}/media`,
    ...multipartUpload({ bytes: png, filename: `${color.slice(1)}.png`, contentType: "image/png" }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().media.id as string;
}

const trash = async () =>
  (await owner.request({ url: `${base}/trash` })).json().entries as {
    entityType: string;
    entityId: string;
    title: string;
    url: string;
  }[];
const page = (path: string) => t.app.inject({ url: path, headers: { host: "localhost" } });

describe("the trash", () => {
  it("restores a deleted product with its variants, images, categories, URL and stock, on sale again", async () => {
    const images = [await upload("#aa3344"), await upload("#3344aa")];
    const res = await ownerSends("POST", "/products", {
      collectionId: shopId,
      title: "Indigo Throw",
      productType: 1,
      body: "<p>Hand-dyed indigo throw.</p>",
      imageIds: images,
      categories: ["Textiles"],
      variantOptionOrdering: ["Size"],
      variants: [
        { attributes: { Size: "Small" }, priceCents: 8900, qtyInStock: 3, sku: "THROW-S" },
        { attributes: { Size: "Large" }, priceCents: 12900, qtyInStock: 7, sku: "THROW-L" },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const product = res.json().product;
    const url = product.fullUrl as string;
    const before = (await published(t.app, url, (p) => p.status === 200)).json.item;

    expect(
      (await owner.request({ method: "DELETE", url: `${base}/products/${product.id}` })).statusCode,
    ).toBe(200);
    expect((await published(t.app, url, (p) => p.status === 404)).status).toBe(404);
    expect((await page("/sitemap.xml")).body).not.toContain(url);
    expect((await page("/search?q=indigo&format=json")).body).not.toContain("Indigo Throw");
    expect(
      (await owner.request({ url: `${base}/products` })).json().products.map((p: { id: string }) => p.id),
    ).not.toContain(product.id);
    expect(await trash()).toContainEqual(
      expect.objectContaining({
        entityType: "product",
        entityId: product.id,
        title: "Indigo Throw",
        url,
        deletedBy: "Maya Chen",
      }),
    );

    const restored = await ownerSends("POST", `/trash/product/${product.id}/restore`, {});
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().notice).toBeUndefined();
    const after = (await published(t.app, url, (p) => p.status === 200)).json.item;
    expect(after.id).toBe(before.id);
    expect(after.categories).toEqual(["Textiles"]);
    expect(
      after.structuredContent.variants.map((v: { sku: string; qtyInStock: number; price: number }) => [
        v.sku,
        v.qtyInStock,
        v.price,
      ]),
    ).toEqual([
      ["THROW-S", 3, 8900],
      ["THROW-L", 7, 12900],
    ]);
    expect(after.items?.map((i: { id: string }) => i.id) ?? after.assetUrl).toEqual(
      before.items?.map((i: { id: string }) => i.id) ?? before.assetUrl,
    );
    const back = (await owner.request({ url: `${base}/products/${product.id}` })).json().product;
    expect(back.imageIds).toEqual(images);
    expect(await trash()).not.toContainEqual(expect.objectContaining({ entityId: product.id }));
    // On sale again: it goes in a cart.
    const history = (await owner.request({ url: `${base}/history?entity=product:${product.id}` })).json()
      .versions;
    expect(history.map((v: { kind: string }) => v.kind)).toEqual(["restore", "delete", "create"]);
  });

  it("gives a restored product a free URL when another took its own, and says so", async () => {
    const body = {
      collectionId: shopId,
      title: "Clay Bowl",
      productType: 1,
      variants: [{ attributes: {}, priceCents: 1500, qtyInStock: 2 }],
    };
    const first = (await ownerSends("POST", "/products", body)).json().product;
    await owner.request({ method: "DELETE", url: `${base}/products/${first.id}` });
    const second = (await ownerSends("POST", "/products", body)).json().product;
    expect(second.fullUrl).toBe(first.fullUrl);
    const res = await ownerSends("POST", `/trash/product/${first.id}/restore`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().restored.url).toBe(`${first.fullUrl}-2`);
    expect(res.json().notice).toBe(
      `Another product took ${first.fullUrl} while this one was in the trash: it is back at ${first.fullUrl}-2.`,
    );
    expect((await published(t.app, `${first.fullUrl}-2`, (p) => p.status === 200)).json.item.id).toBe(
      first.id,
    );
  });

  it("restores a blog with its posts, and a form", async () => {
    const blog = (await ownerSends("POST", "/pages", { kind: "blog", title: "Field Notes" })).json().page;
    const post = await ownerSends("POST", `/collections/${blog.id}/items`, {
      title: "Dyeing with woad",
      body: "<p>Blue.</p>",
    });
    expect(post.statusCode, post.body).toBe(201);
    expect((await owner.request({ method: "DELETE", url: `${base}/pages/${blog.id}` })).statusCode).toBe(200);
    expect(await trash()).toContainEqual(
      expect.objectContaining({ entityType: "collection", entityId: blog.id }),
    );
    expect((await ownerSends("POST", `/trash/collection/${blog.id}/restore`, {})).statusCode).toBe(200);
    const items = (await owner.request({ url: `${base}/collections/${blog.id}/items` })).json().items;
    expect(items.map((i: { title: string }) => i.title)).toEqual(["Dyeing with woad"]);

    const form = (
      await ownerSends("POST", "/forms", {
        name: "Wholesale",
        fields: [{ id: "email", type: "email", title: "Email" }],
      })
    ).json().form;
    expect(
      (await owner.request({ method: "DELETE", url: `${base}/forms/${form.id}` })).statusCode,
    ).toBeLessThan(300);
    expect((await ownerSends("POST", `/trash/form/${form.id}/restore`, {})).statusCode).toBe(200);
    expect(
      (await owner.request({ url: `${base}/forms` })).json().forms.map((f: { id: string }) => f.id),
    ).toContain(form.id);
  });

  it("purges what has been in the trash 30 days with the job queue, media files included; or now, on demand", async () => {
    const mediaId = await upload("#22aa66");
    const files = () => t.app.deps.media.list(`media/${siteId}/${mediaId}/`);
    expect((await files()).length).toBeGreaterThan(0);
    expect(
      (await owner.request({ method: "DELETE", url: `/api/owner/websites/${siteId}/media/${mediaId}` }))
        .statusCode,
    ).toBe(200);
    expect((await files()).length).toBeGreaterThan(0);
    now = new Date(now.getTime() + 29 * DAY_MS);
    await queuePrune(t.app.deps);
    await runDueJobs(t.app.deps, "test");
    expect(await trash()).toContainEqual(expect.objectContaining({ entityType: "media", entityId: mediaId }));
    now = new Date(now.getTime() + 2 * DAY_MS);
    await queuePrune(t.app.deps);
    await runDueJobs(t.app.deps, "test");
    // A month on, the owner's session has ended too.
    expect((await signIn(owner)).statusCode).toBe(200);
    expect(await trash()).not.toContainEqual(expect.objectContaining({ entityId: mediaId }));
    expect(await files()).toEqual([]);
    expect((await ownerSends("POST", `/trash/media/${mediaId}/restore`, {})).statusCode).toBe(404);

    const doomed = (await ownerSends("POST", "/pages", { kind: "page", title: "Doomed" })).json().page;
    await owner.request({ method: "DELETE", url: `${base}/pages/${doomed.id}` });
    expect(
      (await owner.request({ method: "DELETE", url: `${base}/trash/page/${doomed.id}` })).statusCode,
    ).toBe(200);
    expect(await trash()).not.toContainEqual(expect.objectContaining({ entityId: doomed.id }));
    expect((await ownerSends("POST", `/trash/nonsense/${doomed.id}/restore`, {})).statusCode).toBe(400);
  });

  it("keeps each site's trash to itself", async () => {
    const mine = (await ownerSends("POST", "/pages", { kind: "page", title: "Mine Alone" })).json().page;
    await owner.request({ method: "DELETE", url: `${base}/pages/${mine.id}` });
    const [entry] = await trash();
    const other = await ownerWithSite(t, "trash-stranger@example.com");
    expect(
      (await other.owner.request({ url: `/api/owner/sites/${other.siteId}/trash` })).json().entries,
    ).toEqual([]);
    const res = await other.owner.request({
      method: "POST",
      url: `/api/owner/sites/${other.siteId}/trash/${entry!.entityType}/${entry!.entityId}/restore`,
      payload: {},
    });
    expect(res.statusCode).toBe(404);
  });
});
