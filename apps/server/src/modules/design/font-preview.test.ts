import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "../../../test/harness.js";
import { FONTS } from "./fonts.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("font preview stylesheet", () => {
  it("has a face for every self-hosted family, each file served", async () => {
    const res = await t.app.inject({ url: "/assets/font-preview.css" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/css/);
    for (const f of FONTS.filter((x) => x.pkg)) {
      expect(res.body, f.name).toContain(`font-family:"${f.name}";font-style:normal;font-weight:400;`);
    }
    const urls = [...res.body.matchAll(/url\((\/assets\/fonts\/[^)]+)\)/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThanOrEqual(14);
    const playfair = urls.find((u) => u.includes("playfair-display-400-normal"))!;
    const file = await t.app.inject({ url: playfair });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("font/woff2");
    expect(file.rawPayload.subarray(0, 4).toString("latin1")).toBe("wOF2");
  });
});
