/**
 * Owner account security through the real app and database: password change and reset (through
 * the email in the outbox), email change, two-step verification, guessing limits per account and
 * per address (with TRUST_PROXY), and the signed-in devices.
 */
import { asc, eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp, fromAddress, signIn, signUp } from "../../../test/harness.js";
import * as s from "../../db/schema.js";
import { parseTrustProxy } from "../../http/client-address.js";
import { DAY_MS } from "../../lib/clock.js";
import { pruneOwnerAccountRows } from "./housekeeping.js";
import { FREE_WRONG_TRIES, NOTIFY_AT_WRONG_TRIES, waitAfter } from "./sign-in-guard.js";

const PASSWORD = "long enough password";
const CHROME_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

let now = new Date("2026-03-02T10:00:00Z");
const clock = { now: () => new Date(now) };
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true, clock });
});
afterAll(() => t.close());

let n = 0;
const uniqueEmail = (what: string) => `${what}-${++n}@example.com`;
/** A browser of its own address (so the per-address limit of one test never meets another's). */
const newBrowser = (userAgent = CHROME_MAC) => {
  const b = fromAddress(new Browser(t.app), `10.9.${Math.floor(++n / 200)}.${n % 200}`);
  const request = b.request.bind(b);
  b.request = (opts) =>
    request({ ...opts, headers: { "user-agent": userAgent, ...(opts.headers as Record<string, string>) } });
  return b;
};

/** A new owner account, signed up (and so signed in) on a new browser. */
async function newOwner(email = uniqueEmail("owner"), userAgent = CHROME_MAC) {
  const b = newBrowser(userAgent);
  await b.visit("/");
  expect((await signUp(b, email)).statusCode).toBe(201);
  return { b, email };
}

async function browserSignedIn(email: string, password = PASSWORD, userAgent = CHROME_MAC, code?: string) {
  const b = newBrowser(userAgent);
  await b.visit("/");
  const res = await signIn(b, { email, password, ...(code ? { code } : {}) } as never);
  return { b, res };
}

const emailsTo = (to: string) =>
  t.database.db
    .select()
    .from(s.outboundEmails)
    .where(eq(s.outboundEmails.toAddress, to))
    .orderBy(asc(s.outboundEmails.createdAt), asc(s.outboundEmails.id));

const tokenIn = (text: string, path: string) =>
  new RegExp(`/config/${path}\\?token=([\\w-]+)`).exec(text)?.[1];
const me = (b: Browser) => b.request({ url: "/api/owner/account" });
const totp = (secret: string) => generate({ secret, epoch: Math.floor(now.getTime() / 1000) });

describe("changing the password", () => {
  it("needs the current password and signs every other session out", async () => {
    const { b, email } = await newOwner();
    const other = (await browserSignedIn(email)).b;

    const wrong = await b.request({
      method: "PUT",
      url: "/api/owner/account/password",
      payload: { currentPassword: "not my password", newPassword: "a new long password" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.currentPassword).toBe("That is not your current password.");
    const short = await b.request({
      method: "PUT",
      url: "/api/owner/account/password",
      payload: { currentPassword: PASSWORD, newPassword: "short" },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.newPassword).toBe("Password must be at least 8 characters.");
    // Nothing changed: the other session lives and the old password still works.
    expect((await me(other)).statusCode).toBe(200);
    expect((await browserSignedIn(email)).res.statusCode).toBe(200);

    const changed = await b.request({
      method: "PUT",
      url: "/api/owner/account/password",
      payload: { currentPassword: PASSWORD, newPassword: "a new long password" },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().signedOut).toBe(2);
    expect((await me(b)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await browserSignedIn(email)).res.statusCode).toBe(401);
    expect((await browserSignedIn(email, "a new long password")).res.statusCode).toBe(200);
    expect((await emailsTo(email)).map((m) => m.subject)).toContain("Your Atelier password was changed");
  });
});

describe("a forgotten password", () => {
  const ask = (b: Browser, email: string) =>
    b.request({ method: "POST", url: "/api/owner/password-reset", payload: { email } });
  const confirm = (b: Browser, token: string, newPassword: string) =>
    b.request({ method: "POST", url: "/api/owner/password-reset/confirm", payload: { token, newPassword } });

  it("answers the same for any address and resets through the emailed link, once", async () => {
    const { b: owner, email } = await newOwner();
    const b = newBrowser();
    await b.visit("/");
    const unknown = await ask(b, uniqueEmail("nobody"));
    const known = await ask(b, email.toUpperCase());
    expect(unknown.statusCode).toBe(202);
    expect(known.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());

    const [mail] = (await emailsTo(email)).filter((m) => m.subject === "Reset your Atelier password");
    expect(mail).toBeDefined();
    const token = tokenIn(mail!.textBody, "reset-password")!;
    expect(mail!.htmlBody).toContain(`/config/reset-password?token=${token}`);

    const short = await confirm(b, token, "short");
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.newPassword).toBe("Password must be at least 8 characters.");
    expect((await confirm(b, token, "my brand new password")).statusCode).toBe(200);
    // Every session of the account ended; the new password works, the old one does not.
    expect((await me(owner)).statusCode).toBe(401);
    expect((await browserSignedIn(email)).res.statusCode).toBe(401);
    expect((await browserSignedIn(email, "my brand new password")).res.statusCode).toBe(200);

    const reused = await confirm(b, token, "yet another password");
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe("reset_token_invalid");
    expect((await browserSignedIn(email, "yet another password")).res.statusCode).toBe(401);
  });

  it("refuses a link more than an hour old and changes nothing", async () => {
    const { email } = await newOwner();
    const b = newBrowser();
    await b.visit("/");
    await ask(b, email);
    const token = tokenIn((await emailsTo(email)).at(-1)!.textBody, "reset-password")!;
    advance(61 * 60_000);
    const late = await confirm(b, token, "a password too late");
    expect(late.statusCode).toBe(400);
    expect(late.json().error.message).toMatch(/more than an hour old/);
    expect((await browserSignedIn(email)).res.statusCode).toBe(200);
  });

  it("limits the emails asked for one address", async () => {
    const { email } = await newOwner();
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const b = newBrowser();
      await b.visit("/");
      answers.push((await ask(b, email)).statusCode);
    }
    expect(answers).toEqual([202, 202, 202, 429]);
    const b = newBrowser();
    await b.visit("/");
    const bad = await ask(b, "not an email");
    expect(bad.statusCode).toBe(400);
  });
});

describe("changing the email address", () => {
  it("takes effect only through the link sent to the new address", async () => {
    const { b, email } = await newOwner();
    const newEmail = uniqueEmail("moved");
    const taken = (await newOwner()).email;
    const change = (payload: object) =>
      b.request({ method: "PUT", url: "/api/owner/account/email", payload });

    const wrong = await change({ newEmail, password: "not my password" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.password).toBe("That is not your current password.");
    expect((await change({ newEmail: taken, password: PASSWORD })).statusCode).toBe(409);
    expect(
      (await change({ newEmail: "nope", password: PASSWORD })).json().error.fields.newEmail,
    ).toBeTruthy();
    expect(await emailsTo(newEmail)).toHaveLength(0);

    const asked = await change({ newEmail, password: PASSWORD });
    expect(asked.statusCode).toBe(202);
    expect((await b.request({ url: "/api/owner/account/security" })).json().pendingEmail).toBe(newEmail);
    // Not yet: the account still signs in with the old address.
    expect((await browserSignedIn(newEmail)).res.statusCode).toBe(401);
    const [mail] = await emailsTo(newEmail);
    const token = tokenIn(mail!.textBody, "confirm-email")!;
    const confirmed = await b.request({
      method: "POST",
      url: "/api/owner/account/email/confirm",
      payload: { token },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().account.email).toBe(newEmail);
    expect((await browserSignedIn(newEmail)).res.statusCode).toBe(200);
    expect((await browserSignedIn(email)).res.statusCode).toBe(401);
    expect((await emailsTo(email)).map((m) => m.subject)).toContain(
      "Your Atelier sign-in address was changed",
    );
    const again = await b.request({
      method: "POST",
      url: "/api/owner/account/email/confirm",
      payload: { token },
    });
    expect(again.statusCode).toBe(400);
  });
});

describe("two-step verification", () => {
  it("is set up with a first code, then asked at sign-in; codes and recovery codes work once", async () => {
    const { b, email } = await newOwner();
    const started = await b.request({ method: "POST", url: "/api/owner/account/two-factor" });
    expect(started.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCodeSvg } = started.json();
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Atelier:/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(qrCodeSvg).toContain("<svg");

    const confirm = (code: string) =>
      b.request({ method: "POST", url: "/api/owner/account/two-factor/confirm", payload: { code } });
    const wrong = await confirm("000000");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe("invalid_code");
    expect((await b.request({ url: "/api/owner/account/security" })).json().twoFactorEnabled).toBe(false);
    expect((await browserSignedIn(email)).res.statusCode).toBe(200);

    const confirmed = await confirm(await totp(secret));
    expect(confirmed.statusCode).toBe(200);
    const recoveryCodes: string[] = confirmed.json().recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = JSON.stringify(await t.database.db.select().from(s.accountRecoveryCodes));
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replace("-", ""));

    const noCode = await browserSignedIn(email);
    expect(noCode.res.statusCode).toBe(401);
    expect(noCode.res.json().error.code).toBe("two_factor_required");
    expect(noCode.res.json().error.message).toMatch(/authenticator app/);
    const wrongCode = await browserSignedIn(email, PASSWORD, CHROME_MAC, "123456");
    expect(wrongCode.res.statusCode).toBe(401);
    expect(wrongCode.res.json().error.code).toBe("invalid_code");

    advance(30_000);
    const code = await totp(secret);
    expect((await browserSignedIn(email, PASSWORD, CHROME_MAC, code)).res.statusCode).toBe(200);
    // The same code again is refused (it was used).
    expect((await browserSignedIn(email, PASSWORD, CHROME_MAC, code)).res.statusCode).toBe(401);

    const recovery = recoveryCodes[0]!;
    expect((await browserSignedIn(email, PASSWORD, CHROME_MAC, recovery.toUpperCase())).res.statusCode).toBe(
      200,
    );
    const reused = await browserSignedIn(email, PASSWORD, CHROME_MAC, recovery);
    expect(reused.res.statusCode).toBe(401);
    expect(reused.res.json().error.code).toBe("invalid_code");
    expect((await b.request({ url: "/api/owner/account/security" })).json().recoveryCodesLeft).toBe(9);
    // Setting up again while it is on is refused.
    expect((await b.request({ method: "POST", url: "/api/owner/account/two-factor" })).statusCode).toBe(409);

    const off = (payload: object) =>
      b.request({ method: "DELETE", url: "/api/owner/account/two-factor", payload });
    advance(30_000);
    const badPassword = await off({ password: "not my password", code: await totp(secret) });
    expect(badPassword.statusCode).toBe(400);
    expect(badPassword.json().error.fields.password).toBeTruthy();
    expect((await off({ password: PASSWORD, code: "999999" })).statusCode).toBe(400);
    expect((await b.request({ url: "/api/owner/account/security" })).json().twoFactorEnabled).toBe(true);
    expect((await off({ password: PASSWORD, code: recoveryCodes[1]! })).statusCode).toBe(200);
    expect((await b.request({ url: "/api/owner/account/security" })).json()).toMatchObject({
      twoFactorEnabled: false,
      recoveryCodesLeft: 0,
    });
    expect((await browserSignedIn(email)).res.statusCode).toBe(200);
  });
});

describe("guessing limits per account", () => {
  it("makes each try after five wrong passwords wait longer, and tells the account at twenty", async () => {
    const { email } = await newOwner();
    const attempt = async (password: string) => (await browserSignedIn(email, password)).res;
    for (let i = 0; i < FREE_WRONG_TRIES; i++) expect((await attempt("wrong password")).statusCode).toBe(401);
    const waiting = await attempt(PASSWORD);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().error.code).toBe("too_many_attempts");
    expect(waiting.json().error.message).toBe(
      "Too many wrong passwords for this account. Please wait 30 seconds and try again, or reset your password.",
    );
    expect(waiting.headers["retry-after"]).toBe("30");

    const waits: number[] = [];
    for (let failures = FREE_WRONG_TRIES; failures < NOTIFY_AT_WRONG_TRIES; failures++) {
      advance(waitAfter(failures) * 1000);
      expect((await attempt("wrong password")).statusCode).toBe(401);
      waits.push(Number((await attempt("wrong password")).headers["retry-after"]));
    }
    // Each wait is longer than the one before, up to the longest.
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits[1]).toBeGreaterThan(waits[0]!);
    const told = (await emailsTo(email)).filter(
      (m) => m.subject === "Many wrong passwords for your Atelier account",
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.textBody).toContain(`${NOTIFY_AT_WRONG_TRIES} times`);

    advance(waitAfter(NOTIFY_AT_WRONG_TRIES) * 1000);
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
    // A sign-in that succeeds clears the count.
    expect((await attempt("wrong password")).statusCode).toBe(401);
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
  });

  it("treats an address without an account the same way (the answers tell nothing)", async () => {
    const email = uniqueEmail("ghost");
    for (let i = 0; i < FREE_WRONG_TRIES; i++) {
      expect((await browserSignedIn(email, "anything at all")).res.statusCode).toBe(401);
    }
    expect((await browserSignedIn(email, "anything at all")).res.statusCode).toBe(429);
  });
});

describe("the client's address (TRUST_PROXY)", () => {
  /** Wrong sign-ins for new addresses (so only the per-address limit counts), each with a made-up X-Forwarded-For. */
  async function wrongSignIns(app: TestApp, remoteAddress: string, times: number) {
    const b = new Browser(app.app);
    await b.request({ url: "/", remoteAddress });
    const codes: number[] = [];
    for (let i = 0; i < times; i++) {
      const res = await b.request({
        method: "POST",
        url: "/api/owner/session",
        remoteAddress,
        headers: { "x-forwarded-for": `198.51.100.${i + 1}` },
        payload: { email: uniqueEmail("spoof"), password: "wrong password" },
      });
      codes.push(res.statusCode);
    }
    return codes;
  }

  it("ignores X-Forwarded-For from a client that is not a trusted proxy", async () => {
    const codes = await wrongSignIns(t, "203.0.113.7", 11);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes[10]).toBe(429);
    // And the session records the connection's address, not the header's.
    const { email } = await newOwner();
    const b = new Browser(t.app);
    await b.request({ url: "/", remoteAddress: "203.0.113.8" });
    await b.request({
      method: "POST",
      url: "/api/owner/session",
      remoteAddress: "203.0.113.8",
      headers: { "x-forwarded-for": "192.0.2.50" },
      payload: { email, password: PASSWORD },
    });
    const sessions = (
      await b.request({ url: "/api/owner/account/sessions", remoteAddress: "203.0.113.8" })
    ).json();
    expect(sessions.sessions.find((x: { current: boolean }) => x.current).ip).toBe("203.0.113.8");
  });

  it("uses the address a trusted proxy forwards", async () => {
    const behindProxy = await createTestApp({
      seed: true,
      clock,
      env: { TRUST_PROXY: "10.0.0.1, 192.168.0.0/16" },
    });
    try {
      // Each forwarded address is a client of its own: none reaches the ten-a-minute limit.
      expect(await wrongSignIns(behindProxy, "10.0.0.1", 11)).toEqual(Array(11).fill(401));
      // A proxy not named is not trusted.
      const notNamed = await wrongSignIns(behindProxy, "10.0.0.2", 11);
      expect(notNamed[10]).toBe(429);
      const b = new Browser(behindProxy.app);
      const via = { remoteAddress: "192.168.4.4", headers: { "x-forwarded-for": "1.2.3.4, 192.0.2.60" } };
      await b.request({ url: "/", ...via });
      await b.request({
        method: "POST",
        url: "/api/owner/account",
        ...via,
        payload: { email: uniqueEmail("proxied"), password: PASSWORD },
      });
      const sessions = (await b.request({ url: "/api/owner/account/sessions", ...via })).json().sessions;
      // The rightmost address the trusted proxy added, not the one the client made up before it.
      expect(sessions[0].ip).toBe("192.0.2.60");
    } finally {
      await behindProxy.close();
    }
  });

  it("reads TRUST_PROXY as a hop count or a list of addresses and ranges", () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy("")).toBe(false);
    expect(parseTrustProxy("2")).toBe(2);
    expect(parseTrustProxy("127.0.0.1, 10.0.0.0/8 ,::1,loopback")).toEqual([
      "127.0.0.1",
      "10.0.0.0/8",
      "::1",
      "loopback",
    ]);
    expect(() => parseTrustProxy("true")).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy("10.0.0.0/33")).toThrow(/10.0.0.0\/33/);
  });
});

describe("signed-in devices", () => {
  it("lists them with browser, OS, address and last use; signs one or all others out", async () => {
    const { b, email } = await newOwner(uniqueEmail("devices"), CHROME_MAC);
    const firefox = (await browserSignedIn(email, PASSWORD, FIREFOX_LINUX)).b;
    const third = (await browserSignedIn(email, PASSWORD, FIREFOX_LINUX)).b;
    const list = async () => (await b.request({ url: "/api/owner/account/sessions" })).json().sessions;
    const sessions = await list();
    expect(sessions).toHaveLength(3);
    const current = sessions.find((x: { current: boolean }) => x.current);
    expect(current).toMatchObject({ browser: "Chrome", os: "macOS Catalina" });
    expect(
      sessions.filter((x: { browser: string; os: string }) => x.browser === "Firefox" && x.os === "Linux"),
    ).toHaveLength(2);
    expect(current.ip).toMatch(/^10\.9\./);

    // Last seen moves at most once a minute.
    const seen = current.lastSeenAt;
    advance(30_000);
    expect((await list()).find((x: { current: boolean }) => x.current).lastSeenAt).toBe(seen);
    advance(31_000);
    await me(b);
    expect((await list()).find((x: { current: boolean }) => x.current).lastSeenAt).not.toBe(seen);

    const other = sessions.find((x: { current: boolean; ip: string }) => !x.current);
    expect(
      (await b.request({ method: "DELETE", url: `/api/owner/account/sessions/${other.id}` })).statusCode,
    ).toBe(200);
    expect(
      (await b.request({ method: "DELETE", url: `/api/owner/account/sessions/${other.id}` })).statusCode,
    ).toBe(404);
    expect([(await me(firefox)).statusCode, (await me(third)).statusCode].sort()).toEqual([200, 401]);
    const rest = await b.request({ method: "DELETE", url: "/api/owner/account/sessions" });
    expect(rest.json().signedOut).toBe(1);
    expect((await me(firefox)).statusCode).toBe(401);
    expect((await me(third)).statusCode).toBe(401);
    expect((await me(b)).statusCode).toBe(200);
    expect(await list()).toHaveLength(1);

    // Another owner cannot sign this one's session out.
    const stranger = (await newOwner()).b;
    const mine = (await list())[0].id;
    expect(
      (await stranger.request({ method: "DELETE", url: `/api/owner/account/sessions/${mine}` })).statusCode,
    ).toBe(404);
    expect((await me(b)).statusCode).toBe(200);
  });

  it("emails the account on a sign-in from a device it has not used, once per device", async () => {
    const { email } = await newOwner(uniqueEmail("newdevice"), CHROME_MAC);
    const notices = async () =>
      (await emailsTo(email)).filter((m) => m.subject === "New sign-in to your Atelier account");
    expect(await notices()).toHaveLength(0);
    const firefox = newBrowser(FIREFOX_LINUX);
    await firefox.visit("/");
    await signIn(firefox, { email, password: PASSWORD });
    const [notice] = await notices();
    expect(notice!.textBody).toContain("Firefox on Linux");
    await firefox.request({ method: "DELETE", url: "/api/owner/session" });
    await signIn(firefox, { email, password: PASSWORD });
    expect(await notices()).toHaveLength(1);
  });
});

describe("housekeeping", () => {
  it("removes expired sessions, old tokens and forgotten wrong-password counts, and keeps live ones", async () => {
    const { b, email } = await newOwner();
    expect((await browserSignedIn(email, "a wrong password")).res.statusCode).toBe(401);
    const ghost = uniqueEmail("old-ghost");
    expect((await browserSignedIn(ghost, "a wrong password")).res.statusCode).toBe(401);
    advance(2 * DAY_MS);
    expect((await browserSignedIn(email, "another wrong one")).res.statusCode).toBe(401);
    await pruneOwnerAccountRows(t.database.db, clock.now());
    const failures = (await t.database.db.select().from(s.ownerSignInFailures)).map((r) => r.email);
    expect(failures).toContain(email);
    expect(failures).not.toContain(ghost);
    expect((await me(b)).statusCode).toBe(200);
    advance(31 * DAY_MS);
    await pruneOwnerAccountRows(t.database.db, clock.now());
    expect(await t.database.db.select().from(s.accountSessions)).toHaveLength(0);
    expect(await t.database.db.select().from(s.accountTokens)).toHaveLength(0);
  });
});

describe("the OpenAPI document", () => {
  it("lists every account security route with its body schema", async () => {
    const paths = (await t.app.inject({ url: "/api/openapi.json" })).json().paths;
    const routes: [string, string, string[]][] = [
      ["/api/owner/account/password", "put", ["currentPassword", "newPassword"]],
      ["/api/owner/password-reset", "post", ["email"]],
      ["/api/owner/password-reset/confirm", "post", ["token", "newPassword"]],
      ["/api/owner/account/email", "put", ["newEmail", "password"]],
      ["/api/owner/account/email/confirm", "post", ["token"]],
      ["/api/owner/account/two-factor/confirm", "post", ["code"]],
      ["/api/owner/account/two-factor", "delete", ["password", "code"]],
      ["/api/owner/session", "post", ["email", "password", "code"]],
    ];
    for (const [path, method, fields] of routes) {
      const schema = paths[path]?.[method]?.requestBody?.content?.["application/json"]?.schema;
      expect(Object.keys(schema?.properties ?? {}), `${method} ${path}`).toEqual(fields);
    }
    for (const [path, method] of [
      ["/api/owner/account/two-factor", "post"],
      ["/api/owner/account/sessions", "get"],
      ["/api/owner/account/sessions", "delete"],
      ["/api/owner/account/sessions/{id}", "delete"],
      ["/api/owner/account/security", "get"],
    ]) {
      expect(paths[path!]?.[method!]?.responses?.["200"], `${method} ${path}`).toBeDefined();
    }
  });
});

describe("bad input", () => {
  it("answers clear 4xx for missing fields and unknown tokens, and 401 when signed out", async () => {
    const b = newBrowser();
    await b.visit("/");
    const missing = await b.request({
      method: "POST",
      url: "/api/owner/password-reset/confirm",
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    const unknown = await b.request({
      method: "POST",
      url: "/api/owner/password-reset/confirm",
      payload: { token: "made-up", newPassword: "long enough password" },
    });
    expect(unknown.json().error.code).toBe("reset_token_invalid");
    const email = await b.request({
      method: "POST",
      url: "/api/owner/account/email/confirm",
      payload: { token: "x" },
    });
    expect(email.json().error.code).toBe("email_token_invalid");
    for (const [method, url] of [
      ["GET", "/api/owner/account/sessions"],
      ["GET", "/api/owner/account/security"],
      ["POST", "/api/owner/account/two-factor"],
      ["DELETE", "/api/owner/account/sessions"],
    ] as const) {
      expect((await b.request({ method, url })).statusCode).toBe(401);
    }
    const { b: owner } = await newOwner();
    const notStarted = await owner.request({
      method: "POST",
      url: "/api/owner/account/two-factor/confirm",
      payload: { code: "123456" },
    });
    expect(notStarted.statusCode).toBe(400);
    const badId = await owner.request({ method: "DELETE", url: "/api/owner/account/sessions/not-an-id" });
    expect(badId.statusCode).toBe(400);
  });
});
