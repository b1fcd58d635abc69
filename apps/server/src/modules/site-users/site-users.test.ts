import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp, insertSite } from "../../../test/harness.js";
import * as s from "../../db/schema.js";
import { CRUMB_EXPIRED } from "../../http/crumb.js";
import { hashToken } from "../../lib/ids.js";
import { CART_COOKIE } from "../cart/routes.js";
import { orderBody } from "../../../test/fixtures.js";
import { SIGNED_IN_COOKIE, SITE_USER_COOKIE } from "./routes.js";
import {
  MSG_EMAIL_TAKEN,
  MSG_INVALID_CREDENTIALS,
  MSG_PASSWORD_TOO_SHORT,
  MSG_RESET_INVALID,
  MSG_SIGN_IN_REQUIRED,
  MSG_TOO_MANY_ATTEMPTS,
  MSG_XSRF_FAIL,
  RESET_TOKEN_MINUTES,
  SIGN_IN_LIMIT_PER_EMAIL,
  SIGN_IN_LIMIT_PER_IP,
} from "./service.js";

const EMAIL_MSG = "Email is not valid. Email addresses should follow the format user@domain.com.";
const clock = { offset: 0, now: () => new Date(Date.now() + clock.offset) };
let t: TestApp;
let websiteId: string;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ seed: true, clock });
  websiteId = (await t.database.db.select().from(s.websites))[0]!.id;
});
afterAll(() => t.close());

type Visitor = Browser & { xsrf?: string };
async function visitor(host = "localhost"): Promise<Visitor> {
  const b = new Browser(t.app, host) as Visitor;
  const ip = `10.2.${Math.floor(++n / 200)}.${n % 200}`;
  const request = b.request.bind(b);
  b.request = (opts) => {
    const headers: Record<string, string> = { ...(opts.headers as Record<string, string>) };
    if (b.xsrf && !("x-xsrf-token" in headers)) headers["x-xsrf-token"] = b.xsrf;
    return request({ remoteAddress: ip, ...opts, headers });
  };
  await b.visit("/");
  return b;
}

const uniqueEmail = () => `user${++n}@example.com`;

/** POST /api/site-users/account: makes an account from `payload`. */
const createAccount = (b: Visitor, payload: object) =>
  b.request({ method: "POST", url: "/api/site-users/account", payload });

async function signUp(b: Visitor, email = uniqueEmail(), password = "s3cret-pass") {
  const res = await createAccount(b, { email, password, firstName: "Ada", lastName: "Lovelace" });
  expect(res.statusCode).toBe(201);
  b.xsrf = res.json().xsrfToken;
  return { email, password, res };
}

function signIn(b: Visitor, email: string, password: string, rememberMe?: boolean) {
  return b.request({
    method: "POST",
    url: "/api/site-users/account/session",
    payload: { email, password, ...(rememberMe === undefined ? {} : { rememberMe }) },
  });
}

function signOut(b: Visitor, query = "") {
  return b.request({ method: "DELETE", url: `/api/site-users/account/session${query}` });
}

describe("sign up", () => {
  it("creates the account, signs in and answers an xsrfToken", async () => {
    const b = await visitor();
    const { email, res } = await signUp(b, "New.Reader@Example.com");
    expect(email).toBe("New.Reader@Example.com");
    expect(res.json().account).toMatchObject({
      email: "new.reader@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
    });
    expect(res.json().xsrfToken).toMatch(/^[\w-]{20,}$/);
    const cookie = res.cookies.find((c) => c.name === SITE_USER_COOKIE) as {
      httpOnly?: boolean;
      sameSite?: string;
    };
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
    const marker = res.cookies.find((c) => c.name === SIGNED_IN_COOKIE) as {
      httpOnly?: boolean;
      value: string;
    };
    expect(marker).toMatchObject({ value: "1" });
    expect(marker.httpOnly).toBeFalsy();
    const [row] = await t.database.db
      .select()
      .from(s.siteUsers)
      .where(eq(s.siteUsers.email, "new.reader@example.com"));
    expect(row!.passwordHash).toMatch(/^\$argon2/);
    expect((await b.request({ url: "/api/site-users/account" })).statusCode).toBe(200);
  });

  it("answers each bad field with its message", async () => {
    const b = await visitor();
    const res = await createAccount(b, { email: "nope", password: "short", firstName: " ", lastName: "" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      email: EMAIL_MSG,
      password: MSG_PASSWORD_TOO_SHORT,
      firstName: "Required",
      lastName: "Required",
    });
    expect(MSG_PASSWORD_TOO_SHORT).toBe("Password must be at least 8 characters.");
    const missing = await createAccount(b, { email: "a@b.co" });
    expect(missing.statusCode).toBe(400);
  });

  it("refuses an address that has an account, and needs the crumb", async () => {
    const b = await visitor();
    const { email } = await signUp(b);
    const again = await createAccount(b, {
      email: email.toUpperCase(),
      password: "another-pass",
      firstName: "A",
      lastName: "B",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MSG_EMAIL_TAKEN);
    const noCrumb = await b.request({
      method: "POST",
      url: "/api/site-users/account",
      withCrumb: false,
      payload: { email: uniqueEmail(), password: "another-pass", firstName: "A", lastName: "B" },
    });
    expect(noCrumb.statusCode).toBe(403);
    expect(noCrumb.json().crumbFail).toBe(true);
  });
});

describe("sign in, the account and sign out", () => {
  it("signs in with email and password and answers an xsrfToken; wrong credentials get a clear 401", async () => {
    const a = await visitor();
    const { email, password } = await signUp(a);
    const b = await visitor();
    const wrong = await signIn(b, email, "wrong-password");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.message).toBe(MSG_INVALID_CREDENTIALS);
    const unknown = await signIn(b, "nobody@example.com", password);
    expect(unknown.json().error.message).toBe(MSG_INVALID_CREDENTIALS);

    const ok = await signIn(b, ` ${email.toUpperCase()} `, password);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().account.email).toBe(email);
    const session = ok.cookies.find((c) => c.name === SITE_USER_COOKIE) as { maxAge?: number };
    expect(session.maxAge).toBeUndefined();
    const remembered = await signIn(await visitor(), email, password, true);
    expect((remembered.cookies.find((c) => c.name === SITE_USER_COOKIE) as { maxAge?: number }).maxAge).toBe(
      30 * 86400,
    );
  });

  it("needs X-XSRF-Token for the account after sign-in, and refuses it after sign-out", async () => {
    const b = await visitor();
    const { email } = await signUp(b);
    const xsrf = b.xsrf!;
    b.xsrf = undefined;
    const none = await b.request({ url: "/api/site-users/account" });
    expect(none.statusCode).toBe(403);
    expect(none.json().error.message).toBe(MSG_XSRF_FAIL);
    const bad = await b.request({ url: "/api/site-users/account", headers: { "x-xsrf-token": "forged" } });
    expect(bad.statusCode).toBe(403);
    b.xsrf = xsrf;
    const ok = await b.request({ url: "/api/site-users/account" });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      account: { email, firstName: "Ada" },
      orders: [],
      addresses: [],
      subscriptions: [],
    });
    expect(ok.headers["cache-control"]).toBe("no-store");

    expect((await signOut(b)).statusCode).toBe(200);
    expect(b.cookies.has(SITE_USER_COOKIE)).toBe(false);
    expect(b.cookies.has(SIGNED_IN_COOKIE)).toBe(false);
    const after = await b.request({ url: "/api/site-users/account" });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.message).toBe(MSG_SIGN_IN_REQUIRED);
    // The old session token is dead even if someone kept the cookie.
    expect(
      await t.database.db
        .select()
        .from(s.siteUserSessions)
        .where(eq(s.siteUserSessions.xsrfTokenHash, hashToken(xsrf))),
    ).toEqual([]);
  });

  it("lists the user's orders with their lines and subscriptions, and nobody else's", async () => {
    const b = await visitor();
    await signUp(b);
    const me = (await b.request({ url: "/api/site-users/account" })).json().account;
    const db = t.database.db;
    await db.insert(s.orders).values([
      {
        id: "o".repeat(24),
        websiteId,
        orderNumber: 9001,
        siteUserId: me.id,
        email: me.email,
        status: "paid",
        currency: "USD",
        subtotalCents: 4800,
        shippingCents: 500,
        grandTotalCents: 5300,
        createdAt: new Date(Date.now() - 86400_000),
      },
      {
        id: "p".repeat(24),
        websiteId,
        orderNumber: 9002,
        siteUserId: "someone-else",
        email: "x@example.com",
        status: "paid",
        currency: "USD",
        subtotalCents: 100,
        grandTotalCents: 100,
      },
    ]);
    await db.insert(s.orderLines).values({
      id: "l".repeat(24),
      websiteId,
      orderId: "o".repeat(24),
      itemId: "item",
      sku: "SKU-1",
      productName: "Stoneware Mug",
      productType: 1,
      attributes: { Color: "Sand" },
      unitPriceCents: 2400,
      quantity: 2,
    });
    await db.insert(s.customerSubscriptions).values({
      id: "c".repeat(24),
      websiteId,
      siteUserId: me.id,
      email: me.email,
      itemId: "item",
      sku: "BEANS",
      priceCents: 1800,
      currency: "USD",
      billingPeriodValue: 1,
      billingPeriodUnit: "MONTH",
      numBillingCycles: 0,
      status: "active",
    });
    const account = (await b.request({ url: "/api/site-users/account" })).json();
    expect(account.orders).toHaveLength(1);
    expect(account.orders[0]).toMatchObject({
      orderNumber: 9001,
      grandTotalCents: 5300,
      currencyCode: "USD",
      lines: [
        { productName: "Stoneware Mug", quantity: 2, unitPriceCents: 2400, attributes: { Color: "Sand" } },
      ],
    });
    expect(account.subscriptions[0]).toMatchObject({
      sku: "BEANS",
      billingPeriod: { value: 1, unit: "MONTH" },
      numBillingCycles: 0,
    });
  });

  it("retries sign-out after a crumb failure with the fresh crumb it was given", async () => {
    const b = await visitor();
    await signUp(b);
    b.cookies.delete("crumb");
    const failed = await b.request({ method: "DELETE", url: "/api/site-users/account/session" });
    expect(failed.statusCode).toBe(403);
    expect(failed.json()).toMatchObject({ crumbFail: true });
    expect(b.crumb).toBeTruthy();
    const retried = await signOut(b);
    expect(retried.statusCode).toBe(200);
    const stale = await visitor();
    const res = await stale.request({
      method: "DELETE",
      url: "/api/site-users/account/session",
      withCrumb: false,
      headers: { "x-csrf-token": "stale-crumb-from-an-old-page" },
    });
    expect(res.json().error.message).toBe(CRUMB_EXPIRED);
  });

  it("keeps sessions to their own website", async () => {
    const b = await visitor();
    await signUp(b);
    const otherSite = "e".repeat(24);
    await insertSite(t, { id: otherSite, identifier: "elsewhere", title: "Elsewhere" });
    const there = new Browser(t.app, "elsewhere.localhost");
    for (const [k, v] of b.cookies) there.cookies.set(k, v);
    const res = await there.request({ url: "/api/site-users/account", headers: { "x-xsrf-token": b.xsrf! } });
    expect(res.statusCode).toBe(401);
  });
});

describe("throttled sign-in attempts", () => {
  it("refuses further attempts for an email after too many failures, even with the right password", async () => {
    const a = await visitor();
    const { email, password } = await signUp(a);
    const b = await visitor();
    for (let i = 0; i < SIGN_IN_LIMIT_PER_EMAIL.max; i++) {
      expect((await signIn(b, email, `wrong-${i}`)).statusCode).toBe(401);
    }
    const blocked = await signIn(await visitor(), email, password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toBe(MSG_TOO_MANY_ATTEMPTS);
    clock.offset = SIGN_IN_LIMIT_PER_EMAIL.windowMs + 1000;
    try {
      expect((await signIn(await visitor(), email, password)).statusCode).toBe(200);
    } finally {
      clock.offset = 0;
    }
  });

  it("refuses further attempts from an address after too many failures across emails", async () => {
    const a = await visitor();
    const { email, password } = await signUp(a);
    const b = await visitor();
    for (let i = 0; i < SIGN_IN_LIMIT_PER_IP.max; i++) {
      expect((await signIn(b, `guess${i}@example.com`, "wrong-pass")).statusCode).toBe(401);
    }
    expect((await signIn(b, email, password)).statusCode).toBe(429);
    expect((await signIn(await visitor(), email, password)).statusCode).toBe(200);
  });
});

describe("password reset", () => {
  async function resetEmail(to: string) {
    const rows = await t.database.db
      .select()
      .from(s.outboundEmails)
      .where(and(eq(s.outboundEmails.toAddress, to), eq(s.outboundEmails.websiteId, websiteId)));
    return rows;
  }

  it("emails an expiring single-use link, sets the new password and ends every session", async () => {
    const a = await visitor();
    const { email, password } = await signUp(a);
    const b = await visitor();
    const asked = await b.request({
      method: "POST",
      url: "/api/site-users/account/password-reset",
      payload: { email },
    });
    expect(asked.statusCode).toBe(200);
    const [mail] = await resetEmail(email);
    expect(mail!.subject).toBe("Reset your password for Atelier Demo");
    const link = /http:\/\/localhost\/account\/reset-password\?token=([\w-]+)/.exec(mail!.textBody);
    expect(link).toBeTruthy();
    const token = link![1]!;

    const short = await b.request({
      method: "POST",
      url: "/api/site-users/account/password-reset/confirm",
      payload: { token, password: "short" },
    });
    expect(short.json().error.message).toBe(MSG_PASSWORD_TOO_SHORT);
    const done = await b.request({
      method: "POST",
      url: "/api/site-users/account/password-reset/confirm",
      payload: { token, password: "brand-new-pass" },
    });
    expect(done.statusCode).toBe(200);
    expect((await a.request({ url: "/api/site-users/account" })).statusCode).toBe(401);
    expect((await signIn(await visitor(), email, password)).statusCode).toBe(401);
    expect((await signIn(await visitor(), email, "brand-new-pass")).statusCode).toBe(200);
    const reused = await b.request({
      method: "POST",
      url: "/api/site-users/account/password-reset/confirm",
      payload: { token, password: "another-new-pass" },
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.message).toBe(MSG_RESET_INVALID);
  });

  it("refuses expired and forged tokens, and says nothing about unknown addresses", async () => {
    const a = await visitor();
    const { email } = await signUp(a);
    await a.request({ method: "POST", url: "/api/site-users/account/password-reset", payload: { email } });
    const token = /token=([\w-]+)/.exec((await resetEmail(email))[0]!.textBody)![1]!;
    clock.offset = RESET_TOKEN_MINUTES * 60_000 + 1000;
    try {
      const expired = await a.request({
        method: "POST",
        url: "/api/site-users/account/password-reset/confirm",
        payload: { token, password: "brand-new-pass" },
      });
      expect(expired.json().error.message).toBe(MSG_RESET_INVALID);
    } finally {
      clock.offset = 0;
    }
    const forged = await a.request({
      method: "POST",
      url: "/api/site-users/account/password-reset/confirm",
      payload: { token: "forged", password: "brand-new-pass" },
    });
    expect(forged.statusCode).toBe(400);
    const unknown = await a.request({
      method: "POST",
      url: "/api/site-users/account/password-reset",
      payload: { email: "nobody-here@example.com" },
    });
    expect(unknown.statusCode).toBe(200);
    expect(await resetEmail("nobody-here@example.com")).toEqual([]);
    const invalid = await a.request({
      method: "POST",
      url: "/api/site-users/account/password-reset",
      payload: { email: "nope" },
    });
    expect(invalid.json().error.message).toBe(EMAIL_MSG);
  });
});

describe("addresses", () => {
  it("adds, changes and removes addresses, with 'Required' for missing parts", async () => {
    const b = await visitor();
    await signUp(b);
    const base = "/api/site-users/account/addresses";
    const bad = await b.request({ method: "POST", url: base, payload: { firstName: "Ada" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      lastName: "Required",
      address1: "Required",
      city: "Required",
      postalCode: "Required",
      country: "Required",
    });
    const home = {
      firstName: "Ada",
      lastName: "Lovelace",
      address1: "12 St James's Square",
      city: "London",
      postalCode: "SW1Y 4JH",
      country: "GB",
    };
    const added = await b.request({ method: "POST", url: base, payload: home });
    expect(added.statusCode).toBe(201);
    const [address] = added.json().addresses;
    expect(address).toMatchObject({ ...home, address2: "", state: "", phone: "" });
    const changed = await b.request({
      method: "PUT",
      url: `${base}/${address.id}`,
      payload: { ...home, city: "Marylebone" },
    });
    expect(changed.json().addresses[0].city).toBe("Marylebone");
    expect((await b.request({ url: "/api/site-users/account" })).json().addresses[0].city).toBe("Marylebone");
    expect((await b.request({ method: "DELETE", url: `${base}/${address.id}` })).json().addresses).toEqual(
      [],
    );
    expect((await b.request({ method: "DELETE", url: `${base}/${address.id}` })).statusCode).toBe(404);
    const anonymous = await visitor();
    expect((await anonymous.request({ method: "POST", url: base, payload: home })).statusCode).toBe(401);
  });
});

describe("the cart at sign-in and sign-out", () => {
  let itemId: string;
  let skus: string[];
  beforeAll(async () => {
    const res = await t.app.inject({
      url: "/shop/p/linen-work-apron?format=json",
      headers: { host: "localhost" },
    });
    const item = res.json().item;
    itemId = item.id;
    skus = item.structuredContent.variants.map((v: { sku: string }) => v.sku);
  });

  async function add(b: Visitor, sku: string, quantity = 1) {
    const res = await b.request({
      method: "POST",
      url: "/api/commerce/shopping-cart/entries",
      payload: { itemId, sku, quantity },
    });
    expect(res.statusCode).toBe(200);
  }
  async function lines(b: Visitor) {
    const cart = (await b.request({ url: "/api/commerce/shopping-cart" })).json();
    return Object.fromEntries(
      cart.entries.map((e: { sku: string; quantity: number }) => [e.sku, e.quantity]),
    );
  }

  it("merges the anonymous cart into the user's saved cart, and keeps a copy at sign-out with cloneCart", async () => {
    const first = await visitor();
    const { email, password } = await signUp(first);
    await add(first, skus[0]!, 2);
    await add(first, skus[1]!, 1);
    // Signing out without cloneCart: the cart stays with the user, the browser forgets it.
    expect((await signOut(first, "?cloneCart=false")).statusCode).toBe(200);
    expect(first.cookies.has(CART_COOKIE)).toBe(false);
    expect(await lines(first)).toEqual({});

    const second = await visitor();
    await add(second, skus[0]!, 1);
    const cookieBefore = second.cookies.get(CART_COOKIE);
    expect((await signIn(second, email, password)).statusCode).toBe(200);
    expect(await lines(second)).toEqual({ [skus[0]!]: 3, [skus[1]!]: 1 });
    expect(second.cookies.get(CART_COOKIE)).toBe(cookieBefore);
    const owned = await t.database.db
      .select()
      .from(s.carts)
      .where(eq(s.carts.tokenHash, hashToken(cookieBefore!)));
    expect(owned[0]!.siteUserId).toBeTruthy();

    expect((await signOut(second, "?cloneCart=true")).statusCode).toBe(200);
    expect(second.cookies.get(CART_COOKIE)).not.toBe(cookieBefore);
    expect(await lines(second)).toEqual({ [skus[0]!]: 3, [skus[1]!]: 1 });

    // A browser without a cart gets the user's saved cart back at sign-in.
    const third = await visitor();
    expect((await signIn(third, email, password)).statusCode).toBe(200);
    expect(third.cookies.get(CART_COOKIE)).toBeTruthy();
    expect(await lines(third)).toEqual({ [skus[0]!]: 3, [skus[1]!]: 1 });
  });

  it("lists an order placed from the user's cart in the account", async () => {
    const b = await visitor();
    await add(b, skus[0]!, 1);
    const { email } = await signUp(b);
    const placed = await b.request({
      method: "POST",
      url: "/api/commerce/orders",
      payload: orderBody({ email, idempotencyKey: `site-user-order-${n}` }),
    });
    expect(placed.statusCode).toBe(201);
    const account = (await b.request({ url: "/api/site-users/account" })).json();
    expect(account.orders).toHaveLength(1);
    expect(account.orders[0].orderNumber).toBe(placed.json().order.orderNumber);
    expect(account.orders[0].lines[0].sku).toBe(skus[0]);
  });

  it("never merges another user's cart left in the browser", async () => {
    const b = await visitor();
    await signUp(b);
    await add(b, skus[0]!, 1);
    // Sign out keeping the cart cookie as it was (an old client that ignores the answer's cookies).
    const cartCookie = b.cookies.get(CART_COOKIE)!;
    await signOut(b);
    b.cookies.set(CART_COOKIE, cartCookie);
    const other = await visitor();
    const { email, password } = await signUp(other);
    await signOut(other);
    for (const [k, v] of other.cookies) b.cookies.set(k, v);
    b.cookies.set(CART_COOKIE, cartCookie);
    expect((await signIn(b, email, password)).statusCode).toBe(200);
    expect(await lines(b)).toEqual({});
  });
});
