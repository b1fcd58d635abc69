/**
 * `npm run media:to-s3`: a site that ran on local disk moves its media to the bucket; the copy
 * is idempotent, and afterwards an app on MEDIA_STORE=s3 serves the same images.
 */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp } from "../../test/harness.js";
import { type TestBucket, startS3rver } from "../../test/s3.js";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import * as t from "../db/schema.js";
import { variantKey } from "../modules/media/service.js";
import { s3MediaStore } from "./s3.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
let bucket: TestBucket;
let local: TestApp;

beforeAll(async () => {
  bucket = await startS3rver();
  local = await createTestApp({ seed: true });
}, 120_000);
afterAll(async () => {
  await local?.close();
  await bucket?.close();
});

async function run(): Promise<string> {
  const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "media:to-s3"], {
    cwd: root,
    env: { ...process.env, ...bucket.env, DATA_DIR: local.config.dataDir },
  });
  return stdout;
}

describe("npm run media:to-s3", () => {
  it("copies originals and variants once, then an app on the bucket serves them", async () => {
    const b = new Browser(local.app, "localhost");
    const shop = await b.request({ url: "/shop/p/linen-work-apron?format=json" });
    const image = shop.json().item.mainImage;
    // A variant made on local disk, and a temporary file left by a crash, which is not copied.
    expect((await b.request({ url: `${image.assetUrl}?format=300w` })).statusCode).toBe(200);
    const [row] = await local.database.db.select().from(t.media).where(eq(t.media.id, image.id));
    await writeFile(path.join(local.config.dataDir, `${row!.storagePath}.abc123.tmp`), "half");
    const files = await local.database.db.select().from(t.media);
    const downloads = readdirSync(path.join(local.config.dataDir, "downloads"), {
      recursive: true,
      withFileTypes: true,
    })
      .filter((e) => e.isFile())
      .map((e) => path.relative(local.config.dataDir, path.join(e.parentPath, e.name)));
    expect(downloads.length).toBeGreaterThan(0);

    const first = await run();
    const copied = Number(/(\d+) copied/.exec(first)?.[1]);
    expect(copied).toBe(files.length + 1 + downloads.length);
    expect(first).toContain(", 0 already in the bucket");
    const again = await run();
    expect(again).toContain(`0 copied (0 bytes), ${copied} already in the bucket`);

    const store = s3MediaStore(loadConfig(bucket.env).s3!);
    try {
      expect(await store.size(`${row!.storagePath}.abc123.tmp`)).toBeUndefined();
      expect((await store.read(row!.storagePath))?.toString()).toContain("<svg");
      expect(await store.size(variantKey(row!, 300))).toBeGreaterThan(0);
      for (const key of downloads) expect(await store.size(key), key).toBeGreaterThan(0);
    } finally {
      await store.close();
    }

    const config = loadConfig({ ...bucket.env, DATA_DIR: path.join(local.config.dataDir, "elsewhere") });
    const onBucket = await buildApp({ config, database: local.database, logger: false });
    try {
      const res = await new Browser(onBucket, "localhost").request({ url: `${image.assetUrl}?format=300w` });
      expect(res.statusCode).toBe(200);
      expect((await sharp(res.rawPayload).metadata()).width).toBe(300);
      const original = await new Browser(onBucket, "localhost").request({ url: image.assetUrl });
      expect(original.headers["content-type"]).toBe("image/svg+xml");
    } finally {
      await onBucket.close();
    }
  }, 120_000);
});
