import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp, DEMO_OWNER, signIn } from "../../../test/harness.js";
import { CRUMB_EXPIRED, CRUMB_NO_COOKIES } from "../../http/crumb.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

/** Asks for a new owner account with the given details; answers the response. */
const createAccount = (b: Browser, account: { email: string; password: string; displayName?: string }) =>
  b.request({ method: "POST", url: "/api/owner/account", payload: account });

/** Signs the demo owner in without the crumb header, with `crumb` in the query string if given. */
const signInWithoutCrumbHeader = (b: Browser, crumb?: string) =>
  b.request({
    method: "POST",
    url: crumb === undefined ? "/api/owner/session" : `/api/owner/session?crumb=${crumb}`,
    withCrumb: false,
    payload: DEMO_OWNER,
  });

describe("owner accounts", () => {
  it("signs up, is logged in, logs out and back in", async () => {
    const b = new Browser(t.app);
    await b.visit("/");
    expect(b.crumb).toBeTruthy();
    const signUp = await createAccount(b, {
      email: "New.Owner@Example.com",
      password: "correct horse",
      displayName: "New Owner",
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

    const login = await signIn(b, { email: "new.owner@example.com", password: "correct horse" });
    expect(login.statusCode).toBe(200);
    expect((await b.request({ url: "/api/owner/account" })).statusCode).toBe(200);
  });

  it("stores the session token only hashed and the password only as an argon2 hash", async () => {
    const b = new Browser(t.app);
    await b.visit("/");
    await signIn(b);
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
    const login = await signIn(b);
    expect(login.statusCode).toBe(200);
    const me = await b.request({ url: "/api/owner/account" });
    expect(me.json().websites.map((w: { title: string }) => w.title)).toEqual(["Atelier Demo"]);
  });

  it("refuses a wrong password, a duplicate email, a short password and a bad email", async () => {
    const b = new Browser(t.app);
    await b.visit("/");
    const wrong = await signIn(b, { email: "owner@atelier.test", password: "nope-nope" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.message).toBe("The email or password is incorrect.");
    const dup = await createAccount(b, { email: "owner@atelier.test", password: "long enough" });
    expect(dup.statusCode).toBe(409);
    const short = await createAccount(b, { email: "short@example.com", password: "short" });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.password).toBe("Password must be at least 8 characters.");
    const bad = await createAccount(b, { email: "not-an-email", password: "long enough" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.email).toBe("Email is invalid");
  });

  it("answers 403 with crumbFail and the SPEC's messages when the crumb is missing or wrong", async () => {
    const b = new Browser(t.app);
    await b.visit("/");
    const missing = await signInWithoutCrumbHeader(b);
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ crumbFail: true, error: { message: CRUMB_EXPIRED } });
    const wrong = await signInWithoutCrumbHeader(b, "not-the-crumb");
    expect(wrong.statusCode).toBe(403);
    const viaQuery = await signInWithoutCrumbHeader(b, b.crumb);
    expect(viaQuery.statusCode).toBe(200);
    // No cookies at all: the visitor's browser refuses cookies.
    const noCookies = await t.app.inject({
      method: "POST",
      url: "/api/owner/session",
      payload: DEMO_OWNER,
    });
    expect(noCookies.statusCode).toBe(403);
    expect(noCookies.json()).toMatchObject({ crumbFail: true, error: { message: CRUMB_NO_COOKIES } });
  });
});
