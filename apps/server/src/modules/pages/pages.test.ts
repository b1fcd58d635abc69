import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { siteApi as base, owner, ownerSends, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { published } from "../owner-sites/published.test-helper.js";
import { sanitizeRichText } from "./rich-text.js";

type Page = {
  id: string;
  kind: string;
  title: string;
  urlSlug: string;
  isHome: boolean;
  folderId: string | null;
};

useDemoApp();

const pages = async (): Promise<Page[]> => (await owner.request({ url: `${base}/pages` })).json().pages;
const addPage = (payload: object) => owner.request({ method: "POST", url: `${base}/pages`, payload });

describe("page tree", () => {
  it("lists the demo's pages in navigation order with item counts", async () => {
    const list = await pages();
    expect(list.map((p) => p.title)).toEqual(["Home", "Shop", "Journal", "Events", "Gallery", "Contact"]);
    const shop = (await owner.request({ url: `${base}/pages` })).json().pages[1];
    expect(shop.itemCount).toBeGreaterThan(0);
    expect(shop).not.toHaveProperty("passwordHash");
  });

  it("adds pages of every kind with a slug made from the title, unique within the site", async () => {
    const res = await addPage({ kind: "page", title: "Our Story" });
    expect(res.statusCode).toBe(201);
    expect(res.json().page).toMatchObject({ kind: "page", urlSlug: "our-story", fullUrl: "/our-story" });
    const again = await addPage({ kind: "page", title: "Our Story" });
    expect(again.json().page.urlSlug).toBe("our-story-2");
    for (const kind of ["blog", "events", "products", "gallery", "album", "folder"]) {
      const r = await addPage({ kind, title: `New ${kind}` });
      expect(r.statusCode, kind).toBe(201);
    }
    const folder = (await pages()).find((p) => p.kind === "folder")!;
    expect((folder as unknown as { folderBehavior: string }).folderBehavior).toBe("index");
    const inFolder = await addPage({ kind: "page", title: "Inside", folderId: folder.id });
    expect(inFolder.json().page.folderId).toBe(folder.id);
    const nested = await addPage({ kind: "folder", title: "Nested", folderId: folder.id });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().error.message).toBe("A folder cannot go inside another folder.");
    const created = (await published(t.app, "/our-story", (r) => r.status === 200)).json;
    expect(created.collection.title).toBe("Our Story");
  });

  it("refuses bad pages: unknown kind, empty title, bad or reserved or taken slug, URL too long", async () => {
    expect((await addPage({ kind: "spaceship", title: "X" })).statusCode).toBe(400);
    const empty = await addPage({ kind: "page", title: "   " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe("Please give the page a title.");
    const badSlug = await addPage({ kind: "page", title: "X", urlSlug: "Has Spaces" });
    expect(badSlug.json().error.fields.urlSlug).toBe(
      "A URL slug can use only lowercase letters, digits and single hyphens.",
    );
    // A slug typed in another script is transliterated, not refused.
    const greek = await addPage({ kind: "page", title: "Ελληνικά", urlSlug: "Ελληνικά" });
    expect(greek.statusCode, greek.body).toBe(201);
    expect(greek.json().page.urlSlug).toBe("ellinika");
    const reserved = await addPage({ kind: "page", title: "X", urlSlug: "cart" });
    expect(reserved.json().error.message).toBe("The URL /cart is used by the system. Please choose another.");
    const taken = await addPage({ kind: "page", title: "X", urlSlug: "shop" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe("Another page already uses the URL /shop.");
    const long = await addPage({ kind: "page", title: "X", urlSlug: "a".repeat(2082) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toBe("URLs must be under 2083 characters.");
  });

  it("changes page settings: title, slug, SEO, hidden from navigation, password shown only as protected", async () => {
    const page = (await addPage({ kind: "page", title: "Secret Sale" })).json().page;
    const res = await ownerSends("PATCH", `/pages/${page.id}`, {
      title: "Private Sale",
      urlSlug: "private-sale",
      seoTitle: "Private sale for friends",
      seoDescription: "Everything half price.",
      hiddenFromNav: true,
      password: "letmein",
    });
    expect(res.statusCode).toBe(200);
    const json = res.json().page;
    expect(json).toMatchObject({
      title: "Private Sale",
      urlSlug: "private-sale",
      seoTitle: "Private sale for friends",
      seoDescription: "Everything half price.",
      hiddenFromNav: true,
      passwordProtected: true,
    });
    expect(JSON.stringify(res.json())).not.toContain("letmein");
    expect(JSON.stringify(res.json())).not.toContain("argon");
    const home = await published(
      t.app,
      "/",
      (r) => !r.json.navigation.some((n: { title: string }) => n.title === "Private Sale"),
    );
    const nav = home.json.navigation.map((n: { title: string }) => n.title);
    expect(nav).not.toContain("Private Sale");
    const stored = await t.database.db.execute(
      `select password_hash from collections where id = '${page.id}'` as never,
    );
    expect(JSON.stringify(stored)).toContain("$argon2");
    const cleared = await ownerSends("PATCH", `/pages/${page.id}`, { password: null });
    expect(cleared.json().page.passwordProtected).toBe(false);
    const bad = await ownerSends("PATCH", `/pages/${page.id}`, {
      seoTitle: "x".repeat(201),
      password: "abc",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      seoTitle: "At most 200 characters.",
      password: "A page password needs at least 4 characters.",
    });
  });

  it("validates collection options with the gallery option ranges and folder behaviours", async () => {
    const gallery = (await pages()).find((p) => p.kind === "gallery" && p.title === "Gallery")!;
    const ok = await ownerSends("PATCH", `/pages/${gallery.id}`, {
      options: { design: "slideshow", "thumbnails-per-row": 6, padding: 10 },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().page.options).toMatchObject({
      design: "slideshow",
      "thumbnails-per-row": 6,
      padding: 10,
    });
    const bad = await ownerSends("PATCH", `/pages/${gallery.id}`, { options: { "thumbnails-per-row": 11 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe("Thumbnails per row: must be from 1 to 10.");
    const folder = (await pages()).find((p) => p.kind === "folder")!;
    const fb = await ownerSends("PATCH", `/pages/${folder.id}`, { folderBehavior: "redirect" });
    expect(fb.json().page.folderBehavior).toBe("redirect");
    const notFolder = await ownerSends("PATCH", `/pages/${gallery.id}`, { folderBehavior: "none" });
    expect(notFolder.statusCode).toBe(400);
  });

  it("reorders the navigation and moves pages in and out of folders", async () => {
    const list = await pages();
    const reversed = [...list].reverse().map((p) => ({ id: p.id, folderId: null as string | null }));
    const folder = list.find((p) => p.kind === "folder")!;
    const contact = list.find((p) => p.title === "Contact")!;
    reversed.find((e) => e.id === contact.id)!.folderId = folder.id;
    const res = await ownerSends("PUT", "/pages/order", { pages: reversed });
    expect(res.statusCode).toBe(200);
    const after = res.json().pages as Page[];
    expect(after.map((p) => p.id)).toEqual(reversed.map((p) => p.id));
    expect(after.find((p) => p.id === contact.id)!.folderId).toBe(folder.id);
    const missing = await ownerSends("PUT", "/pages/order", { pages: reversed.slice(1) });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe("Send every page of the site exactly once, in the new order.");
    const intoPage = reversed.map((e) => ({
      ...e,
      folderId: e.id === contact.id ? list[1]!.id : e.folderId,
    }));
    expect((await ownerSends("PUT", "/pages/order", { pages: intoPage })).statusCode).toBe(400);
  });

  it("deletes pages but never the home page; a deleted folder's pages move to the top level", async () => {
    const list = await pages();
    const home = list.find((p) => p.isHome)!;
    const refused = await owner.request({ method: "DELETE", url: `${base}/pages/${home.id}` });
    expect(refused.statusCode).toBe(409);
    const folder = list.find((p) => p.kind === "folder")!;
    const child = list.find((p) => p.folderId === folder.id)!;
    expect((await owner.request({ method: "DELETE", url: `${base}/pages/${folder.id}` })).statusCode).toBe(
      200,
    );
    const after = await pages();
    expect(after.find((p) => p.id === folder.id)).toBeUndefined();
    expect(after.find((p) => p.id === child.id)!.folderId).toBeNull();
    expect((await owner.request({ method: "DELETE", url: `${base}/pages/${folder.id}` })).statusCode).toBe(
      404,
    );
  });

  it("makes another page the home page", async () => {
    const story = (await pages()).find((p) => p.urlSlug === "our-story")!;
    const res = await ownerSends("PATCH", `/pages/${story.id}`, { isHome: true });
    expect(res.json().page.isHome).toBe(true);
    expect((await pages()).filter((p) => p.isHome).map((p) => p.id)).toEqual([story.id]);
    const home = (await pages()).find((p) => p.title === "Home")!;
    await ownerSends("PATCH", `/pages/${home.id}`, { isHome: true });
  });
});

describe("layouts, drafts and publishing", () => {
  let pageId: string;
  beforeAll(async () => {
    pageId = (await addPage({ kind: "page", title: "Studio Notes" })).json().page.id;
  });

  const text = (id: string, html: string) => ({ id, type: "text", html });

  it("autosaves a draft without changing the live page, then publishes it", async () => {
    const draft = {
      rows: [
        { columns: [{ span: 12, blocks: [text("t1", "<h2>Hello</h2><p>First draft</p>")] }] },
        {
          columns: [
            { span: 6, blocks: [{ id: "b1", type: "button", label: "Shop", href: "/shop" }] },
            { span: 6, blocks: [{ id: "q1", type: "quote", text: "Slow is smooth.", source: "Maya" }] },
          ],
        },
      ],
    };
    const saved = await owner.request({
      method: "PUT",
      url: `${base}/pages/${pageId}/draft`,
      payload: draft,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ blockCount: 3, page: { hasDraft: true }, layout: { rows: [] } });
    const before = (await published(t.app, "/studio-notes", (r) => r.status === 200)).json;
    expect(JSON.stringify(before.layout ?? {})).not.toContain("First draft");
    const version = async () =>
      Number(
        (
          (await t.database.db.execute(
            `select content_version from websites where id = '${siteId}'` as never,
          )) as unknown as {
            rows: { content_version: number }[];
          }
        ).rows[0]!.content_version,
      );
    const v1 = await version();
    const pub = await ownerSends("POST", `/pages/${pageId}/publish`, {});
    expect(pub.statusCode).toBe(200);
    expect(pub.json()).toMatchObject({ draft: null, page: { hasDraft: false } });
    expect(await version()).toBeGreaterThan(v1);
    const after = (await published(t.app, "/studio-notes", (r) => r.body.includes("First draft"))).body;
    expect(after).toContain("First draft");
    expect(after).toContain("Slow is smooth.");
  });

  it("shows the draft to the owner through the preview cookie, and only to the owner", async () => {
    await ownerSends("PUT", `/pages/${pageId}/draft`, {
      rows: [{ columns: [{ span: 12, blocks: [text("t2", "<p>Second draft</p>")] }] }],
    });
    const mode = await ownerSends("PUT", "/editing-mode", { preview: true });
    expect(mode.statusCode).toBe(200);
    expect(owner.cookies.get("atelier_preview")).toBe("1");
    const preview = await owner.request({ url: "/studio-notes?format=json" });
    expect(JSON.stringify(preview.json())).toContain("Second draft");
    // A visitor who sets the cookie by hand still sees the published page.
    const visitor = await t.app.inject({
      url: "/studio-notes?format=json",
      headers: { host: "localhost", cookie: "atelier_preview=1" },
    });
    expect(JSON.stringify(visitor.json())).not.toContain("Second draft");
    await ownerSends("PUT", "/editing-mode", { preview: false });
    expect(owner.cookies.has("atelier_preview")).toBe(false);
    const discarded = await owner.request({ method: "DELETE", url: `${base}/pages/${pageId}/draft` });
    expect(discarded.json().draft).toBeNull();
  });

  it("keeps a new text block empty: its placeholder shows in the editing frame only, never as content", async () => {
    const types = (await owner.request({ url: `${base}/block-types` })).json().blockTypes as {
      type: string;
      fields: { key: string; default?: unknown; placeholder?: string }[];
    }[];
    const html = types.find((b) => b.type === "text")!.fields.find((f) => f.key === "html")!;
    expect(html.default).toBeUndefined();
    expect(html.placeholder).toBe("Write something here.");
    const published = await ownerSends("POST", `/pages/${pageId}/publish`, {
      layout: {
        rows: [{ columns: [{ span: 12, blocks: [text("empty", ""), text("said", "<p>Said</p>")] }] }],
      },
    });
    expect(published.statusCode).toBe(200);
    const live = await owner.request({ url: "/studio-notes" });
    expect(live.body).toContain('data-block-id="said"');
    expect(live.body).not.toContain('data-block-id="empty"');
    expect(live.body).not.toContain("Write something here.");
    await ownerSends("PUT", "/editing-mode", { expandedFrame: true });
    const frame = await owner.request({ url: "/studio-notes" });
    expect(frame.body).toMatch(/data-block-id="empty">Write something here\.</);
    await ownerSends("PUT", "/editing-mode", { expandedFrame: false });
  });

  it("shows the latest draft in the preview even before the new content version is announced", async () => {
    await ownerSends("PUT", "/editing-mode", { preview: true });
    const saved = await ownerSends("PUT", `/pages/${pageId}/draft`, {
      rows: [{ columns: [{ span: 12, blocks: [text("t3", "<p>Draft one is here.</p>")] }] }],
    });
    expect(saved.statusCode).toBe(200);
    const frame = `/config/frame/${siteId}/studio-notes?editor=1`;
    // Once the save's new version is known, the page is built (and the site data kept) with it.
    for (let i = 0; i < 100 && !(await owner.request({ url: frame })).body.includes("Draft one"); i++)
      await new Promise((r) => setTimeout(r, 30));
    expect((await owner.request({ url: frame })).body).toContain("Draft one is here.");
    // The next autosave commits, but the server hears of the new content version only a moment
    // later (PostgreSQL NOTIFY): here the version is left alone, as it is in that moment. The
    // site data kept for that version must not stand in for the draft the owner just saved.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config(${`atelier.touched_${siteId}`}, '1', true)`);
      await tx.execute(
        sql`update collections set draft_layout = replace(draft_layout::text, 'Draft one is here.', 'Draft two replaced it.')::jsonb where id = ${pageId}`,
      );
    });
    for (const url of [frame, "/studio-notes", "/studio-notes?format=json"]) {
      expect((await owner.request({ url })).body, url).toContain("Draft two replaced it.");
    }
    await ownerSends("PUT", "/editing-mode", { preview: false });
    await owner.request({ method: "DELETE", url: `${base}/pages/${pageId}/draft` });
  });

  it("enforces 60 blocks per layout with a clear message", async () => {
    const blocks = Array.from({ length: 61 }, (_, i) => text(`t${i}`, `<p>${i}</p>`));
    const res = await ownerSends("PUT", `/pages/${pageId}/draft`, {
      rows: [{ columns: [{ span: 12, blocks }] }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      "A layout can have at most 60 blocks. Remove a block before adding another.",
    );
    const sixty = await ownerSends("PUT", `/pages/${pageId}/draft`, {
      rows: [{ columns: [{ span: 12, blocks: blocks.slice(0, 60) }] }],
    });
    expect(sixty.statusCode).toBe(200);
  });

  it("refuses bad layouts: unknown block, duplicate id, wide rows, bad fields, foreign ids, gated blocks", async () => {
    const put = (rows: unknown) => ownerSends("PUT", `/pages/${pageId}/draft`, { rows });
    const one = (block: object) => [{ columns: [{ span: 12, blocks: [block] }] }];
    expect((await put(one({ id: "x", type: "spaceship" }))).json().error.message).toBe(
      "Unknown block type spaceship.",
    );
    const dup = await put([{ columns: [{ span: 12, blocks: [text("a", "x"), text("a", "y")] }] }]);
    expect(dup.json().error.message).toBe("Two blocks have the id a.");
    const wide = await put([
      {
        columns: [
          { span: 8, blocks: [] },
          { span: 8, blocks: [] },
        ],
      },
    ]);
    expect(wide.json().error.message).toBe("Row 1 is wider than 12 columns.");
    const link = await put(one({ id: "b", type: "button", label: "Go", href: "javascript:alert(1)" }));
    expect(link.json().error.message).toBe("Link: enter a link starting with /, https://, mailto: or tel:.");
    const longUrl = await put(
      one({ id: "b", type: "button", label: "Go", href: `https://x.com/${"a".repeat(2100)}` }),
    );
    expect(longUrl.json().error.message).toBe("URLs must be under 2083 characters.");
    // A draft may leave a required field empty (a block just added); publishing refuses it.
    const required = await put(one({ id: "b", type: "button", href: "/" }));
    expect(required.statusCode).toBe(200);
    const publishRequired = await ownerSends("POST", `/pages/${pageId}/publish`, {});
    expect(publishRequired.statusCode).toBe(400);
    expect(publishRequired.json().error.message).toBe("Label: this field is required.");
    const foreign = await put(one({ id: "i", type: "image", imageId: "0123456789abcdef01234567" }));
    expect(foreign.json().error.message).toBe("The layout refers to an image that is not on this site.");
    const gallery = await put(one({ id: "g", type: "gallery", options: { padding: 99 } }));
    expect(gallery.json().error.message).toBe("Padding (px): must be from 0 to 50.");
  });

  it("sanitises rich text and derives video players from links", async () => {
    const res = await ownerSends("PUT", `/pages/${pageId}/draft`, {
      rows: [
        {
          columns: [
            {
              span: 12,
              blocks: [
                text(
                  "t",
                  '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">x</a><b>bold</b></p>',
                ),
                { id: "v", type: "video", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
              ],
            },
          ],
        },
      ],
    });
    expect(res.statusCode).toBe(200);
    const [t1, v] = res.json().draft.rows[0].columns[0].blocks;
    expect(t1.html).toBe("<p>Hi <a>x</a><b>bold</b></p>");
    expect(v.oembed.providerName).toBe("YouTube");
    expect(v.oembed.html).toContain("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
  });

  it("lists block types with the plan's gated blocks", async () => {
    const res = await owner.request({ url: `${base}/block-types` });
    const types = res.json().blockTypes as { type: string; available: boolean }[];
    expect(types.map((b) => b.type)).toEqual(
      expect.arrayContaining(["text", "image", "button", "gallery", "product", "form", "newsletter", "map"]),
    );
    // The demo is on Commerce Advanced: everything is available.
    expect(types.every((b) => b.available)).toBe(true);
    const site = await owner.request({
      method: "POST",
      url: "/api/owner/sites",
      payload: { title: "Trial Site", theme: "classic" },
    });
    const trial = await owner.request({ url: `/api/owner/sites/${site.json().site.id}/block-types` });
    const gated = (trial.json().blockTypes as { type: string; available: boolean }[]).filter(
      (b) => !b.available,
    );
    expect(gated.map((b) => b.type).sort()).toEqual(["amazon", "donation", "member-area", "opentable"]);
  });
});

describe("rich text sanitiser", () => {
  it("keeps formatting and safe links, drops scripts, handlers and unsafe schemes", () => {
    expect(
      sanitizeRichText("<h2>T</h2><p><strong>b</strong> <em>i</em> <u>u</u></p><ul><li>a</li></ul>"),
    ).toBe("<h2>T</h2><p><strong>b</strong> <em>i</em> <u>u</u></p><ul><li>a</li></ul>");
    expect(sanitizeRichText('<a href="https://x.com" target="_blank" onclick="y">x</a>')).toBe(
      '<a href="https://x.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeRichText('<a href=" jav&#x61;script:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizeRichText("<style>p{}</style><img src=x onerror=alert(1)>ok<iframe src=x></iframe>")).toBe(
      "ok",
    );
    expect(sanitizeRichText("1 < 2 & 3 > 2")).toBe("1 &lt; 2 &amp; 3 &gt; 2");
    expect(sanitizeRichText("<p>unclosed <b>bold")).toBe("<p>unclosed <b>bold</b></p>");
  });
});
