import { beforeAll, describe, expect, it } from "vitest";
import { owner, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { signedUpOwner } from "../../../test/harness.js";
import { contentItems } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { published } from "../owner-sites/published.test-helper.js";

let pages: { id: string; kind: string; title: string }[];

useDemoApp();
beforeAll(async () => {
  pages = (await owner.request({ url: `/api/owner/sites/${siteId}/pages` })).json().pages;
});

const of = (kind: string) => pages.find((p) => p.kind === kind)!;
const items = (c: string) => `/api/owner/sites/${siteId}/collections/${c}/items`;
const DAY = 86400_000;
/** Adds an item to collection `c` as the owner; answers the response. */
const addItem = (c: string, payload: Record<string, unknown>) =>
  owner.request({ method: "POST", url: items(c), payload });

describe("blog posts", () => {
  it("lists posts newest first and writes a post that is live at once", async () => {
    const blog = of("blog");
    const list = (await owner.request({ url: items(blog.id) })).json();
    expect(list.collection.kind).toBe("blog");
    expect(list.items.length).toBeGreaterThan(0);
    const dates = list.items.map((i: { publishOn: number }) => i.publishOn);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const res = await addItem(blog.id, {
      title: "Firing the Big Kiln",
      body: "<p>It took <strong>three</strong> days.</p><script>alert(1)</script>",
      excerpt: "Notes from a long weekend.",
      authorName: "Maya",
      categories: ["Process"],
      tags: ["kiln", "glaze"],
      publishOn: Date.now() - DAY,
    });
    expect(res.statusCode).toBe(201);
    const post = res.json().item;
    expect(post).toMatchObject({
      urlId: "firing-the-big-kiln",
      body: "<p>It took <strong>three</strong> days.</p>",
      tags: ["kiln", "glaze"],
    });
    const page = (await published(t.app, "/blog/firing-the-big-kiln", (r) => r.status === 200)).json;
    expect(page.item.title).toBe("Firing the Big Kiln");
    const edit = await owner.request({
      method: "PUT",
      url: `${items(blog.id)}/${post.id}`,
      payload: { title: "Firing the Big Kiln Again", body: "<p>Updated.</p>", categories: ["Process"] },
    });
    expect(edit.json().item).toMatchObject({
      title: "Firing the Big Kiln Again",
      urlId: "firing-the-big-kiln",
    });
    const again = await owner.request({ url: `${items(blog.id)}/${post.id}` });
    expect(again.json().item.publishOn).toBe(post.publishOn);
  });

  it("refuses long categories and tags, a taken URL and a URL too long", async () => {
    const blog = of("blog");
    const post = (payload: object) => owner.request({ method: "POST", url: items(blog.id), payload });
    expect((await post({ title: "X", categories: ["c".repeat(26)] })).json().error.message).toBe(
      "Categories can be at most 25 characters.",
    );
    expect((await post({ title: "X", tags: ["t".repeat(51)] })).json().error.message).toBe(
      "Tags can be at most 50 characters.",
    );
    const taken = await post({ title: "X", urlId: "firing-the-big-kiln" });
    expect(taken.statusCode).toBe(409);
    expect((await post({ title: "X", urlId: "a".repeat(2080) })).json().error.message).toBe(
      "URLs must be under 2083 characters.",
    );
    expect((await post({ title: "" })).json().error.message).toBe("Please give it a title.");
  });

  it("enforces 10000 categories per collection", async () => {
    const blog = of("blog");
    const existing = (await owner.request({ url: `${items(blog.id)}?pageSize=250` })).json().items as {
      categories: string[];
    }[];
    const have = new Set(existing.flatMap((i) => i.categories));
    await t.database.db.insert(contentItems).values({
      id: newId(),
      websiteId: siteId,
      collectionId: blog.id,
      recordType: 1,
      urlId: "many-categories",
      title: "Many",
      categories: Array.from({ length: 10000 - have.size }, (_, i) => `c${i}`),
    });
    const res = await addItem(blog.id, { title: "One more", categories: ["brand new"] });
    expect(res.json().error.message).toBe("A collection can have at most 10000 categories.");
    const reuse = await addItem(blog.id, { title: "Reuse", categories: ["c1"] });
    expect(reuse.statusCode).toBe(201);
  });
});

describe("events", () => {
  it("needs a start, an end after it; stores the location", async () => {
    const events = of("events");
    const start = Date.now() + 10 * DAY;
    const bad = await addItem(events.id, { title: "Open Studio" });
    expect(bad.json().error.message).toBe("An event needs a start.");
    const backwards = await addItem(events.id, {
      title: "Open Studio",
      startDate: start,
      endDate: start - 1000,
    });
    expect(backwards.json().error.message).toBe("The end must be after the start.");
    const ok = await addItem(events.id, {
      title: "Winter Open Studio",
      startDate: start,
      endDate: start + 3 * 3600_000,
      location: {
        addressTitle: "Atelier Studio",
        addressLine1: "214 Mercer Street",
        mapLat: 40.7,
        mapLng: -73.99,
      },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().item).toMatchObject({ startDate: start, location: { addressTitle: "Atelier Studio" } });
    const page = (await published(t.app, "/events/winter-open-studio", (r) => r.status === 200)).json;
    expect(page.item.startDate).toBe(start);
    const badLat = await addItem(events.id, { title: "Far", startDate: start, location: { mapLat: 91 } });
    expect(badLat.json().error.message).toBe("Latitude is from -90 to 90.");
  });
});

describe("galleries and albums", () => {
  it("adds gallery images, reorders them by hand, and stops at 250", async () => {
    const gallery = of("gallery");
    const media = (await owner.request({ url: `/api/owner/websites/${siteId}/media` })).json().media;
    const noImage = await addItem(gallery.id, { title: "Empty" });
    expect(noImage.json().error.message).toBe("Choose an image.");
    const added = await addItem(gallery.id, { title: "Kiln at dusk", mainImageId: media[0].id });
    expect(added.statusCode).toBe(201);
    expect(added.json().item.imageUrl).toContain(`/media/${media[0].id}/`);
    const list = (await owner.request({ url: items(gallery.id) })).json().items as { id: string }[];
    const reversed = list.map((i) => i.id).reverse();
    const reordered = await owner.request({
      method: "PUT",
      url: `${items(gallery.id)}/order`,
      payload: { ids: reversed },
    });
    expect(reordered.json().items.map((i: { id: string }) => i.id)).toEqual(reversed);
    const partial = await owner.request({
      method: "PUT",
      url: `${items(gallery.id)}/order`,
      payload: { ids: reversed.slice(1) },
    });
    expect(partial.statusCode).toBe(400);
    const blogOrder = await owner.request({
      method: "PUT",
      url: `${items(of("blog").id)}/order`,
      payload: { ids: [] },
    });
    expect(blogOrder.json().error.message).toBe("Posts and events are ordered by their dates.");
    await t.database.db.insert(contentItems).values(
      Array.from({ length: 250 - list.length }, (_, i) => ({
        id: newId(),
        websiteId: siteId,
        collectionId: gallery.id,
        recordType: 2,
        urlId: `filler-${i}`,
        title: `Filler ${i}`,
        mainImageId: media[0].id,
      })),
    );
    const full = await addItem(gallery.id, { title: "One too many", mainImageId: media[0].id });
    expect(full.statusCode).toBe(409);
    expect(full.json().error.message).toBe("A collection can have at most 250 items.");
  });

  it("adds album tracks up to 60", async () => {
    const album = (
      await owner.request({
        method: "POST",
        url: `/api/owner/sites/${siteId}/pages`,
        payload: { kind: "album", title: "Studio Sounds" },
      })
    ).json().page;
    const noUrl = await owner.request({ method: "POST", url: items(album.id), payload: { title: "Wheel" } });
    expect(noUrl.json().error.message).toBe("Enter the address of the audio file.");
    for (let i = 0; i < 60; i++) {
      const res = await addItem(album.id, {
        title: `Track ${i + 1}`,
        audioUrl: `https://cdn.example.com/t${i}.mp3`,
      });
      expect(res.statusCode).toBe(201);
    }
    const full = await addItem(album.id, { title: "61", audioUrl: "https://x.example/61.mp3" });
    expect(full.statusCode).toBe(409);
    expect(full.json().error.message).toBe("An album can have at most 60 tracks.");
  }, 60_000);

  it("refuses layout pages and stores, deletes items, and keeps other owners out", async () => {
    const page = pages.find((p) => p.kind === "page")!;
    expect((await owner.request({ url: items(page.id) })).json().error.message).toBe(
      "This page has no items: it is built from blocks.",
    );
    expect((await owner.request({ url: items(of("products").id) })).json().error.message).toBe(
      "Products are edited in the product editor.",
    );
    const blog = of("blog");
    const post = (await owner.request({ url: items(blog.id) })).json().items[0];
    const mallory = await signedUpOwner(t, "m2@example.com");
    expect((await mallory.request({ url: items(blog.id) })).statusCode).toBe(404);
    expect(
      (await mallory.request({ method: "DELETE", url: `${items(blog.id)}/${post.id}` })).statusCode,
    ).toBe(404);
    expect(
      (
        await mallory.request({
          method: "PUT",
          url: `${items(blog.id)}/${post.id}`,
          payload: { title: "pwned" },
        })
      ).statusCode,
    ).toBe(404);
    expect((await owner.request({ method: "DELETE", url: `${items(blog.id)}/${post.id}` })).statusCode).toBe(
      200,
    );
    expect((await owner.request({ url: `${items(blog.id)}/${post.id}` })).statusCode).toBe(404);
  });
});
