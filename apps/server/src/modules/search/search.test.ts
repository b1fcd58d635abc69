/**
 * Search through its stored, indexed documents (migration 0009): every write path keeps them
 * current (owner API, the demo seed, direct SQL as imports do), and what a visitor may not see
 * is never found, whatever the index holds.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { owner, siteApi, t as app, useDemoApp } from "../../../test/demo-app.js";
import { Browser } from "../../../test/harness.js";
import { RecordType } from "../../db/enums.js";
import * as t from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { type FixtureIds, seedRenderFixtures } from "../../render/fixtures.js";

let fx: FixtureIds;
let pages: { id: string; kind: string; title: string; urlSlug: string }[];
const DAY = 86_400_000;

useDemoApp();
beforeAll(async () => {
  fx = await seedRenderFixtures(app.database.db, app.config.dataDir);
  pages = (await owner.request({ url: `${siteApi}/pages` })).json().pages;
});

const blog = () => pages.find((p) => p.kind === "blog")!;
const items = () => `${siteApi}/collections/${blog().id}/items`;

async function search(q: string, host = "localhost") {
  const res = await new Browser(app.app, host).request({ url: `/api/search?q=${encodeURIComponent(q)}` });
  expect(res.statusCode).toBe(200);
  return res.json().results as {
    id: string;
    title: string;
    fullUrl: string;
    kind: string;
    snippet: string;
  }[];
}
const titles = async (q: string, host?: string) => (await search(q, host)).map((r) => r.title);

async function newPost(payload: Record<string, unknown>) {
  const res = await owner.request({ method: "POST", url: items(), payload });
  expect(res.statusCode).toBe(201);
  return res.json().item as { id: string; urlId: string };
}

describe("stored search documents", () => {
  it("are written for every row the demo seed and the fixtures made", async () => {
    const missing = await app.database.db.execute(sql`
      select (select count(*) from content_items where search_doc is null)::int as items,
             (select count(*) from collections where kind = 'page' and search_doc is null)::int as pages,
             (select count(*) from content_items)::int as total`);
    const row = ((missing as unknown as { rows: unknown[] }).rows[0] ?? {}) as Record<string, number>;
    expect(row).toMatchObject({ items: 0, pages: 0 });
    expect(row.total).toBeGreaterThan(10);
  });

  it("finds a new post at once, by whole and partial words, on the page and in the API", async () => {
    const post = await newPost({
      title: "Zephyrine Glazes",
      body: "<p>A note on <em>celadon</em> tiles fired in the quokkaland kiln.</p>",
      tags: ["gloaming"],
      publishOn: Date.now() - DAY,
    });
    expect(await titles("zephyrine")).toEqual(["Zephyrine Glazes"]);
    expect(await titles("zephyr")).toEqual(["Zephyrine Glazes"]);
    expect(await titles("celad quokkal")).toEqual(["Zephyrine Glazes"]);
    expect(await titles("gloaming")).toEqual(["Zephyrine Glazes"]);
    const [hit] = await search("celadon");
    expect(hit).toMatchObject({ fullUrl: `/blog/${post.urlId}`, kind: "blog" });
    expect(hit!.snippet).toContain("<mark>celadon</mark>");
    const page = await new Browser(app.app).visit("/search?q=zephyr");
    expect(page.body).toContain(`href="/blog/${post.urlId}"`);
  });

  it("follows edits and deletes", async () => {
    const post = await newPost({ title: "Brindlewood Notes", body: "<p>Sawdust firing.</p>" });
    expect(await titles("brindlewood")).toEqual(["Brindlewood Notes"]);
    const edit = await owner.request({
      method: "PUT",
      url: `${items()}/${post.id}`,
      payload: {
        title: "Tamarack Notes",
        body: "<p>Pit firing with seaweed.</p>",
        categories: ["Ochrelight"],
      },
    });
    expect(edit.statusCode).toBe(200);
    expect(await titles("brindlewood")).toEqual([]);
    expect(await titles("tamarack")).toEqual(["Tamarack Notes"]);
    expect(await titles("seaweed")).toEqual(["Tamarack Notes"]);
    expect(await titles("ochrelight")).toEqual(["Tamarack Notes"]);
    expect(await titles("sawdust")).toEqual([]);
    const del = await owner.request({ method: "DELETE", url: `${items()}/${post.id}` });
    expect(del.statusCode).toBeLessThan(300);
    expect(await titles("tamarack")).toEqual([]);
  });

  it("never finds drafts or scheduled posts, until they are live", async () => {
    const draft = await newPost({ title: "Quillwort Draft", status: "draft" });
    await newPost({ title: "Quillwort Scheduled", publishOn: Date.now() + 3 * DAY });
    expect(await titles("quillwort")).toEqual([]);
    const live = await owner.request({
      method: "PUT",
      url: `${items()}/${draft.id}`,
      payload: { title: "Quillwort Draft", status: "published", publishOn: Date.now() - DAY },
    });
    expect(live.statusCode).toBe(200);
    expect(await titles("quillwort")).toEqual(["Quillwort Draft"]);
  });

  it("finds a published page's text, and not once the page is locked or only drafted", async () => {
    const base = `${siteApi}/pages`;
    const created = await owner.request({
      method: "POST",
      url: base,
      payload: { kind: "page", title: "Larkspur Room" },
    });
    expect(created.statusCode).toBe(201);
    const pageId = created.json().page.id as string;
    const block = (html: string) => ({
      rows: [{ columns: [{ span: 12, blocks: [{ id: "t", type: "text", html }] }] }],
    });
    const published = await owner.request({
      method: "POST",
      url: `${base}/${pageId}/publish`,
      payload: { layout: block("<p>Our marmalade workshop meets on Fridays.</p>") },
    });
    expect(published.statusCode).toBe(200);
    expect(await titles("marmalade")).toEqual(["Larkspur Room"]);
    expect(await titles("larksp")).toEqual(["Larkspur Room"]);
    const draft = await owner.request({
      method: "PUT",
      url: `${base}/${pageId}/draft`,
      payload: block("<p>Bergamot only in the draft.</p>"),
    });
    expect(draft.statusCode).toBe(200);
    expect(await titles("bergamot")).toEqual([]);
    const locked = await owner.request({
      method: "PATCH",
      url: `${base}/${pageId}`,
      payload: { password: "let me in please" },
    });
    expect(locked.statusCode).toBe(200);
    expect(await titles("marmalade")).toEqual([]);
    await owner.request({ method: "PATCH", url: `${base}/${pageId}`, payload: { password: null } });
    expect(await titles("marmalade")).toEqual(["Larkspur Room"]);
  });

  it("keeps to the site of the host: rows written straight to the database are found only there", async () => {
    const [collection] = await app.database.db
      .select({ id: t.collections.id })
      .from(t.collections)
      .where(sql`${t.collections.websiteId} = ${fx.classic} and ${t.collections.kind} = 'blog'`)
      .limit(1);
    expect(collection).toBeDefined();
    await app.database.db.insert(t.contentItems).values({
      id: newId(),
      websiteId: fx.classic,
      collectionId: collection!.id,
      recordType: RecordType.TEXT,
      urlId: "imported-wolfsbane",
      title: "Imported Wolfsbane",
      body: "<p>Written by an import.</p>",
    });
    expect(await titles("wolfsbane", "classic.localhost")).toEqual(["Imported Wolfsbane"]);
    expect(await titles("wolfsbane")).toEqual([]);
    expect(await titles("tides", "classic.localhost")).toContain("On Tides");
    expect(await titles("tides")).toEqual([]);
    expect(await titles("zephyrine", "classic.localhost")).toEqual([]);
  });

  it("ranks title matches above body matches, as before", async () => {
    await newPost({ title: "Notes on glassware", body: "<p>Mostly about cups.</p>" });
    await newPost({
      title: "A Morning at the Studio",
      body: "<p>We wrapped the glassware for the fair.</p>",
    });
    expect(await titles("glassware")).toEqual(["Notes on glassware", "A Morning at the Studio"]);
  });
});
