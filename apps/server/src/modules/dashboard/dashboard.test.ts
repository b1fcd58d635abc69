/**
 * The dashboard at /config: the built app's files and client routes, and the editing frame that
 * shows the owner's site on the dashboard's origin with its links kept inside the frame.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { owner, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { signedUpOwner } from "../../../test/harness.js";
import { CRUMB_COOKIE } from "../../http/crumb.js";
import { rewriteForFrame } from "./frame.js";

useDemoApp();

const built = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../dashboard/dist/assets");

describe("the dashboard's files", () => {
  it("answers the app's page for every client route, never cached, with its policy and a crumb", async () => {
    for (const url of ["/config", "/config/", `/config/sites/${siteId}/pages`]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(res.headers["content-security-policy"]).toContain("script-src");
      expect(String(res.headers["set-cookie"])).toContain(`${CRUMB_COOKIE}=`);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it("serves hashed assets for good, and nothing outside the build", async () => {
    const script = readdirSync(built).find((f) => f.endsWith(".js"))!;
    const asset = await t.app.inject({ url: `/config/assets/${script}` });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await t.app.inject({ url: "/config/assets/gone-0123456789.js" })).statusCode).toBe(404);
    // A path that climbs out of the build gets the app's page, not the file.
    const climb = await t.app.inject({ url: "/config/..%2F..%2F..%2Fpackage.json" });
    expect(climb.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(climb.body).not.toContain('"workspaces"');
  });
});

describe("the editing frame", () => {
  it("shows the owner's site with its links kept in the frame, never cached", async () => {
    const res = await owner.request({ url: `/config/frame/${siteId}/shop` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body).toContain(`href="/config/frame/${siteId}/shop/p/`);
    expect(res.body).not.toMatch(/href="\/shop\/p\//);
  });

  it("asks a visitor to log in, and tells another owner there is no such site", async () => {
    const anonymous = await t.app.inject({ url: `/config/frame/${siteId}/` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).toContain("Please log in to the dashboard to edit this site.");
    const other = await signedUpOwner(t, "frame-stranger@example.com");
    for (const id of [siteId, "not-a-site"]) {
      const res = await other.request({ url: `/config/frame/${id}/` });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain("There is no such site.");
    }
  });

  it("rewrites the page's own addresses and leaves shared assets, the API and other sites alone", () => {
    const html = [
      '<a href="/journal">',
      '<img src="/media/1/a.jpg" srcset="/media/1/a.jpg?format=300w 300w, /media/1/a.jpg?format=750w 750w">',
      '<form action="/search">',
      '<div style="background:url(/media/1/b.jpg)">',
      '<link href="/assets/themes/classic.css">',
      '<script src="/api/x"></script>',
      '<a href="//elsewhere.example/x">',
      '<a href="https://elsewhere.example/y">',
    ].join("");
    const out = rewriteForFrame(html, "abc");
    expect(out).toBe(
      [
        '<a href="/config/frame/abc/journal">',
        '<img src="/config/frame/abc/media/1/a.jpg" srcset="/config/frame/abc/media/1/a.jpg?format=300w 300w, /config/frame/abc/media/1/a.jpg?format=750w 750w">',
        '<form action="/config/frame/abc/search">',
        '<div style="background:url(/config/frame/abc/media/1/b.jpg)">',
        '<link href="/assets/themes/classic.css">',
        '<script src="/api/x"></script>',
        '<a href="//elsewhere.example/x">',
        '<a href="https://elsewhere.example/y">',
      ].join(""),
    );
  });
});
