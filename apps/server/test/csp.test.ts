/**
 * Content-Security-Policy: the dashboard runs only its own scripts; every published page response
 * (cached or not, and in the editing frame) carries a fresh nonce that only our script tags hold;
 * other HTML runs no script at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, type TestApp, createTestApp, demoOwner } from "./harness.js";

let t: TestApp;
let owner: Browser;
let siteId: string;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  ({ owner, siteId } = await demoOwner(t));
});
afterAll(() => t.close());

function directives(header: unknown): Map<string, string[]> {
  expect(typeof header, "a content-security-policy header").toBe("string");
  return new Map(
    String(header)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name = "", ...values]) => [name, values]),
  );
}

/** Every script element of a page: executable ones must load from a URL with the nonce. */
function scriptsOf(html: string): { attrs: string; inline: boolean }[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({
    attrs: m[1] ?? "",
    inline: (m[2] ?? "").trim() !== "",
  }));
}

const DATA_TYPES = /type="application\/(json|ld\+json)"/;

function expectNonceOnly(html: string, nonce: string) {
  const scripts = scriptsOf(html);
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) {
    if (DATA_TYPES.test(s.attrs)) continue;
    expect(s.inline, `inline executable script: ${s.attrs}`).toBe(false);
    expect(s.attrs).toContain(`nonce="${nonce}"`);
  }
  expect(html).toContain(`<link rel="modulepreload" nonce="${nonce}"`);
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

  it("gives every page response a fresh nonce, cached or not, that only our scripts carry", async () => {
    const nonces = new Set<string>();
    for (const [i, path] of ["/", "/", "/shop", "/shop", "/shop/p/linen-work-apron"].entries()) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode).toBe(200);
      if (i === 1 || i === 3) expect(res.headers["x-page-cache"]).toBe("hit");
      const csp = directives(res.headers["content-security-policy"]);
      const scriptSrc = csp.get("script-src")!;
      const nonce = scriptSrc.find((v) => v.startsWith("'nonce-"))!.slice(7, -1);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(scriptSrc).toContain("'strict-dynamic'");
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(scriptSrc).not.toContain("'unsafe-eval'");
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("base-uri")).toEqual(["'self'"]);
      expect(csp.get("frame-ancestors")).toEqual(["'self'"]);
      expectNonceOnly(res.body, nonce);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(5);
  });

  it("keeps the page's policy and nonce in the dashboard's editing frame", async () => {
    const res = await owner.request({ url: `/config/frame/${siteId}/` });
    expect(res.statusCode).toBe(200);
    const scriptSrc = directives(res.headers["content-security-policy"]).get("script-src")!;
    const nonce = scriptSrc.find((v) => v.startsWith("'nonce-"))!.slice(7, -1);
    expectNonceOnly(res.body, nonce);
  });

  it("lets other HTML run no script of its own", async () => {
    // The editing frame asked for without an owner session answers a short HTML notice.
    const res = await t.app.inject({ url: `/config/frame/${siteId}/` });
    expect(res.statusCode).toBe(401);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(directives(res.headers["content-security-policy"]).get("script-src")).toEqual(["'self'"]);
  });
});
