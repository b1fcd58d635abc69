import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp, demoSite } from "../../../test/harness.js";
import { type TestBucket, startS3rver } from "../../../test/s3.js";
import { contentItems, media, websites } from "../../db/schema.js";
import type { MediaStore } from "../../media/store.js";
import { backupSite, restoreSite } from "./backup.js";
import { editArchive } from "./archive.test-helper.js";
import { digitalFileKey } from "./export.js";
import { importArchive } from "./import.js";

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  dir = mkdtempSync(path.join(os.tmpdir(), "atelier-backup-"));
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The site's media rows and, for each, the bytes the store holds under its storage path. */
async function storedMedia(app: TestApp, siteId: string) {
  const rows = await app.database.db.select().from(media).where(eq(media.websiteId, siteId));
  const out = new Map<string, { key: string; bytes: Buffer | undefined }>();
  for (const r of rows)
    out.set(r.filename, { key: r.storagePath, bytes: await app.app.deps.media.read(r.storagePath) });
  return out;
}

/** The site's digital products' files: by product slug, the store key and the bytes there. */
async function storedDownloads(app: TestApp, siteId: string) {
  const rows = await app.database.db.select().from(contentItems).where(eq(contentItems.websiteId, siteId));
  const out = new Map<string, { key: string; bytes: Buffer | undefined }>();
  for (const r of rows) {
    const key = digitalFileKey(r.structuredContent);
    if (key) out.set(r.urlId, { key, bytes: await app.app.deps.media.read(key) });
  }
  return out;
}

/** Backs the demo up, restores it, and checks that the copy's media are in the store under its own keys. */
async function roundTrip(app: TestApp, out: string) {
  const store = app.app.deps.media;
  const demo = await demoSite(app.database.db);
  const manifest = await backupSite(app.database.db, store, "demo", out);
  expect(manifest.site.identifier).toBe("demo");
  expect(manifest.media.length).toBeGreaterThan(0);
  const restored = await restoreSite(app.database.db, store, out, "owner@atelier.test", 1e9);
  const [site] = await app.database.db.select().from(websites).where(eq(websites.id, restored.siteId));
  expect(site?.identifier).toBe("demo-2");
  expect(restored.counts.content_items).toBe(manifest.tables.find((x) => x.name === "content_items")!.rows);

  const before = await storedMedia(app, demo!.id);
  const after = await storedMedia(app, restored.siteId);
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  for (const [filename, copy] of after) {
    expect(copy.key).toMatch(new RegExp(`^media/${restored.siteId}/[a-f0-9]{24}/[^/]+$`));
    expect(copy.bytes, filename).toBeDefined();
    expect(copy.bytes!.equals(before.get(filename)!.bytes!), filename).toBe(true);
  }
  // Digital products' files travel too, to the copy's own downloads/<siteId>/<itemId>/.
  expect(manifest.downloads?.length).toBeGreaterThan(0);
  const files = await storedDownloads(app, demo!.id);
  const copies = await storedDownloads(app, restored.siteId);
  expect([...copies.keys()].sort()).toEqual([...files.keys()].sort());
  for (const [slug, copy] of copies) {
    expect(copy.key).toMatch(new RegExp(`^downloads/${restored.siteId}/[a-f0-9]{24}/[^/]+$`));
    expect(copy.bytes?.equals(files.get(slug)!.bytes!), slug).toBe(true);
  }
  expect(await store.list(`downloads/${restored.siteId}/`)).toEqual(
    [...copies.values()].map((c) => c.key).sort(),
  );
  // Only the originals are written; their variants are made again on demand.
  expect(await store.list(`media/${restored.siteId}/`)).toEqual([...after.values()].map((c) => c.key).sort());
  return { manifest, restored };
}

it("backs a site up to a file by its address and restores it as a new site, media in the store", async () => {
  const out = path.join(dir, "demo.zip");
  await roundTrip(t, out);
  expect(statSync(out).size).toBeGreaterThan(1000);
});

it("says what is wrong with a missing site or owner", async () => {
  const store = t.app.deps.media;
  await expect(backupSite(t.database.db, store, "nope", path.join(dir, "x.zip"))).rejects.toThrow(
    'No site with the id or address "nope".',
  );
  await expect(
    restoreSite(t.database.db, store, path.join(dir, "demo.zip"), "nobody@example.com", 1e9),
  ).rejects.toThrow("No owner account with the email nobody@example.com.");
});

it("removes the media it wrote when the rows' transaction fails", async () => {
  const real = t.app.deps.media;
  const file = path.join(dir, "to-fail.zip");
  await backupSite(t.database.db, real, "demo", file);
  const puts: string[] = [];
  const store: MediaStore = {
    ...real,
    put: async (key, bytes, type) => {
      puts.push(key);
      await real.put(key, bytes, type);
    },
  };
  const sitesBefore = (await t.database.db.select({ id: websites.id }).from(websites)).length;
  const mediaBefore = await real.list("media/");
  let seen: string[] = [];
  await expect(
    importArchive(file, {
      db: t.database.db,
      media: store,
      owner: (await t.database.db.query.accounts.findFirst())!,
      now: new Date(),
      maxUnpackedBytes: 1e9,
      beforeCommit: async () => {
        // Every file is in the store at its final key before the commit…
        seen = await Promise.all(puts.map(async (k) => ((await real.size(k)) === undefined ? "" : k)));
        throw new Error("injected failure");
      },
    }),
  ).rejects.toThrow("injected failure");
  expect(puts.length).toBeGreaterThan(0);
  expect(seen).toEqual(puts);
  // …and none of them after the failed commit; no site either.
  expect(await real.list("media/")).toEqual(mediaBefore);
  for (const k of puts) expect(await real.size(k)).toBeUndefined();
  expect((await t.database.db.select({ id: websites.id }).from(websites)).length).toBe(sitesBefore);
});

it("refuses a digital file whose key is outside the new site, writing nothing", async () => {
  const store = t.app.deps.media;
  const file = path.join(dir, "bad-download.zip");
  await backupSite(t.database.db, store, "demo", file);
  const bad = await editArchive(readFileSync(file), {
    manifest: (m) => {
      m.downloads![0]!.key = "downloads/0123456789abcdef01234567/x/y.pdf";
    },
  });
  writeFileSync(file, bad);
  const before = [...(await store.list("media/")), ...(await store.list("downloads/"))];
  await expect(restoreSite(t.database.db, store, file, "owner@atelier.test", 1e9)).rejects.toThrow(
    /downloads\/.* has a bad key/,
  );
  expect([...(await store.list("media/")), ...(await store.list("downloads/"))]).toEqual(before);
});

describe("with MEDIA_STORE=s3", () => {
  let bucket: TestBucket;
  let s3: TestApp;
  beforeAll(async () => {
    bucket = await startS3rver();
    s3 = await createTestApp({ seed: true, env: bucket.env });
  }, 60_000);
  afterAll(async () => {
    await s3?.close();
    await bucket?.close();
  });

  it("exports media from the bucket and imports the copy's media into the bucket", async () => {
    expect(s3.app.deps.media.kind).toBe("s3");
    const { restored } = await roundTrip(s3, path.join(dir, "demo-s3.zip"));
    const served = await storedMedia(s3, restored.siteId);
    expect(served.size).toBeGreaterThan(0);
  });
});
