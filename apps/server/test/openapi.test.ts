/**
 * The OpenAPI lint: every operation of /api/openapi.json has a summary, an operationId (unique),
 * error answers with the one error shape and a success answer; /api/docs serves the reference
 * from the server itself under its Content-Security-Policy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "./harness.js";

let t: TestApp;
type Operation = {
  summary?: string;
  operationId?: string;
  responses?: Record<
    string,
    { content?: { "application/json"?: { schema?: { properties?: Record<string, unknown> } } } }
  >;
};
let operations: { name: string; op: Operation }[];

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ url: "/api/openapi.json" });
  expect(res.statusCode).toBe(200);
  const doc = res.json() as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );
});
afterAll(() => t.close());

describe("the OpenAPI document", () => {
  it("documents every route", () => {
    // A trailing slash is the same route (some answer both, documenting one).
    const same = (name: string) => name.replace(/\{(\w+)\}/g, ":$1").replace(/(.)\/$/, "$1");
    const documented = new Set(operations.map((o) => same(o.name)));
    const hidden = /^\/(api\/docs|api\/openapi\.json|assets|config|metrics|robots|sitemap|favicon|\*)/;
    const missing = t.app.routeList
      .filter((r) => r.url.startsWith("/api/") && !hidden.test(r.url))
      .map((r) => `${r.method} ${r.url}`)
      .filter((name) => !documented.has(same(name)));
    expect(missing).toEqual([]);
  });

  it("gives every operation a summary and a unique operationId", () => {
    expect(operations.length).toBeGreaterThan(150);
    expect(operations.filter((o) => !o.op.summary?.trim()).map((o) => o.name)).toEqual([]);
    expect(operations.filter((o) => !o.op.operationId).map((o) => o.name)).toEqual([]);
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("gives every operation its error answers, in the one error shape, and a success answer", () => {
    const problems: string[] = [];
    for (const { name, op } of operations) {
      const codes = Object.keys(op.responses ?? {});
      const errors = codes.filter((c) => /^4/.test(c));
      if (!errors.length) problems.push(`${name}: no error answer`);
      if (!codes.some((c) => /^2/.test(c))) problems.push(`${name}: no success answer`);
      for (const code of errors) {
        const schema = op.responses![code]!.content?.["application/json"]?.schema;
        if (!schema?.properties?.error) problems.push(`${name}: ${code} is not the error shape`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("/api/docs", () => {
  it("serves the interactive reference from the server's own files under the dashboard's policy", async () => {
    const page = await t.app.inject({ url: "/api/docs" });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^(https?:)?\/\//);
      const file = await t.app.inject({ url: new URL(src, "http://localhost/api/docs").pathname });
      expect(file.statusCode, src).toBe(200);
    }
    // No inline script, which the policy would block.
    expect(page.body).not.toMatch(/<script(?![^>]*src=)[^>]*>\s*\S/);
  });
});
