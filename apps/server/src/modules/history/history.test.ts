/**
 * Version history through the real app: every save makes a version (draft saves of one person
 * within two minutes fold into one), a page restored to an old version renders byte for byte as it
 * did then, concurrent saves lose no version, comparisons name what changed, restores make new
 * versions, and retention keeps exactly one version a day (in the site's time zone, across a DST
 * change) after 30 days and none after a year but the current state.
 */
import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { siteApi as base, owner, ownerSends, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { type Browser, ownerWithSite, signedInOwner } from "../../../test/harness.js";
import { entityVersions, jobs, websites } from "../../db/schema.js";
import { runDueJobs } from "../jobs/service.js";
import { PRUNE_JOB, queuePrune } from "./jobs.js";
import { DAY_MS } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import { published } from "../owner-sites/published.test-helper.js";
import { FOLD_MS, pack, pruneHistory } from "./service.js";

let now = new Date("2026-11-20T12:00:00Z");
const clock = { now: () => new Date(now) };
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

useDemoApp({ clock });

type Version = {
  id: string;
  at: string;
  kind: string;
  summary: string;
  actor: { type: string; name: string };
};

/** Every version of an entity, newest first, following the cursor. */
async function history(entity: string, as: Browser = owner): Promise<Version[]> {
  const out: Version[] = [];
  let cursor: string | null = null;
  do {
    const q: string = `entity=${encodeURIComponent(entity)}${cursor ? `&cursor=${cursor}` : ""}`;
    const res = await as.request({ url: `${base}/history?${q}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { versions: Version[]; nextCursor: string | null };
    out.push(...body.versions);
    cursor = body.nextCursor;
  } while (cursor);
  return out;
}

const text = (id: string, html: string) => ({ id, type: "text", html });
const layoutOf = (n: number) => ({
  rows: [
    {
      columns: [
        { span: 12, blocks: [text("intro", `<h2>Edit number ${n}</h2><p>Version ${n} of the story.</p>`)] },
      ],
    },
    ...(n % 3 === 0
      ? [
          {
            columns: [
              { span: 12, blocks: [{ id: `q${n}`, type: "quote", text: `Quote ${n}`, source: "Maya" }] },
            ],
          },
        ]
      : []),
  ],
});

describe("versions of a page", () => {
  let pageId: string;
  beforeAll(async () => {
    pageId = (await ownerSends("POST", "/pages", { kind: "page", title: "Fifty Edits" })).json().page.id;
  });

  it("restores a page edited 50 times to its 10th edit, rendering byte for byte as it did then", async () => {
    let tenth = "";
    for (let n = 1; n <= 50; n++) {
      advance(5 * 60_000);
      const res = await ownerSends("POST", `/pages/${pageId}/publish`, { layout: layoutOf(n) });
      expect(res.statusCode, res.body).toBe(200);
      if (n === 10) {
        await published(t.app, "/fifty-edits", (p) => p.body.includes("Edit number 10"));
        tenth = (await t.app.inject({ url: "/fifty-edits", headers: { host: "localhost" } })).body;
      }
    }
    expect(tenth).toContain("Version 10 of the story.");
    const versions = await history(`page:${pageId}`);
    expect(versions).toHaveLength(51);
    expect(versions.at(-1)).toMatchObject({ kind: "create", summary: "Created", actor: { type: "account" } });
    const v10 = versions.at(-11)!;
    expect(v10.kind).toBe("publish");
    expect((await owner.request({ url: `${base}/history/${v10.id}` })).json().content.layout).toEqual(
      layoutOf(10),
    );

    advance(60_000);
    const restored = await ownerSends("POST", `/history/${v10.id}/restore`, { publish: true });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().version).toMatchObject({ kind: "restore" });
    expect(restored.json().version.summary).toContain("and published it");
    await published(t.app, "/fifty-edits", (p) => p.body.includes("Edit number 10"));
    const now10 = (await t.app.inject({ url: "/fifty-edits", headers: { host: "localhost" } })).body;
    expect(now10).toBe(tenth);
    // History is never rewritten: the restore is a 52nd version, the 50th edit still there.
    const after = await history(`page:${pageId}`);
    expect(after).toHaveLength(52);
    expect(after[1]!.id).toBe(versions[0]!.id);
  }, 120_000);

  it("folds one person's draft saves within two minutes into one version; publish is its own", async () => {
    const before = (await history(`page:${pageId}`)).length;
    advance(10 * 60_000);
    for (const n of [101, 102, 103]) {
      expect(
        (await owner.request({ method: "PUT", url: `${base}/pages/${pageId}/draft`, payload: layoutOf(n) }))
          .statusCode,
      ).toBe(200);
      advance(FOLD_MS / 2);
    }
    let versions = await history(`page:${pageId}`);
    expect(versions).toHaveLength(before + 1);
    expect(versions[0]).toMatchObject({ kind: "draft" });
    const draft = (await owner.request({ url: `${base}/history/${versions[0]!.id}` })).json().content;
    expect(draft.draft).toEqual(layoutOf(103));

    advance(FOLD_MS + 1000);
    await owner.request({ method: "PUT", url: `${base}/pages/${pageId}/draft`, payload: layoutOf(104) });
    await ownerSends("POST", `/pages/${pageId}/publish`, {});
    versions = await history(`page:${pageId}`);
    expect(versions.slice(0, 3).map((v) => v.kind)).toEqual(["publish", "draft", "draft"]);
    expect(versions).toHaveLength(before + 3);
  });

  it("compares two versions block by block with the words that changed, and restores to the draft", async () => {
    const versions = await history(`page:${pageId}`);
    const tenth = versions.find((v) => v.kind === "publish" && versions.indexOf(v) > 3 && v.summary)!;
    const [v9, v12] = [versions.at(-10)!, versions.at(-13)!];
    const res = await owner.request({ url: `${base}/history/compare?from=${v9.id}&to=${v12.id}` });
    expect(res.statusCode, res.body).toBe(200);
    const changes = res.json().changes as {
      path: string;
      change: string;
      text?: { op: string; text: string }[];
    }[];
    expect(changes.find((c) => c.path === "block q9 (quote)")?.change).toBe("removed");
    expect(changes.find((c) => c.path === "block q12 (quote)")?.change).toBe("added");
    const html = changes.find((c) => c.path === "block intro (text).html")!;
    expect(html.text!.filter((p) => p.op === "removed").map((p) => p.text.trim())).toContain(
      "9</h2><p>Version",
    );
    expect(html.text!.filter((p) => p.op === "added").map((p) => p.text.trim())).toContain(
      "12</h2><p>Version",
    );
    expect(tenth).toBeDefined();

    const toDraft = await ownerSends("POST", `/history/${v9.id}/restore`, {});
    expect(toDraft.json().version.summary).toContain("to the draft");
    const layout = (await owner.request({ url: `${base}/pages/${pageId}/layout` })).json();
    expect(layout.draft).toEqual(layoutOf(9));
    expect(layout.layout).toEqual(layoutOf(104));
  });
});

describe("versions of products, design, templates and settings", () => {
  it("keeps a product's fields and variants but not its stock; a restore leaves stock as it is", async () => {
    const shopId = (await owner.request({ url: `${base}/pages` }))
      .json()
      .pages.find((p: { kind: string }) => p.kind === "products").id;
    const body = (title: string, qty: number, price = 2500) => ({
      collectionId: shopId,
      title,
      productType: 1,
      variants: [{ attributes: {}, priceCents: price, qtyInStock: qty, sku: "HIST-1" }],
    });
    const created = (await ownerSends("POST", "/products", body("Linen Apron", 4))).json().product;
    const put = (title: string, qty: number, price?: number) =>
      owner.request({
        method: "PUT",
        url: `${base}/products/${created.id}`,
        payload: {
          ...body(title, qty, price),
          variants: [{ ...body(title, qty, price).variants[0], id: created.variants[0].id }],
        },
      });
    expect((await put("Linen Apron", 9)).statusCode).toBe(200);
    // Stock alone is inventory, not a version.
    expect(await history(`product:${created.id}`)).toHaveLength(1);
    expect((await put("Waxed Linen Apron", 7, 2900)).statusCode).toBe(200);
    const versions = await history(`product:${created.id}`);
    expect(versions).toHaveLength(2);
    expect(versions[0]!.summary).toMatch(/title/);
    const restore = await ownerSends("POST", `/history/${versions[1]!.id}/restore`, {});
    expect(restore.statusCode, restore.body).toBe(200);
    const now = (await owner.request({ url: `${base}/products/${created.id}` })).json().product;
    expect(now.title).toBe("Linen Apron");
    expect(now.variants[0]).toMatchObject({ priceCents: 2500, qtyInStock: 7, sku: "HIST-1" });
  });

  it("versions the design, a template, the navigation and the settings (the site's id names them)", async () => {
    await ownerSends("PATCH", "/design", { customCss: "body { color: #222; }" });
    await ownerSends("PATCH", "/design", { customCss: "body { color: #333; }" });
    const design = await history("design:");
    expect(design[0]!.summary).toBe("Changed custom CSS");
    await ownerSends("POST", `/history/${design[1]!.id}/restore`, {});
    expect((await owner.request({ url: `${base}/design` })).json().customCss).toBe("body { color: #222; }");
    expect(await history(`design:${siteId}`)).toHaveLength(3);

    await ownerSends("PATCH", "/settings", { contactEmail: "hello@example.com" });
    await ownerSends("PATCH", "/settings", { contactEmail: "shop@example.com" });
    const settings = await history("settings:");
    expect(settings.map((v) => v.summary)).toEqual(["Changed contact email", "Saved"]);
    expect((await owner.request({ url: `${base}/history?entity=settings:${newId()}` })).statusCode).toBe(404);

    const footer = (source: string) =>
      owner.request({ method: "PUT", url: `${base}/templates/footer`, payload: { source } });
    expect((await footer("<footer>Good footer</footer>")).statusCode).toBe(200);
    expect((await footer("<footer>Broken</footer>")).statusCode).toBe(200);
    const template = await history("template:footer");
    expect(template.map((v) => v.kind)).toEqual(["save", "save"]);
    await ownerSends("POST", `/history/${template[1]!.id}/restore`, {});
    expect((await owner.request({ url: `${base}/templates/footer` })).json().source).toBe(
      "<footer>Good footer</footer>",
    );

    const tree = (await owner.request({ url: `${base}/pages` })).json().pages as {
      id: string;
      folderId: string | null;
    }[];
    const order = () =>
      owner.request({
        method: "PUT",
        url: `${base}/pages/order`,
        payload: { pages: tree.map((p) => ({ id: p.id, folderId: p.folderId })) },
      });
    const reversed = [...tree].reverse();
    await owner.request({
      method: "PUT",
      url: `${base}/pages/order`,
      payload: { pages: reversed.map((p) => ({ id: p.id, folderId: null })) },
    });
    const nav = await history("navigation:");
    expect(nav[0]!.summary).toBe("Saved");
    expect((await order()).statusCode).toBe(200);
    await ownerSends("POST", `/history/${nav[0]!.id}/restore`, {});
    const ids = (await owner.request({ url: `${base}/pages` })).json().pages.map((p: { id: string }) => p.id);
    expect(ids[0]).toBe(reversed.filter((p) => !p.folderId)[0]!.id);
    expect((await owner.request({ url: `${base}/history?entity=nonsense:1` })).statusCode).toBe(400);
  });

  it("answers another owner's version as not found, and names the API key or person of each", async () => {
    const [v] = await history("design:");
    const { owner: other, siteId: theirs } = await ownerWithSite(t, "other-history@example.com");
    expect((await other.request({ url: `/api/owner/sites/${theirs}/history/${v!.id}` })).statusCode).toBe(
      404,
    );
    expect(
      (await other.request({ url: `/api/owner/sites/${siteId}/history?entity=design:` })).statusCode,
    ).toBe(404);
    expect(v!.actor.name).not.toBe("");
  });

  it("loses no version when two sessions save at the same time", async () => {
    const second = await signedInOwner(t);
    const pageId = (await ownerSends("POST", "/pages", { kind: "page", title: "Busy Page" })).json().page.id;
    const saves = Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? owner : second).request({
        method: "PATCH",
        url: `${base}/pages/${pageId}`,
        payload: { description: `Description ${i}` },
      }),
    );
    const answers = await Promise.all(saves);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
    const versions = await history(`page:${pageId}`);
    expect(versions).toHaveLength(13);
    const contents = await Promise.all(
      versions.map(
        async (v) => (await owner.request({ url: `${base}/history/${v.id}` })).json().content.description,
      ),
    );
    expect(new Set(contents.slice(0, 12))).toEqual(
      new Set(Array.from({ length: 12 }, (_, i) => `Description ${i}`)),
    );
  });
});

describe("retention", () => {
  it("keeps every version 30 days, then the last of each local day for a year, across a DST change", async () => {
    const db = t.database.db;
    await db.update(websites).set({ timeZone: "America/New_York" }).where(eq(websites.id, siteId));
    const entityId = newId();
    const { bytes, raw } = pack({ title: "x" });
    // Hourly versions from 6 to 10 March 2026 (New York springs forward on the 8th: a 23-hour day),
    // 12 a day for the last 40 days, and a few from more than a year ago.
    const times: Date[] = [];
    for (
      let t0 = Date.parse("2026-03-06T05:30:00Z");
      t0 < Date.parse("2026-03-11T04:00:00Z");
      t0 += 3_600_000
    )
      times.push(new Date(t0));
    const pruneAt = new Date("2026-11-20T15:00:00Z");
    for (let d = 40; d >= 1; d--)
      for (let h = 0; h < 12; h++) times.push(new Date(pruneAt.getTime() - d * DAY_MS + h * 7_200_000));
    for (const d of [400, 390, 380]) times.push(new Date(pruneAt.getTime() - d * DAY_MS));
    times.sort((a, b) => a.getTime() - b.getTime());
    // The newest version (the current state) is from more than a year ago in a second entity.
    const oldOnly = newId();
    const row = (id: string, at: Date) => ({
      id: newId(),
      websiteId: siteId,
      entityType: "page",
      entityId: id,
      kind: "save",
      actorType: "system",
      summary: "s",
      content: bytes,
      rawBytes: raw,
      createdAt: at,
      updatedAt: at,
    });
    for (const at of times) await db.insert(entityVersions).values(row(entityId, at));
    for (const d of [500, 450])
      await db.insert(entityVersions).values(row(oldOnly, new Date(pruneAt.getTime() - d * DAY_MS)));

    const localDay = (d: Date) => d.toLocaleDateString("en-CA", { timeZone: "America/New_York" });
    const allFrom = pruneAt.getTime() - 30 * DAY_MS;
    const dailyFrom = pruneAt.getTime() - 365 * DAY_MS;
    const lastOfDay = new Map<string, number>();
    for (const at of times) lastOfDay.set(localDay(at), at.getTime());
    const expected = times
      .filter(
        (at) =>
          at.getTime() >= allFrom ||
          (at.getTime() >= dailyFrom && lastOfDay.get(localDay(at)) === at.getTime()),
      )
      .map((d) => d.toISOString());
    // 8 March is one day of 23 hourly versions in New York, one kept.
    expect(times.filter((at) => localDay(at) === "2026-03-08")).toHaveLength(23);

    const deleted = await pruneHistory(db, pruneAt, { keepAllDays: 30, keepDailyDays: 365 }, siteId);
    const left = await db
      .select({ at: entityVersions.updatedAt })
      .from(entityVersions)
      .where(and(eq(entityVersions.websiteId, siteId), eq(entityVersions.entityId, entityId)))
      .orderBy(entityVersions.seq);
    expect(left.map((r) => r.at.toISOString())).toEqual(expected);
    expect(left.filter((r) => localDay(r.at).startsWith("2026-03"))).toHaveLength(5);
    const current = await db.select().from(entityVersions).where(eq(entityVersions.entityId, oldOnly));
    expect(current).toHaveLength(1);
    expect(current[0]!.updatedAt.getTime()).toBe(pruneAt.getTime() - 450 * DAY_MS);
    expect(deleted).toBe(times.length - expected.length + 1);
    // Running it again deletes nothing more.
    expect(await pruneHistory(db, pruneAt, { keepAllDays: 30, keepDailyDays: 365 }, siteId)).toBe(0);
  });

  it("runs in the job queue: one prune job however many processes ask, with the operator's periods", async () => {
    const db = t.database.db;
    const entityId = newId();
    const { bytes, raw } = pack({ title: "y" });
    for (const d of [400, 399])
      await db.insert(entityVersions).values({
        id: newId(),
        websiteId: siteId,
        entityType: "item",
        entityId,
        kind: "save",
        actorType: "system",
        summary: "s",
        content: bytes,
        rawBytes: raw,
        createdAt: new Date(clock.now().getTime() - d * DAY_MS),
        updatedAt: new Date(clock.now().getTime() - d * DAY_MS),
      });
    await Promise.all([queuePrune(t.app.deps), queuePrune(t.app.deps)]);
    const queued = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, PRUNE_JOB), isNull(jobs.doneAt)));
    expect(queued).toHaveLength(1);
    await runDueJobs(t.app.deps, "test");
    expect(await db.select().from(entityVersions).where(eq(entityVersions.entityId, entityId))).toHaveLength(
      1,
    );
  });
});
