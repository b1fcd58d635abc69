/**
 * Media on both stores: local disk (the default) and an S3-compatible bucket (s3rver, started
 * here). Uploads, the SPEC's variants, serving with cache headers, tenancy, a second app on the
 * same database and bucket serving what the first stored, and the CDN redirect.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Browser, type TestApp, createTestApp, demoSite } from "../../../test/harness.js";
import { multipartUpload } from "../../../test/multipart.js";
import { type TestBucket, startS3rver } from "../../../test/s3.js";
import { buildApp } from "../../app.js";
import { loadConfig } from "../../config.js";
import * as t from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { s3Client } from "../../media/s3.js";
import { FOCAL_POINT_RANGE, NOT_AN_IMAGE, variantKey } from "./service.js";

let bucket: TestBucket;
beforeAll(async () => {
  bucket = await startS3rver();
});
afterAll(() => bucket.close());

/** An upload of the media form: the title "Blue field" and the file. */
const mediaForm = (filename: string, bytes: Buffer, contentType: string) =>
  multipartUpload({ bytes, filename, contentType }, { title: "Blue field" });

async function loggedIn(t0: TestApp): Promise<{ b: Browser; siteId: string }> {
  const b = new Browser(t0.app, "localhost");
  await b.visit("/");
  const login = await b.request({
    method: "POST",
    url: "/api/owner/session",
    payload: { email: t0.config.demoOwnerEmail, password: t0.config.demoOwnerPassword },
  });
  expect(login.statusCode).toBe(200);
  return { b, siteId: (await demoSite(t0.database.db)).id };
}

async function upload(t0: TestApp) {
  const { b, siteId } = await loggedIn(t0);
  const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#3366aa" } })
    .png()
    .toBuffer();
  const url = `/api/owner/websites/${siteId}/media`;
  const up = await b.request({
    method: "POST",
    url,
    ...mediaForm("Blue Field.PNG", png, "image/png"),
  });
  expect(up.statusCode, up.body).toBe(201);
  return { b, url, png, m: up.json().media };
}

describe.each(["local", "s3"] as const)("media on the %s store", (kind) => {
  let t0: TestApp;
  const env = () => (kind === "s3" ? bucket.env : {});
  /** Whether the store holds a key: the bucket, asked directly, or the file under DATA_DIR. */
  async function stored(key: string): Promise<boolean> {
    if (kind === "local") return existsSync(path.join(t0.config.dataDir, key));
    const client = s3Client(loadConfig(bucket.env).s3!);
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket.bucket, Key: key }));
      return true;
    } catch {
      return false;
    } finally {
      client.destroy();
    }
  }

  beforeAll(async () => {
    t0 = await createTestApp({ seed: true, env: env() });
  }, 120_000);
  afterAll(() => t0?.close());

  it("serves responsive variants of the demo's SVG artwork and completes their colour data", async () => {
    const demo = () => new Browser(t0.app, "localhost");
    const shop = await demo().request({ url: "/shop/p/linen-work-apron?format=json" });
    const image = shop.json().item.mainImage;
    expect(image.systemDataVariants).toBe("100w,300w,500w,750w,1000w");
    expect(image.srcset).toContain(`${image.assetUrl}?format=500w 500w`);
    const variant = await demo().request({ url: `${image.assetUrl}?format=500w` });
    expect(variant.statusCode).toBe(200);
    expect(variant.headers["content-type"]).toBe("image/webp");
    expect(variant.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(variant.headers["content-length"])).toBe(variant.rawPayload.length);
    expect((await sharp(variant.rawPayload).metadata()).width).toBe(500);
    const original = await demo().request({ url: image.assetUrl });
    expect(original.headers["content-type"]).toBe("image/svg+xml");
    expect(original.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(original.body).toContain("<svg");
    const [row] = await t0.database.db.select().from(t.media).where(eq(t.media.id, image.id));
    expect(await stored(row!.storagePath)).toBe(true);
    expect(await stored(variantKey(row!, 500))).toBe(true);
    await vi.waitFor(
      async () => {
        const again = await demo().request({ url: "/shop/p/linen-work-apron?format=json" });
        expect(again.json().item.mainImage.colorData?.centerAverage).toMatch(/^[0-9a-f]{6}$/);
      },
      { timeout: 30_000, interval: 250 },
    );
    // Another website's host does not serve the demo's files.
    const demoRow = await demoSite(t0.database.db);
    await t0.database.db.insert(t.websites).values({
      id: newId(),
      identifier: "other",
      title: "Other",
      websiteType: demoRow.websiteType,
      siteStatus: demoRow.siteStatus,
      billingStatus: demoRow.billingStatus,
      theme: demoRow.theme,
    });
    const elsewhere = await new Browser(t0.app, "other.localhost").request({ url: image.assetUrl });
    expect(elsewhere.statusCode).toBe(404);
  });

  it("uploads an image for the owner's site, with every variant stored, colours and a focal point", async () => {
    const { b, url, png, m } = await upload(t0);
    expect(m).toMatchObject({
      title: "Blue field",
      contentType: "image/png",
      originalSize: "1600x900",
      filename: "blue-field.png",
    });
    expect(m.systemDataVariants).toBe("100w,300w,500w,750w,1000w,1500w");
    expect(m.colorData.centerAverage).toBe("3366aa");
    const [row] = await t0.database.db.select().from(t.media).where(eq(t.media.id, m.id));
    expect(await stored(row!.storagePath)).toBe(true);
    for (const w of [100, 300, 500, 750, 1000, 1500])
      expect(await stored(variantKey(row!, w)), `${w}w`).toBe(true);
    const v = await b.request({ url: `${m.assetUrl}?format=1500w` });
    expect((await sharp(v.rawPayload).metadata()).width).toBe(1500);
    const o = await b.request({ url: m.assetUrl });
    expect(o.headers["content-type"]).toBe("image/png");
    expect(Buffer.compare(o.rawPayload, png)).toBe(0);

    const notImage = await b.request({
      method: "POST",
      url,
      ...mediaForm("x.png", Buffer.from("not an image"), "image/png"),
    });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().error.message).toBe(NOT_AN_IMAGE);

    const focal = await b.request({
      method: "PATCH",
      url: `${url}/${m.id}`,
      payload: { mediaFocalPoint: { x: 0.2, y: 0.8 } },
    });
    expect(focal.json().media.mediaFocalPoint).toEqual({ x: 0.2, y: 0.8 });
    const far = await b.request({
      method: "PATCH",
      url: `${url}/${m.id}`,
      payload: { mediaFocalPoint: { x: 2, y: 0.5 } },
    });
    expect(far.statusCode).toBe(400);
    expect(far.json().error.message).toBe(FOCAL_POINT_RANGE);
    expect((await b.request({ url })).json().media.some((x: { id: string }) => x.id === m.id)).toBe(true);
    // Not a member of another website; not logged in at all.
    const other = "0123456789abcdef01234567";
    expect((await b.request({ url: `/api/owner/websites/${other}/media` })).statusCode).toBe(403);
    expect((await new Browser(t0.app).request({ url })).statusCode).toBe(401);
  });

  it("serves a second process's uploads only when the store is shared (the bucket)", async () => {
    const { m } = await upload(t0);
    // Another app on the same database with a DATA_DIR of its own, as on another machine.
    const config = loadConfig({
      ...env(),
      DATA_DIR: path.join(t0.config.dataDir, "other-machine"),
      LOG_LEVEL: "silent",
    });
    const other = await buildApp({ config, database: t0.database, logger: false });
    try {
      const res = await new Browser(other, "localhost").request({ url: `${m.assetUrl}?format=300w` });
      if (kind === "s3") {
        expect(res.statusCode).toBe(200);
        expect((await sharp(res.rawPayload).metadata()).width).toBe(300);
      } else {
        expect(res.statusCode).toBe(404);
      }
    } finally {
      await other.close();
    }
  });
});

describe("MEDIA_PUBLIC_URL", () => {
  it("redirects media requests to the CDN or public bucket, making a missing variant first", async () => {
    const publicBase = `${bucket.endpoint}/${bucket.bucket}`;
    const t0 = await createTestApp({
      seed: true,
      env: { ...bucket.env, MEDIA_PUBLIC_URL: `${publicBase}/` },
    });
    try {
      const { m } = await upload(t0);
      const b = new Browser(t0.app, "localhost");
      const [row] = await t0.database.db.select().from(t.media).where(eq(t.media.id, m.id));
      const original = await b.request({ url: m.assetUrl });
      expect(original.statusCode).toBe(302);
      expect(original.headers.location).toBe(`${publicBase}/${row!.storagePath}`);
      const variant = await b.request({ url: `${m.assetUrl}?format=750w` });
      expect(variant.headers.location).toBe(`${publicBase}/${variantKey(row!, 750)}`);
      // The demo's artwork has no variants until asked: the redirect waits for the file to exist.
      const shop = await b.request({ url: "/shop/p/linen-work-apron?format=json" });
      const art = await b.request({ url: `${shop.json().item.mainImage.assetUrl}?format=300w` });
      expect(art.statusCode).toBe(302);
      const fetched = await fetch(String(art.headers.location));
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get("content-type")).toBe("image/webp");
      expect(fetched.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await sharp(Buffer.from(await fetched.arrayBuffer())).metadata()).width).toBe(300);
    } finally {
      await t0.close();
    }
  }, 120_000);
});
