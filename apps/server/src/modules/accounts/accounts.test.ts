import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp } from "../../../test/harness.js";
import { CRUMB_EXPIRED, CRUMB_NO_COOKIES } from "../../http/crumb.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

describe("owner accounts", () => {
  it("signs up, is logged in, logs out and back in", async () => {
    const b = new Browser(t.app);
    await b.visit("/");
    expect(b.crumb).toBeTruthy();
    const signUp = await b.request({
      method: "POST",
      url: "/api/owner/account",
      payload: { email: "New.Owner@Example.com", password: "correct horse", displayName: "New Owner" },
    });
    expect(signUp.statusCode).toBe(201);
    expect(signUp.json().account.email).toBe("new.owner@example.com");
    const session = signUp.cookies.find((c) => c.name === "atelier_owner") as {
      httpOnly?: boolean;
      sameSite?: string;
    };
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe("Lax");

    const me = await b.request({ url: "/api/owner/account" });
    expect(me.statusCode).toBe(200);
    expect(me.json().account.displayName).toBe("New Owner");
    expect(me.json().websites).toEqual([]);

    expect((await b.request({ method: "DELETE", url: "/api/owner/session" })).statusCode).toBe(200);
    expect((await b.request({ url: "/api/owner/account" })).statusCode).toBe(401);

    const login = await b.request({
      method: "POST",
      url: "/api/owner/session",
      payload: { email: "new.owner@example.com", password: "correct horse" },
    });
    expect(login.statusCode).toBe(200);
    expect((await b.request({ url: "/api/owner/account" })).statusCode).toBe(200);
  });

  it("stores the session token only hashed and the password only as an argon2 hash", async () => {
    const b = new Browser(t.app);
    await b.visit("/");
    await b.request({
      method: "POST",
      url: "/api/owner/session",
      payload: { email: "owner@atelier.test", password: "atelier-demo" },
    });
    const token = b.cookies.get("atelier_owner")!;
    const rows = await t.database.db.execute("select token_hash from account_sessions" as never);
    const hashes = JSON.stringify(rows);
    expect(hashes).not.toContain(token);
    const accounts = JSON.stringify(
      await t.database.db.execute("select password_hash from accounts" as never),
    );
    expect(accounts).toContain("$argon2");
  });

  it("lets the demo owner in and lists the demo site", async () => {
    const b = new Browser(t.app);
    await b.visit("/");
    const login = await b.request({
      method: "POST",
      url: "/api/owner/session",
      payload: { email: "owner@atelier.test", password: "atelier-demo" },
    });
    expect(login.statusCode).toBe(200);
    const me = await b.request({ url: "/api/owner/account" });
    expect(me.json().websites.map((w: { title: string }) => w.title)).toEqual(["Atelier Demo"]);
  });

  it("refuses a wrong password, a duplicate email, a short password and a bad email", async () => {
    const b = new Browser(t.app);
    await b.visit("/");
    const wrong = await b.request({
      method: "POST",
      url: "/api/owner/session",
      payload: { email: "owner@atelier.test", password: "nope-nope" },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.message).toBe("The email or password is incorrect.");
    const dup = await b.request({
      method: "POST",
      url: "/api/owner/account",
      payload: { email: "owner@atelier.test", password: "long enough" },
    });
    expect(dup.statusCode).toBe(409);
    const short = await b.request({
      method: "POST",
      url: "/api/owner/account",
      payload: { email: "short@example.com", password: "short" },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.password).toBe("Password must be at least 8 characters.");
    const bad = await b.request({
      method: "POST",
      url: "/api/owner/account",
      payload: { email: "not-an-email", password: "long enough" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.email).toBe("Email is invalid");
  });

  it("answers 403 with crumbFail and the SPEC's messages when the crumb is missing or wrong", async () => {
    const b = new Browser(t.app);
    await b.visit("/");
    const missing = await b.request({
      method: "POST",
      url: "/api/owner/session",
      withCrumb: false,
      payload: { email: "owner@atelier.test", password: "atelier-demo" },
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ crumbFail: true, error: { message: CRUMB_EXPIRED } });
    const wrong = await b.request({
      method: "POST",
      url: "/api/owner/session?crumb=not-the-crumb",
      withCrumb: false,
      payload: { email: "owner@atelier.test", password: "atelier-demo" },
    });
    expect(wrong.statusCode).toBe(403);
    const viaQuery = await b.request({
      method: "POST",
      url: `/api/owner/session?crumb=${b.crumb}`,
      withCrumb: false,
      payload: { email: "owner@atelier.test", password: "atelier-demo" },
    });
    expect(viaQuery.statusCode).toBe(200);
    // No cookies at all: the visitor's browser refuses cookies.
    const noCookies = await t.app.inject({
      method: "POST",
      url: "/api/owner/session",
      payload: { email: "owner@atelier.test", password: "atelier-demo" },
    });
    expect(noCookies.statusCode).toBe(403);
    expect(noCookies.json()).toMatchObject({ crumbFail: true, error: { message: CRUMB_NO_COOKIES } });
  });
});
