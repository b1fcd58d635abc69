/**
 * The role × route matrix, generated from the app's route table: every owner route on a site is
 * called as a member holding each one role, and answers the 403 of a missing permission exactly
 * where that role lacks the permission the route declares, and never where it has it. A route on a
 * site that declares no permission fails here, so a new route cannot forget its declaration.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships } from "../../db/schema.js";
import { type Browser, type TestApp, demoApp, signedUpOwner } from "../../../test/harness.js";
import { ANY_MEMBER, ROLE_IDS, isPermission, permissionsOf } from "./permissions.js";

/** Owner routes that are about the account, not a site: they need no permission. */
const ACCOUNT_ROUTES = new Set([
  "GET /api/owner/themes",
  "GET /api/owner/starters",
  "GET /api/owner/sites",
  "POST /api/owner/sites",
  "POST /api/owner/sites/import",
  "GET /api/owner/account",
  "POST /api/owner/account",
  "POST /api/owner/session",
  "DELETE /api/owner/session",
  "POST /api/owner/invitations/accept",
  "POST /api/owner/invitations/preview",
]);
/** The account's own security calls (password, two-step verification, sessions) live under these. */
const ACCOUNT_PREFIXES = ["/api/owner/account/", "/api/owner/password-reset"];

const REFUSAL = { error: { code: "forbidden", message: "Your role does not allow this." } };
const UNKNOWN_ID = "0123456789abcdef01234567";

let t: TestApp;
let siteId: string;
const members = new Map<string, Browser>();

beforeAll(async () => {
  ({ t, siteId } = await demoApp());
  for (const role of ROLE_IDS) {
    const b = await signedUpOwner(t, `${role}@example.com`);
    const accountId = (await b.request({ url: "/api/owner/account" })).json().account.id as string;
    await t.database.db.insert(memberships).values({ accountId, websiteId: siteId, roles: [role] });
    members.set(role, b);
  }
}, 60_000);
afterAll(() => t.close());

const isSiteRoute = (url: string) => /:(siteId|websiteId)\b/.test(url);

describe("the role × route matrix", () => {
  it("knows every owner route: a site route declares a permission, the others are the account's", () => {
    const failures: string[] = [];
    for (const r of t.app.routeList) {
      const key = `${r.method} ${r.url}`;
      if (isSiteRoute(r.url)) {
        if (!r.permission || !(r.permission === ANY_MEMBER || isPermission(r.permission)))
          failures.push(`${key} declares no permission (config: { permission })`);
      } else if (r.url.startsWith("/api/owner/") && !r.permission) {
        if (!ACCOUNT_ROUTES.has(key) && !ACCOUNT_PREFIXES.some((p) => r.url.startsWith(p)))
          failures.push(`${key} is an owner route without a site nor a permission`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("refuses exactly the routes whose permission each role lacks", async () => {
    const routes = t.app.routeList.filter((r) => isSiteRoute(r.url) || r.permission);
    expect(routes.length).toBeGreaterThan(60);
    const failures: string[] = [];
    let refusals = 0;
    for (const role of ROLE_IDS) {
      const b = members.get(role)!;
      const held = permissionsOf({ owner: false, roles: [role] });
      for (const r of routes) {
        const permission = r.permission!;
        const url =
          r.url
            .replace(/:(siteId|websiteId)\b/, siteId)
            .replace(/:([A-Za-z]+)/g, UNKNOWN_ID)
            .replace(/\*/g, "shop") + (isSiteRoute(r.url) ? "" : `?siteId=${siteId}`);
        const payload = r.method === "GET" || r.method === "DELETE" ? undefined : {};
        const res = await b.request({ method: r.method as "GET", url, payload: payload as never });
        const lacks = permission !== ANY_MEMBER && !held.includes(permission as never);
        const key = `${role} ${r.method} ${r.url} (${permission})`;
        if (lacks) {
          refusals++;
          const html = r.url.startsWith("/config/");
          if (res.statusCode !== 403) failures.push(`${key} → ${res.statusCode}, not 403`);
          else if (html) expect(res.body).toContain("Your role does not allow this.");
          else if (JSON.stringify(res.json()) !== JSON.stringify(REFUSAL))
            failures.push(`${key} → 403 ${res.body.slice(0, 120)}`);
        } else if (res.statusCode === 403) {
          failures.push(`${key} → 403 although the role has the permission: ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(refusals).toBeGreaterThan(100);
  }, 240_000);

  it("keeps answering a person who is not a member 404, whatever their roles elsewhere", async () => {
    const stranger = await signedUpOwner(t, "stranger@example.com");
    const res = await stranger.request({ url: `/api/owner/sites/${siteId}/orders` });
    expect(res.statusCode).toBe(404);
  });
});
