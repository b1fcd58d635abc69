import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestBucket, startS3rver } from "../../test/s3.js";
import { loadConfig } from "../config.js";
import { createMediaStore } from "./index.js";
import { type MediaStore, checkKey, publicUrlOf } from "./store.js";

describe("media keys and settings", () => {
  it("accepts plain relative keys and refuses paths that could leave the store", () => {
    expect(checkKey("media/abc/def/a b.png")).toBe("media/abc/def/a b.png");
    for (const bad of [
      "",
      "/media/a",
      "media/../secrets/key",
      "media//a",
      "media/./a",
      "media\\a",
      "media/a/",
    ])
      expect(() => checkKey(bad), bad).toThrow(/Not a media key/);
  });

  it("builds CDN URLs with each segment encoded", () => {
    expect(publicUrlOf("https://cdn.example.com/", "media/w/m/a b#.png")).toBe(
      "https://cdn.example.com/media/w/m/a%20b%23.png",
    );
  });

  it("reads MEDIA_STORE and the S3 settings, refusing an incomplete or unknown store", () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(
      loadConfig({ MEDIA_STORE: "s3", S3_BUCKET: "b", S3_FORCE_PATH_STYLE: "true", S3_ENDPOINT: "http://x" })
        .s3,
    ).toEqual({
      bucket: "b",
      endpoint: "http://x",
      region: "us-east-1",
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: true,
    });
    expect(() => loadConfig({ MEDIA_STORE: "s3" })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ MEDIA_STORE: "ftp" })).toThrow(/MEDIA_STORE/);
    expect(loadConfig({ MEDIA_PUBLIC_URL: "https://cdn.example.com//" }).mediaPublicUrl).toBe(
      "https://cdn.example.com",
    );
  });
});

describe.each(["local", "s3"] as const)("the %s media store: delete and list", (kind) => {
  let store: MediaStore;
  let dataDir: string;
  let bucket: TestBucket | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-store-"));
    if (kind === "s3") bucket = await startS3rver();
    store = createMediaStore(loadConfig({ DATA_DIR: dataDir, ...bucket?.env }));
    expect(store.kind).toBe(kind);
  });
  afterAll(async () => {
    await store?.close();
    await bucket?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists the keys under a prefix, sorted, and nothing else", async () => {
    await store.put("media/site1/m2/b.png", "bb", "image/png");
    await store.put("media/site1/m1/a.png", "a", "image/png");
    await store.put("media/site10/m3/c.png", "c", "image/png");
    await store.put("downloads/site1/i1/book.pdf", "pdf", "application/pdf");
    expect(await store.list("media/site1/")).toEqual(["media/site1/m1/a.png", "media/site1/m2/b.png"]);
    expect(await store.list("media/site1")).toEqual([
      "media/site1/m1/a.png",
      "media/site1/m2/b.png",
      "media/site10/m3/c.png",
    ]);
    expect(await store.list("media/nobody/")).toEqual([]);
    expect(await store.list("downloads/")).toEqual(["downloads/site1/i1/book.pdf"]);
  });

  it("deletes a file so that it is neither read nor listed, and a missing key is no error", async () => {
    await store.delete("media/site1/m1/a.png");
    expect(await store.read("media/site1/m1/a.png")).toBeUndefined();
    expect(await store.size("media/site1/m1/a.png")).toBeUndefined();
    expect(await store.open("media/site1/m1/a.png")).toBeUndefined();
    expect(await store.list("media/site1/")).toEqual(["media/site1/m2/b.png"]);
    expect((await store.read("media/site1/m2/b.png"))?.toString()).toBe("bb");
    await store.delete("media/site1/m1/a.png");
    await store.delete("media/never/was/here.png");
    await expect(store.delete("media/../escape")).rejects.toThrow(/Not a media key/);
  });

  it.runIf(kind === "local")("leaves no empty folders behind, but keeps the top one", async () => {
    await store.delete("media/site1/m2/b.png");
    await store.delete("media/site10/m3/c.png");
    expect(readdirSync(path.join(dataDir, "media"))).toEqual([]);
  });
});
