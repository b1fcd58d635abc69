import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { checkKey, publicUrlOf } from "./store.js";

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
