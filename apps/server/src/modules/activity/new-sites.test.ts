/**
 * The activity log of calls that make a site (created, imported from an archive) and of imports
 * from other platforms (within the request, or in the background): each entry is written in the
 * transaction of the change (the same transaction id, xmin, on the change's rows and the entry),
 * so a refused or failed one leaves none and a successful one exactly one, naming the person and
 * what was done. The failures inside the change are made by a database trigger.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { PlatformImportStatus } from "@atelier/owner-api";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, DEMO_OWNER, type TestApp, createTestApp, demoOwner } from "../../../test/harness.js";
import { multipartUpload } from "../../../test/multipart.js";
import { activityEntries } from "../../db/schema.js";
import { runDueJobs } from "../jobs/service.js";
import { editArchive, importFile } from "../site-archive/archive.test-helper.js";
import { INLINE_COPY_LIMIT } from "../site-archive/platform-import-jobs.js";

let t: TestApp;
let owner: Browser;
let demoSiteId: string;
let ownerId: string;
let images: { origin: string; close(): Promise<void> };
const db = () => t.database.db;
const UA = "Mozilla/5.0 (X11; Linux x86_64) NewSitesTest/1.0";
const FROM = "198.51.100.23";

/** Serves one small PNG at any path ending in .png, for imports that copy their images. */
async function imageServer() {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c0ffee" } })
    .png()
    .toBuffer();
  const server = http.createServer((req, res) => {
    if (!req.url?.endsWith(".png")) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/png" }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  t = await createTestApp({ seed: true, env: { IMPORT_ALLOW_PRIVATE: "true" } });
  ({ owner, siteId: demoSiteId } = await demoOwner(t));
  ownerId = (await owner.request({ url: "/api/owner/account" })).json().account.id;
  images = await imageServer();
}, 180_000);
afterAll(async () => {
  await images?.close();
  await t?.close();
});

const allEntries = async () => (await db().select({ id: activityEntries.id }).from(activityEntries)).length;
const entriesOf = (websiteId: string) =>
  db()
    .select()
    .from(activityEntries)
    .where(eq(activityEntries.websiteId, websiteId))
    .orderBy(activityEntries.id);

/** The id of the transaction that last wrote the first row `query` finds. */
async function xmin(query: ReturnType<typeof sql>): Promise<string | undefined> {
  return ((await db().execute(query)) as unknown as { rows: { tx: string }[] }).rows[0]?.tx;
}

/** Makes every insert into `table` fail while `run` runs (a change that fails half way). */
async function failingInserts<T>(table: string, run: () => Promise<T>): Promise<T> {
  await db().execute(
    sql.raw(`create or replace function test_refuse_insert() returns trigger language plpgsql as $$
      begin raise exception 'refused by the test'; end $$`),
  );
  await db().execute(
    sql.raw(
      `create trigger test_refuse before insert on ${table} for each row execute function test_refuse_insert()`,
    ),
  );
  try {
    return await run();
  } finally {
    await db().execute(sql.raw(`drop trigger test_refuse on ${table}`));
  }
}

/** A new store (its products page takes the imported products). */
async function newSite(title: string): Promise<string> {
  const res = await owner.request({
    method: "POST",
    url: "/api/owner/sites",
    payload: { title, theme: "commerce" },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().site.id;
}

describe("a new site", () => {
  it("is recorded once, in the transaction that makes it, with the person and what was done", async () => {
    const res = await owner.request({
      method: "POST",
      url: "/api/owner/sites",
      payload: { title: "Left Bank Bakery", theme: "classic" },
      headers: { "user-agent": UA },
      remoteAddress: FROM,
    });
    expect(res.statusCode, res.body).toBe(201);
    const siteId = res.json().site.id as string;
    const rows = await entriesOf(siteId);
    expect(rows).toHaveLength(1);
    // As the new site's log shows it.
    const log = await owner.request({ url: `/api/owner/sites/${siteId}/activity` });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().entries).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: "account", id: ownerId, email: DEMO_OWNER.email }),
        ip: FROM,
        userAgent: UA,
        area: "settings",
        action: "site.created",
        entity: { type: "site", id: siteId },
        fields: ["title", "theme"],
      }),
    ]);
    expect(await xmin(sql`select xmin::text as tx from websites where id = ${siteId}`)).toBe(
      await xmin(sql`select xmin::text as tx from activity_entries where id = ${rows[0]!.id}`),
    );
  });

  it("leaves no entry when it is refused, or when its entry cannot be written", async () => {
    const taken = (await owner.request({ url: `/api/owner/sites/${demoSiteId}` })).json().site
      .identifier as string;
    const sites = async () => (await owner.request({ url: "/api/owner/sites" })).json().sites.length;
    const before = await allEntries();
    const sitesBefore = await sites();
    const refused = await owner.request({
      method: "POST",
      url: "/api/owner/sites",
      payload: { title: "Second shop", identifier: taken },
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.message).toBe("That site address is taken.");
    const unknown = await owner.request({
      method: "POST",
      url: "/api/owner/sites",
      payload: { title: "Second shop", starter: "no-such-starter" },
    });
    expect(unknown.statusCode).toBe(400);
    expect(await allEntries()).toBe(before);
    // One transaction: an entry that cannot be written takes the site with it.
    const failed = await failingInserts("activity_entries", () =>
      owner.request({ method: "POST", url: "/api/owner/sites", payload: { title: "Never made" } }),
    );
    expect(failed.statusCode).toBe(500);
    expect(await sites()).toBe(sitesBefore);
    expect(await allEntries()).toBe(before);
  });
});

describe("a site imported from an archive", () => {
  let archive: Buffer;
  beforeAll(async () => {
    archive = (await owner.request({ url: `/api/owner/sites/${demoSiteId}/export` })).rawPayload;
  }, 120_000);

  it("is recorded once, in the transaction that stores it", async () => {
    const upload = multipartUpload({
      bytes: archive,
      filename: "site.atelier.zip",
      contentType: "application/zip",
    });
    const res = await owner.request({
      method: "POST",
      url: "/api/owner/sites/import",
      headers: { ...upload.headers, "user-agent": UA },
      payload: upload.payload,
      remoteAddress: FROM,
    });
    expect(res.statusCode, res.body).toBe(201);
    const siteId = res.json().site.id as string;
    const rows = await entriesOf(siteId);
    // The archive's own log stays behind: the new site's is its import alone.
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorType: "account",
      actorId: ownerId,
      actorLabel: DEMO_OWNER.email,
      ip: FROM,
      userAgent: UA,
      area: "settings",
      action: "site.imported",
      entityType: "site",
      entityId: siteId,
    });
    expect(await xmin(sql`select xmin::text as tx from websites where id = ${siteId}`)).toBe(
      await xmin(sql`select xmin::text as tx from activity_entries where id = ${rows[0]!.id}`),
    );
  });

  it("leaves no entry when it is refused", async () => {
    const before = await allEntries();
    // Two pages with one address pass the archive's checks but not the database's.
    const bytes = await editArchive(archive, {
      table: "collections",
      rows: (rows) => rows.map((r, i) => (i === 1 ? { ...r, url_slug: rows[0]!.url_slug } : r)),
    });
    const res = await importFile(owner, bytes);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe("invalid_archive");
    expect(await allEntries()).toBe(before);
  });
});

/** A WooCommerce products CSV of `n` products, each with its own image on the test's server. */
function productsCsv(n: number, prefix: string): string {
  const header = "ID,Type,SKU,Name,Published,Categories,Regular price,Sale price,In stock?,Stock,Images";
  const rows = Array.from(
    { length: n },
    (_, i) =>
      `${200 + i},simple,${prefix}-${i},${prefix} loaf ${i + 1},1,Bread,${4 + i}.50,,1,5,${images.origin}/${prefix}-${i}.png`,
  );
  return [header, ...rows].join("\n");
}

function uploadCsv(siteId: string, csv: string) {
  const upload = multipartUpload(
    { bytes: Buffer.from(csv), filename: "bread.csv", contentType: "text/csv" },
    { copyRemoteFiles: "true" },
  );
  return owner.request({
    method: "POST",
    url: `/api/owner/sites/${siteId}/imports/products-csv`,
    headers: { ...upload.headers, "user-agent": UA },
    payload: upload.payload,
    remoteAddress: FROM,
  });
}

const mediaCount = async (siteId: string) =>
  (await owner.request({ url: `/api/owner/websites/${siteId}/media` })).json().media.length as number;

/** Runs the queued jobs until the import is no longer running. */
async function finished(siteId: string, importId: string): Promise<PlatformImportStatus> {
  await expect
    .poll(
      async () => {
        await runDueJobs(t.app.deps, "test");
        const res = await owner.request({ url: `/api/owner/sites/${siteId}/imports/${importId}` });
        return (res.json() as PlatformImportStatus).status;
      },
      { timeout: 60_000, interval: 100 },
    )
    .not.toBe("running");
  return (await owner.request({ url: `/api/owner/sites/${siteId}/imports/${importId}` })).json();
}

describe("an import into a site", () => {
  it("is recorded once with its content, not with the images copied before it", async () => {
    const siteId = await newSite("Crumb and Co");
    const res = await uploadCsv(siteId, productsCsv(3, "crumb"));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().report.files.copied).toBe(3);
    const rows = await entriesOf(siteId);
    expect(rows.map((r) => r.action)).toEqual(["site.created", "import.products_csv"]);
    expect(rows[1]).toMatchObject({ actorId: ownerId, ip: FROM, userAgent: UA, area: "settings" });
    expect(await xmin(sql`select xmin::text as tx from url_redirects where website_id = ${siteId}`)).toBe(
      await xmin(sql`select xmin::text as tx from activity_entries where id = ${rows[1]!.id}`),
    );
  });

  it("leaves no entry when its content cannot be stored after its images were copied", async () => {
    const siteId = await newSite("Stale Crust");
    const res = await failingInserts("url_redirects", () => uploadCsv(siteId, productsCsv(3, "stale")));
    expect(res.statusCode).toBe(500);
    expect((await entriesOf(siteId)).map((r) => r.action)).toEqual(["site.created"]);
    expect(await mediaCount(siteId)).toBe(0);
  });

  it("in the background, is recorded by its job with the content, as the person who asked", async () => {
    const siteId = await newSite("Rye Street");
    const res = await uploadCsv(siteId, productsCsv(INLINE_COPY_LIMIT + 2, "rye"));
    expect(res.statusCode, res.body).toBe(202);
    const { importId } = res.json();
    // Queued, not done: nothing is recorded yet.
    expect((await entriesOf(siteId)).map((r) => r.action)).toEqual(["site.created"]);
    expect(await finished(siteId, importId)).toMatchObject({ status: "done" });
    const rows = await entriesOf(siteId);
    expect(rows.map((r) => r.action)).toEqual(["site.created", "import.products_csv"]);
    expect(rows[1]).toMatchObject({
      actorType: "account",
      actorId: ownerId,
      ip: FROM,
      userAgent: UA,
      area: "settings",
      entityType: "import",
      entityId: importId,
    });
    expect(await xmin(sql`select xmin::text as tx from url_redirects where website_id = ${siteId}`)).toBe(
      await xmin(sql`select xmin::text as tx from activity_entries where id = ${rows[1]!.id}`),
    );
  });

  it("in the background, leaves no entry when its job fails", async () => {
    const siteId = await newSite("Sour Dough Lane");
    const res = await uploadCsv(siteId, productsCsv(INLINE_COPY_LIMIT + 2, "sour"));
    expect(res.statusCode, res.body).toBe(202);
    const status = await failingInserts("url_redirects", () => finished(siteId, res.json().importId));
    expect(status).toMatchObject({ status: "failed" });
    expect((await entriesOf(siteId)).map((r) => r.action)).toEqual(["site.created"]);
    expect(await mediaCount(siteId)).toBe(0);
  });
});
