import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, createTestApp, signedInOwner, type TestApp, demoSite } from "../../../test/harness.js";
import { analyticsHits } from "../../db/schema.js";
import { runDueJobs } from "../jobs/service.js";
import { validVisitorRecord } from "./service.js";

let t: TestApp;
let websiteId: string;
let n = 0;

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const CVR = "c0ffee|1700000000000|1700000000000|1700000500000|2";

function hit(b: Browser, fields: Record<string, string>) {
  return b.request({
    method: "POST",
    url: "/api/census/RecordHit",
    headers: FORM,
    payload: new URLSearchParams(fields).toString(),
    remoteAddress: `10.9.0.${++n}`,
  });
}

async function hits() {
  return t.database.db.select().from(analyticsHits).where(eq(analyticsHits.websiteId, websiteId));
}

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  websiteId = (await demoSite(t.database.db)).id;
});
afterAll(() => t?.close());

describe("page-view hits (POST /api/census/RecordHit)", () => {
  it("records an anonymous visitor's hit with its fields and visitor cookie", async () => {
    const b = new Browser(t.app);
    const data = {
      pageType: 50,
      url: "http://localhost/shop/p/speckled-mug",
      pagePath: "/shop/p/speckled-mug",
      referrer: "https://example.com/",
      itemId: "0123456789abcdef01234567",
      collectionId: "abcdef0123456789abcdef01",
      contentSource: "i",
      viewportWidth: 432,
    };
    const res = await hit(b, { event: "view", data: JSON.stringify(data), ss_cvr: CVR });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ recorded: true });
    const [row] = (await hits()).filter((h) => h.pagePath === "/shop/p/speckled-mug");
    expect(row).toMatchObject({
      event: "view",
      visitorCookie: CVR,
      referrer: "https://example.com/",
      itemId: data.itemId,
      collectionId: data.collectionId,
    });
    expect(row!.data).toMatchObject({ contentSource: "i", viewportWidth: 432 });
  });

  it("drops a visitor cookie that does not have five parts, keeping the hit", async () => {
    const b = new Browser(t.app);
    const res = await hit(b, { event: "view", data: '{"pagePath":"/bad-cookie"}', ss_cvr: "a|b|c" });
    expect(res.json()).toEqual({ recorded: true });
    const [row] = (await hits()).filter((h) => h.pagePath === "/bad-cookie");
    expect(row!.visitorCookie).toBeNull();
  });

  it("records nothing for owners, signed-in site users, or untracked page types", async () => {
    const before = (await hits()).length;
    const ownerBrowser = new Browser(t.app);
    ownerBrowser.cookies.set("atelier_owner", "x");
    const siteUser = new Browser(t.app);
    siteUser.cookies.set("atelier_site_user", "y");
    for (const b of [ownerBrowser, siteUser]) {
      expect((await hit(b, { event: "view", data: '{"pagePath":"/"}' })).json()).toEqual({ recorded: false });
    }
    for (const pageType of [100, 103, 106]) {
      const res = await hit(new Browser(t.app), { event: "view", data: JSON.stringify({ pageType }) });
      expect(res.json()).toEqual({ recorded: false });
    }
    expect((await hits()).length).toBe(before);
  });

  it("answers bad hits with a 400 and stores nothing", async () => {
    const before = (await hits()).length;
    const b = new Browser(t.app);
    for (const data of ["{not json", "[1,2]", "null", "42"]) {
      const res = await hit(b, { event: "view", data });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe("The hit data is not a JSON object.");
    }
    expect((await hit(b, { data: "{}" })).statusCode).toBe(400);
    expect((await hit(b, { event: "view", data: "{}", extra: "1" })).statusCode).toBe(400);
    expect((await hit(b, { event: "view", data: "x".repeat(20_000) })).statusCode).toBe(400);
    expect((await hits()).length).toBe(before);
  });

  it("has no website at an unknown sub-domain", async () => {
    const b = new Browser(t.app, "nosuch.localhost");
    expect((await hit(b, { event: "view", data: "{}" })).statusCode).toBe(404);
  });
});

describe("traffic for owners (GET /api/owner/sites/:siteId/analytics/traffic)", () => {
  it("counts today's hits once the job queue rolled up their day; only for the site's owner", async () => {
    const owner = await signedInOwner(t);
    const visitor = new Browser(t.app);
    const other = "beef|1700000000000|1700000000000|1700000000000|1";
    await hit(visitor, { event: "view", data: '{"pagePath":"/shop"}', ss_cvr: other });
    await hit(visitor, { event: "view", data: '{"pagePath":"/shop"}', ss_cvr: other });
    await runDueJobs(t.app.deps, "test-worker", 1000);
    const res = await owner.request({ url: `/api/owner/sites/${websiteId}/analytics/traffic` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const all = (await hits()).filter((h) => h.event === "view");
    expect(body.totals.pageViews).toBe(all.length);
    // c0ffee and beef: hits without a visitor cookie are page views, not visitors.
    expect(body.totals.visitors).toBe(2);
    expect(body.pages[0]).toEqual({ path: "/shop", pageViews: 2, visits: 1 });
    expect(body.series.reduce((s: number, d: { pageViews: number }) => s + d.pageViews, 0)).toBe(all.length);

    const stranger = new Browser(t.app);
    const denied = await stranger.request({ url: `/api/owner/sites/${websiteId}/analytics/traffic` });
    expect(denied.statusCode).toBe(401);
    const bad = await owner.request({ url: `/api/owner/sites/${websiteId}/analytics/traffic?days=7` });
    expect(bad.statusCode).toBe(400);
  });
});

describe("validVisitorRecord", () => {
  it("takes five non-empty pipe-separated parts only", () => {
    expect(validVisitorRecord(CVR)).toBe(CVR);
    expect(validVisitorRecord("a|b|c|d")).toBeUndefined();
    expect(validVisitorRecord("a|b|c|d|e|f")).toBeUndefined();
    expect(validVisitorRecord("a||c|d|e")).toBeUndefined();
    expect(validVisitorRecord(undefined)).toBeUndefined();
  });
});

describe("script errors (POST /api/events/RecordJavascriptErrors)", () => {
  const event = (message: string, extra: Record<string, unknown> = {}) => ({
    event: "javascript-error",
    data: JSON.stringify({
      message,
      stack: "at x (app.js:1:2)",
      url: "http://localhost/shop",
      line: 3,
      ...extra,
    }),
    timestamp: 1_700_000_000_000,
  });

  async function owner() {
    const b = await signedInOwner(t);
    return b;
  }

  /** Posts a batch of script errors as a page's reporter does. */
  const report = (b: Browser, payload: string | object, withCrumb?: boolean) =>
    b.request({ method: "POST", url: "/api/events/RecordJavascriptErrors", payload, withCrumb });

  it("records a batch of a published page and lists it for the owner, newest first", async () => {
    const visitor = new Browser(t.app);
    await visitor.visit("/shop");
    const res = await report(visitor, [
      event("first"),
      event("second"),
      { event: "other", data: "{}", timestamp: 1 },
      { ...event("bad"), data: "not json" },
    ]);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ recorded: 2 });
    const list = await (await owner()).request({
      url: `/api/owner/sites/${websiteId}/analytics/script-errors`,
    });
    expect(list.statusCode).toBe(200);
    const errors = list.json().errors as { message: string; pagePath: string; line: number }[];
    expect(
      errors
        .map((e) => e.message)
        .slice(0, 2)
        .sort(),
    ).toEqual(["first", "second"]);
    expect(errors[0]).toMatchObject({ pagePath: "/shop", line: 3, stack: "at x (app.js:1:2)" });
  });

  it("needs the crumb, and refuses more than 10 events or a malformed batch", async () => {
    const visitor = new Browser(t.app);
    await visitor.visit("/");
    const noCrumb = await report(visitor, [event("a")], false);
    expect(noCrumb.statusCode).toBe(403);
    expect(noCrumb.json().crumbFail).toBe(true);
    const tooMany = await report(
      visitor,
      Array.from({ length: 11 }, (_, i) => event(`e${i}`)),
    );
    expect(tooMany.statusCode).toBe(400);
    for (const payload of [
      { event: "javascript-error" },
      [{ event: "javascript-error", timestamp: 1 }],
      "x",
    ]) {
      const res = await report(visitor, payload);
      expect([400, 415]).toContain(res.statusCode);
    }
    // Data that is not the reporter's JSON object is dropped, not stored.
    const junk = await report(visitor, [{ event: "javascript-error", data: "[1]", timestamp: 1 }]);
    expect(junk.json()).toEqual({ recorded: 0 });
  });

  it("shows a site's script errors only to its owner", async () => {
    const stranger = new Browser(t.app);
    const res = await stranger.request({ url: `/api/owner/sites/${websiteId}/analytics/script-errors` });
    expect(res.statusCode).toBe(401);
  });
});
