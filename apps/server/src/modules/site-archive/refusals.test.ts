import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { owner, siteApi, t, useDemoApp } from "../../../test/demo-app.js";
import { editArchive, importFile, unzipAll, zipAll } from "./archive.test-helper.js";
import type { Manifest } from "./manifest.js";

let archive: Buffer;

async function siteCount(): Promise<number> {
  return (await owner.request({ url: "/api/owner/sites" })).json().sites.length;
}

/** Refused with a 4xx that says what is wrong, and nothing created: no site, no files. */
async function refused(bytes: Buffer, status: number, code: string, message: RegExp) {
  const before = await siteCount();
  const mediaBefore = readdirSync(path.join(t.config.dataDir, "media")).sort();
  const res = await importFile(owner, bytes);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error.code).toBe(code);
  expect(res.json().error.message).toMatch(message);
  expect(await siteCount()).toBe(before);
  expect(readdirSync(path.join(t.config.dataDir, "media")).sort()).toEqual(mediaBefore);
  return res;
}

useDemoApp({ env: { ARCHIVE_MAX_BYTES: String(2 * 1024 * 1024) } });
beforeAll(async () => {
  archive = (await owner.request({ url: `${siteApi}/export` })).rawPayload;
}, 120_000);

describe("site archive: refusals", () => {
  it("refuses a file that is not a zip, and a truncated archive", async () => {
    await refused(Buffer.from("hello, not a zip"), 400, "invalid_archive", /not a complete zip/);
    await refused(
      archive.subarray(0, Math.floor(archive.length * 0.6)),
      400,
      "invalid_archive",
      /zip|damaged/,
    );
  });

  it("refuses an archive of an unknown version", async () => {
    const bytes = await editArchive(archive, { manifest: (m) => (m.version = 99) });
    await refused(bytes, 400, "unsupported_version", /format version 99; this server reads version 1/);
  });

  it("refuses a data file that does not match its checksum", async () => {
    const bytes = await editArchive(
      archive,
      {
        table: "content_items",
        rows: (rows) => rows.map((r, i) => (i === 0 ? { ...r, title: "Changed" } : r)),
      },
      false,
    );
    await refused(bytes, 400, "invalid_archive", /data\/content_items\.jsonl does not match its checksum/);
  });

  it("refuses a row that refers to something not in the archive", async () => {
    const bytes = await editArchive(archive, {
      table: "comments",
      rows: (rows) => [{ ...rows[0], item_id: "0123456789abcdef01234567" }, ...rows.slice(1)],
    });
    await refused(bytes, 400, "invalid_archive", /refers to content_items 0123456789abcdef01234567/);
  });

  it("refuses unknown columns and tables, and bad values", async () => {
    await refused(
      await editArchive(archive, {
        table: "forms",
        rows: (rows) => rows.map((r) => ({ ...r, secret_sauce: 1 })),
      }),
      400,
      "invalid_archive",
      /unknown column secret_sauce/,
    );
    await refused(
      await editArchive(archive, {
        table: "product_variants",
        rows: (rows) => rows.map((r) => ({ ...r, price_cents: "lots" })),
      }),
      400,
      "invalid_archive",
      /bad value in price_cents/,
    );
    await refused(
      await editArchive(archive, {
        manifest: (m) => m.tables.push({ ...m.tables[0]!, name: "mystery_table" }),
      }),
      400,
      "invalid_archive",
      /table this server does not know: mystery_table/,
    );
  });

  it("rolls everything back when rows cannot be stored, media files included", async () => {
    // Two pages with one address pass the archive's checks but not the database's.
    const bytes = await editArchive(archive, {
      table: "collections",
      rows: (rows) => rows.map((r, i) => (i === 1 ? { ...r, url_slug: rows[0]!.url_slug } : r)),
    });
    // The database's reason, never the query or its values.
    const res = await refused(
      bytes,
      400,
      "invalid_archive",
      /collections rows cannot be stored: duplicate key/,
    );
    expect(res.body).not.toMatch(/Failed query|insert into|params:/);
  });

  it("removes the media files already written when a later one is damaged", async () => {
    const files = await unzipAll(archive);
    const manifest = JSON.parse(files.get("manifest.json")!.toString()) as Manifest;
    expect(manifest.media.length).toBeGreaterThan(1);
    const last = manifest.media[manifest.media.length - 1]!;
    const bytes = Buffer.from(files.get(last.file)!);
    bytes[0] = bytes[0]! ^ 0xff;
    files.set(last.file, bytes);
    await refused(await zipAll(files), 400, "invalid_archive", /does not match its checksum/);
  });

  it("refuses an archive larger than the server allows, as uploaded or unpacked", async () => {
    await refused(randomBytes(3 * 1024 * 1024), 413, "too_large", /uploads may be at most 2097152 bytes/);
    const bomb = await editArchive(archive, {
      table: "forms",
      rows: (rows) => rows.map((r) => ({ ...r, submission_html: "x".repeat(6 * 1024 * 1024) })),
    });
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    await refused(bomb, 413, "too_large", /bytes unpacked/);
  });

  it("still imports the untouched archive", async () => {
    const res = await importFile(owner, archive);
    expect(res.statusCode, res.body).toBe(201);
  });
});
