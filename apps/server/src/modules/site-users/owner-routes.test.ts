import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { siteId as websiteId, t, useDemoApp } from "../../../test/demo-app.js";
import {
  type Browser,
  DEMO_OWNER,
  signedInOwner,
  signedUpOwner,
  visitorFrom,
} from "../../../test/harness.js";
import * as s from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { MSG_BAD_CURSOR } from "../../lib/paging.js";

let n = 0;

useDemoApp();
beforeAll(async () => {
  // Five site users a minute apart, newest last; one of them has two orders.
  const base = Date.UTC(2026, 0, 1);
  const names = [
    ["Ada", "Lovelace"],
    ["Grace", "Hopper"],
    ["Alan", "Turing"],
    ["Edsger", "Dijkstra"],
    ["Barbara", "Liskov_100%"],
  ] as const;
  for (const [i, [firstName, lastName]] of names.entries()) {
    await t.database.db.insert(s.siteUsers).values({
      id: newId(),
      websiteId,
      email: `${firstName.toLowerCase()}@example.com`,
      passwordHash: "secret-hash-never-shown",
      firstName,
      lastName,
      createdAt: new Date(base + i * 60_000),
    });
  }
});

function browser(): Promise<Browser> {
  return visitorFrom(t, `10.7.0.${++n}`);
}

async function owner(): Promise<Browser> {
  return signedInOwner(t, DEMO_OWNER, await browser());
}

const url = (query = "") => `/api/owner/sites/${websiteId}/site-users${query}`;

describe("GET /api/owner/sites/:siteId/site-users", () => {
  it("lists the site's users newest first, with order counts and without password hashes", async () => {
    const o = await owner();
    const [grace] = await t.database.db.select().from(s.siteUsers).where(eq(s.siteUsers.firstName, "Grace"));
    const orderRows = await t.database.db
      .select()
      .from(s.orders)
      .where(eq(s.orders.websiteId, websiteId))
      .limit(2);
    for (const row of orderRows) {
      await t.database.db.update(s.orders).set({ siteUserId: grace!.id }).where(eq(s.orders.id, row.id));
    }
    const res = await o.request({ url: url() });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("secret-hash-never-shown");
    expect(res.body).not.toContain("passwordHash");
    const body = res.json();
    const ours = body.siteUsers.filter((u: { email: string }) => u.email.endsWith("@example.com"));
    expect(ours.map((u: { firstName: string }) => u.firstName)).toEqual([
      "Barbara",
      "Edsger",
      "Alan",
      "Grace",
      "Ada",
    ]);
    const graceRow = ours.find((u: { firstName: string }) => u.firstName === "Grace");
    expect(graceRow).toEqual({
      id: grace!.id,
      email: "grace@example.com",
      firstName: "Grace",
      lastName: "Hopper",
      createdOn: Date.UTC(2026, 0, 1) + 60_000,
      orderCount: orderRows.length,
    });
    expect(ours.find((u: { firstName: string }) => u.firstName === "Ada").orderCount).toBe(0);
  });

  it("searches email and names, with % and _ taken literally", async () => {
    const o = await owner();
    const names = async (q: string) =>
      (await o.request({ url: url(`?q=${encodeURIComponent(q)}`) }))
        .json()
        .siteUsers.map((u: { firstName: string }) => u.firstName);
    expect(await names("HOPPER")).toEqual(["Grace"]);
    expect(await names("alan@")).toEqual(["Alan"]);
    expect(await names("ada lovelace")).toEqual(["Ada"]);
    expect(await names("_100%")).toEqual(["Barbara"]);
    expect(await names("%")).toEqual(["Barbara"]);
    expect(await names("nobody-like-this")).toEqual([]);
  });

  it("pages with cursors: every page together has every user exactly once", async () => {
    const o = await owner();
    const all = (await o.request({ url: url("?limit=200") }))
      .json()
      .siteUsers.map((u: { id: string }) => u.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await o.request({ url: url(`?limit=2${cursor ? `&cursor=${cursor}` : ""}`) });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.siteUsers.length).toBeLessThanOrEqual(2);
      seen.push(...body.siteUsers.map((u: { id: string }) => u.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThanOrEqual(5);
  });

  it("answers 401 without an owner session and 404 on another owner's site", async () => {
    const anon = await browser();
    expect((await anon.request({ url: url() })).statusCode).toBe(401);
    const stranger = await signedUpOwner(t, "stranger-su@example.com", await browser());
    const res = await stranger.request({ url: url() });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe("No such site.");
    expect(res.body).not.toContain('@example.com"');
    const bogus = await (await owner()).request({ url: "/api/owner/sites/not-an-id/site-users" });
    expect(bogus.statusCode).toBe(400);
  });

  it("rejects bad query inputs with 400", async () => {
    const o = await owner();
    for (const q of ["?limit=0", "?limit=201", "?limit=abc", `?q=${"x".repeat(201)}`]) {
      const res = await o.request({ url: url(q) });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBeTypeOf("string");
    }
    for (const cursor of [
      "garbage!",
      Buffer.from('["x","y"]').toString("base64url"),
      Buffer.from("{}").toString("base64url"),
    ]) {
      const res = await o.request({ url: url(`?cursor=${cursor}`) });
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json().error.message).toBe(MSG_BAD_CURSOR);
      expect(res.json().error.fields).toEqual({ cursor: MSG_BAD_CURSOR });
    }
  });
});
