/**
 * Content-Security-Policy: the dashboard runs only its own scripts; every published page response
 * (cached or not, and in the editing frame) allows only the storefront's inline loader, by its
 * SHA-256 hash; other HTML runs no script at all.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loaderScriptFor } from "../src/render/storefront-assets.js";
import { owner, siteId, t, useDemoApp } from "./demo-app.js";

useDemoApp();

function directives(header: unknown): Map<string, string[]> {
  expect(typeof header, "a content-security-policy header").toBe("string");
  return new Map(
    String(header)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name = "", ...values]) => [name, values]),
  );
}

/** Every script element of a page. */
function scriptsOf(html: string): { attrs: string; inline: boolean; text: string }[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({
    attrs: m[1] ?? "",
    inline: (m[2] ?? "").trim() !== "",
    text: m[2] ?? "",
  }));
}

const DATA_TYPES = /type="application\/(json|ld\+json)"/;

/** The page runs exactly one script, inline, whose hash the policy names; no script from a URL. */
function expectHashedLoaderOnly(html: string, scriptSrc: string[]) {
  const executable = scriptsOf(html).filter((s) => !DATA_TYPES.test(s.attrs));
  expect(executable).toHaveLength(1);
  const [loader] = executable;
  expect(loader!.attrs.trim()).toBe("");
  const entry = /src:"(\/assets\/storefront\/storefront-[\w-]+\.js)"/.exec(loader!.text)?.[1];
  expect(entry).toBeDefined();
  expect(loader!.text).toBe(loaderScriptFor(entry!));
  const hash = `'sha256-${createHash("sha256").update(loader!.text).digest("base64")}'`;
  expect(scriptSrc.filter((v) => v.startsWith("'sha256-"))).toEqual([hash]);
  expect(html).not.toContain("nonce=");
}

describe("Content-Security-Policy", () => {
  it("gives the dashboard a strict policy: its own scripts only, framed only by itself", async () => {
    const res = await t.app.inject({ url: "/config/" });
    expect(res.statusCode).toBe(200);
    const csp = directives(res.headers["content-security-policy"]);
    expect(csp.get("script-src")).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'self'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    // The dashboard's page itself has no inline script.
    for (const s of scriptsOf(res.body)) expect(s.inline).toBe(false);
  });

  it("allows on every page, cached or not, only the inline loader, by its hash", async () => {
    const policies = new Set<string>();
    for (const [i, path] of ["/", "/", "/shop", "/shop", "/shop/p/linen-work-apron"].entries()) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode).toBe(200);
      if (i === 1 || i === 3) expect(res.headers["x-page-cache"]).toBe("hit");
      const csp = directives(res.headers["content-security-policy"]);
      const scriptSrc = csp.get("script-src")!;
      expect(scriptSrc.some((v) => v.startsWith("'nonce-"))).toBe(false);
      expect(scriptSrc).toContain("'strict-dynamic'");
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(scriptSrc).not.toContain("'unsafe-eval'");
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("base-uri")).toEqual(["'self'"]);
      expect(csp.get("frame-ancestors")).toEqual(["'self'"]);
      expectHashedLoaderOnly(res.body, scriptSrc);
      policies.add(String(res.headers["content-security-policy"]));
    }
    // The same policy for every page: a page's bytes and headers do not change per answer.
    expect(policies.size).toBe(1);
  });

  it("keeps the page's policy and its loader in the dashboard's editing frame", async () => {
    const res = await owner.request({ url: `/config/frame/${siteId}/` });
    expect(res.statusCode).toBe(200);
    const scriptSrc = directives(res.headers["content-security-policy"]).get("script-src")!;
    expectHashedLoaderOnly(res.body, scriptSrc);
  });

  it("lets other HTML run no script of its own", async () => {
    // The editing frame asked for without an owner session answers a short HTML notice.
    const res = await t.app.inject({ url: `/config/frame/${siteId}/` });
    expect(res.statusCode).toBe(401);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(directives(res.headers["content-security-policy"]).get("script-src")).toEqual(["'self'"]);
  });
});
