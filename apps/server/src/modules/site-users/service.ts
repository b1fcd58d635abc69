/**
 * Site users: visitor accounts of one website (SPEC §3 site user login, §6, §7). Sign-up, sign-in
 * with an XSRF token the browser sends back as `X-XSRF-Token`, sign-out, the account (profile,
 * orders, addresses, subscriptions), throttled sign-in attempts, and password reset by an
 * emailed, expiring, single-use token.
 */
import {
  ADDRESS_FIELDS,
  type AccountOrder,
  type AccountSubscription,
  REQUIRED_ADDRESS_FIELDS,
  type SavedAddress,
} from "@atelier/commerce";
import { timingSafeEqual } from "node:crypto";
import { emailInvalidMessage, isValidEmail, MSG_REQUIRED } from "@atelier/forms";
import { type SQL, and, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import {
  carts,
  customerSubscriptions,
  domains,
  orders,
  passwordResetTokens,
  siteUserSessions,
  siteUsers,
} from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { ApiError, badRequest } from "../../http/errors.js";
import { DAY_MS } from "../../lib/clock.js";
import { normalizeEmail } from "../../lib/email.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { usableTokenWhere } from "../../lib/single-use-tokens.js";
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from "../../lib/passwords.js";
import { emailBrandOf, renderEmail } from "../email/layout.js";
import { queueEmail } from "../email/service.js";
import { linesOfOrders } from "../orders/service.js";
import { countEvent, peekEvents, resetEvents, type Window } from "../forms/rate-limit.js";
import { type Website, siteBaseUrl } from "../sites/service.js";
import { mergeCartAtSignIn, releaseCartAtSignOut } from "./cart-merge.js";
import { recordEvent } from "../events/service.js";

export type SiteUser = typeof siteUsers.$inferSelect;
type SiteUserSession = typeof siteUserSessions.$inferSelect;

/** A browser-session sign-in lasts at most this long; "remember me" keeps it for 30 days. */
const SESSION_HOURS = 24;
export const REMEMBER_ME_DAYS = 30;
/** Failed sign-ins allowed per address (email) and per visitor address (IP) in 15 minutes. */
export const SIGN_IN_LIMIT_PER_EMAIL: Window = { max: 5, windowMs: 15 * 60_000 };
export const SIGN_IN_LIMIT_PER_IP: Window = { max: 20, windowMs: 15 * 60_000 };
/** Sign-ups and reset requests per visitor address per hour. */
const SIGN_UP_LIMIT: Window = { max: 10, windowMs: 60 * 60_000 };
const RESET_LIMIT: Window = { max: 5, windowMs: 60 * 60_000 };
export const RESET_TOKEN_MINUTES = 60;
const MAX_ADDRESSES = 20;

export const MSG_INVALID_CREDENTIALS = "The email or password is incorrect.";
export const MSG_TOO_MANY_ATTEMPTS = "Too many sign-in attempts. Please wait a few minutes and try again.";
const MSG_TOO_MANY_REQUESTS = "Too many requests. Please wait a while and try again.";
export const MSG_EMAIL_TAKEN = "An account with this email already exists. Sign in instead.";
export const MSG_PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
const MSG_PASSWORD_TOO_LONG = "Password must be at most 200 characters.";
export const MSG_RESET_INVALID =
  "This password reset link is invalid or has expired. Please ask for a new one.";
export const MSG_SIGN_IN_REQUIRED = "Please sign in to continue.";
export const MSG_XSRF_FAIL = "Your session has expired. Please sign in again.";
const MSG_TOO_MANY_ADDRESSES = `You can keep at most ${MAX_ADDRESSES} addresses.`;
const MSG_NO_SUCH_ADDRESS = "That address is no longer in your account.";

interface AccountJson {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  createdOn: number;
}

export function accountJson(u: SiteUser): AccountJson {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    createdOn: u.createdAt.getTime(),
  };
}

function tooMany(message: string, retryAfterSeconds: number) {
  return new ApiError(429, "rate_limited", message, undefined, { retryAfterSeconds });
}

async function limit(deps: Deps, key: string, window: Window, message: string) {
  const hit = await countEvent(deps.db, key, window, deps.clock.now());
  if (!hit.allowed) throw tooMany(message, hit.retryAfterSeconds);
}

function checkPassword(password: string, fields: Record<string, string>) {
  if (password.length < MIN_PASSWORD_LENGTH) fields.password = MSG_PASSWORD_TOO_SHORT;
  else if (password.length > 200) fields.password = MSG_PASSWORD_TOO_LONG;
}

interface SignUpInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export interface SessionOpened {
  user: SiteUser;
  token: string;
  xsrfToken: string;
  rememberMe: boolean;
  expiresAt: Date;
  /** The cart cookie to set: a token, "" to clear it, undefined to leave it. */
  cartToken?: string;
}

async function openSession(
  tx: Tx,
  deps: Deps,
  user: SiteUser,
  rememberMe: boolean,
  cartCookie: string | undefined,
): Promise<SessionOpened> {
  const now = deps.clock.now();
  const token = newToken();
  const xsrfToken = newToken(24);
  const expiresAt = new Date(
    now.getTime() + (rememberMe ? REMEMBER_ME_DAYS * DAY_MS : SESSION_HOURS * 3600_000),
  );
  await tx.insert(siteUserSessions).values({
    id: newId(),
    websiteId: user.websiteId,
    siteUserId: user.id,
    tokenHash: hashToken(token),
    xsrfTokenHash: hashToken(xsrfToken),
    rememberMe,
    createdAt: now,
    expiresAt,
  });
  const cart = await mergeCartAtSignIn(tx, user.websiteId, user.id, cartCookie, now);
  return { user, token, xsrfToken, rememberMe, expiresAt, cartToken: cart.token };
}

/** `POST /api/site-users/account`: a new site user, signed in at once. */
export async function signUp(
  deps: Deps,
  websiteId: string,
  input: SignUpInput,
  ip: string,
  cartCookie?: string,
): Promise<SessionOpened> {
  const email = normalizeEmail(input.email);
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  const fields: Record<string, string> = {};
  if (!email) fields.email = MSG_REQUIRED;
  else if (!isValidEmail(email)) fields.email = emailInvalidMessage();
  checkPassword(input.password, fields);
  if (!firstName) fields.firstName = MSG_REQUIRED;
  if (!lastName) fields.lastName = MSG_REQUIRED;
  if (Object.keys(fields).length) throw badRequest("Please correct the highlighted fields.", fields);
  await limit(deps, `site-user:sign-up:${websiteId}:${ip}`, SIGN_UP_LIMIT, MSG_TOO_MANY_REQUESTS);
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction(async (tx) => {
    const [user] = await tx
      .insert(siteUsers)
      .values({
        id: newId(),
        websiteId,
        email,
        passwordHash,
        firstName,
        lastName,
        createdAt: deps.clock.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!user) throw new ApiError(409, "email_taken", MSG_EMAIL_TAKEN, { email: MSG_EMAIL_TAKEN });
    await recordEvent(tx, {
      websiteId,
      type: "site_user.created",
      entity: { type: "site_user", id: user.id },
      actor: { type: "site_user", id: user.id },
    });
    return openSession(tx, deps, user, false, cartCookie);
  });
}

/** A hash to verify against when the address is unknown, so both cases take the same time. */
let decoyHash: Promise<string> | undefined;

/**
 * `POST /api/site-users/account/session`: checks the password, throttling failed attempts per
 * email and per visitor address, and opens a session. The anonymous cart joins the user's.
 */
export async function signIn(
  deps: Deps,
  websiteId: string,
  input: { email: string; password: string; rememberMe?: boolean },
  ip: string,
  cartCookie?: string,
): Promise<SessionOpened> {
  const email = normalizeEmail(input.email);
  const now = deps.clock.now();
  const emailKey = `site-user:sign-in:${websiteId}:email:${email}`;
  const ipKey = `site-user:sign-in:${websiteId}:ip:${ip}`;
  const [byEmail, byIp] = await Promise.all([
    peekEvents(deps.db, emailKey, SIGN_IN_LIMIT_PER_EMAIL, now),
    peekEvents(deps.db, ipKey, SIGN_IN_LIMIT_PER_IP, now),
  ]);
  for (const [seen, window] of [
    [byEmail, SIGN_IN_LIMIT_PER_EMAIL],
    [byIp, SIGN_IN_LIMIT_PER_IP],
  ] as const) {
    if (seen.count >= window.max) throw tooMany(MSG_TOO_MANY_ATTEMPTS, seen.retryAfterSeconds);
  }
  const [user] = await deps.db
    .select()
    .from(siteUsers)
    .where(and(eq(siteUsers.websiteId, websiteId), eq(siteUsers.email, email)));
  decoyHash ??= hashPassword("decoy password for unknown addresses");
  // An unknown address costs the same hash check as a known one.
  const matches = await verifyPassword(user?.passwordHash ?? (await decoyHash), input.password);
  const ok = Boolean(user) && matches;
  if (!user || !ok) {
    await countEvent(deps.db, emailKey, SIGN_IN_LIMIT_PER_EMAIL, now);
    await countEvent(deps.db, ipKey, SIGN_IN_LIMIT_PER_IP, now);
    throw new ApiError(401, "invalid_credentials", MSG_INVALID_CREDENTIALS);
  }
  await resetEvents(deps.db, emailKey);
  return deps.db.transaction((tx) => openSession(tx, deps, user, input.rememberMe === true, cartCookie));
}

/** The live session a cookie names on a website, with its user. */
export async function sessionOf(
  db: Db,
  websiteId: string,
  token: string | undefined,
  now: Date,
): Promise<{ session: SiteUserSession; user: SiteUser } | undefined> {
  const live = liveSessionWhere(websiteId, token, now);
  if (!live) return undefined;
  const [row] = await db
    .select({ session: siteUserSessions, user: siteUsers })
    .from(siteUserSessions)
    .innerJoin(siteUsers, eq(siteUsers.id, siteUserSessions.siteUserId))
    .where(live);
  return row;
}

/** The condition for the live session a cookie names on a website; undefined for a token that cannot be one. */
export function liveSessionWhere(websiteId: string, token: string | undefined, now: Date): SQL | undefined {
  if (!token || token.length > 200) return undefined;
  return and(
    eq(siteUserSessions.tokenHash, hashToken(token)),
    eq(siteUserSessions.websiteId, websiteId),
    gt(siteUserSessions.expiresAt, now),
  );
}

/** Whether the `X-XSRF-Token` sent matches the session's (compared in constant time). */
export function xsrfMatches(session: SiteUserSession, sent: unknown): boolean {
  if (typeof sent !== "string" || !sent || sent.length > 200) return false;
  const a = Buffer.from(hashToken(sent));
  const b = Buffer.from(session.xsrfTokenHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `DELETE /api/site-users/account/session`: ends the session; the cart stays with the user. */
export async function signOut(
  deps: Deps,
  websiteId: string,
  token: string | undefined,
  cloneCart: boolean,
  cartCookie: string | undefined,
): Promise<{ cartToken?: string }> {
  const found = await sessionOf(deps.db, websiteId, token, deps.clock.now());
  if (!found) return cartCookie && !cloneCart ? { cartToken: "" } : {};
  return deps.db.transaction(async (tx) => {
    await tx.delete(siteUserSessions).where(eq(siteUserSessions.id, found.session.id));
    const cart = await releaseCartAtSignOut(
      tx,
      websiteId,
      found.user.id,
      cartCookie,
      cloneCart,
      deps.clock.now(),
    );
    return { cartToken: cart.token };
  });
}

// ─── The account ─────────────────────────────────────────────────────────────────────────────

type Address = SavedAddress;

function addressOf(raw: Record<string, string>): Address {
  const a = { id: String(raw.id ?? "") } as Address;
  for (const f of ADDRESS_FIELDS) a[f] = String(raw[f] ?? "");
  return a;
}

/** Checks and trims an address; 'Required' for each missing required part. */
export function cleanAddress(
  input: Partial<Record<(typeof ADDRESS_FIELDS)[number], string>>,
): Omit<Address, "id"> {
  const out = {} as Omit<Address, "id">;
  const fields: Record<string, string> = {};
  for (const f of ADDRESS_FIELDS) out[f] = (input[f] ?? "").trim().slice(0, 200);
  for (const f of REQUIRED_ADDRESS_FIELDS) if (!out[f]) fields[f] = MSG_REQUIRED;
  if (Object.keys(fields).length) throw badRequest("Please correct the highlighted fields.", fields);
  return out;
}

/** `GET /api/site-users/account`: the profile, orders (newest first), addresses and subscriptions. */
export async function accountOf(db: Db, user: SiteUser) {
  // The user's orders: those recorded with the user, and those placed from a cart of the user
  // (carts become the user's at sign-in, see cart-merge.ts).
  const userCarts = db.select({ id: carts.id }).from(carts).where(eq(carts.siteUserId, user.id));
  const orderRows = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.websiteId, user.websiteId),
        or(eq(orders.siteUserId, user.id), inArray(orders.cartId, userCarts)),
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(200);
  const lines = await linesOfOrders(
    db,
    orderRows.map((o) => o.id),
  );
  const subs = await db
    .select()
    .from(customerSubscriptions)
    .where(
      and(eq(customerSubscriptions.websiteId, user.websiteId), eq(customerSubscriptions.siteUserId, user.id)),
    )
    .orderBy(desc(customerSubscriptions.createdAt));
  return {
    account: accountJson(user),
    orders: orderRows.map(
      (o): AccountOrder => ({
        id: o.id,
        orderNumber: o.orderNumber,
        createdOn: o.createdAt.getTime(),
        status: o.status,
        currencyCode: o.currency,
        subtotalCents: o.subtotalCents,
        taxCents: o.taxCents,
        shippingCents: o.shippingCents,
        discountCents: o.discountCents,
        grandTotalCents: o.grandTotalCents,
        refundedCents: o.refundedCents,
        trackingNumber: o.trackingNumber,
        lines: lines
          .filter((l) => l.orderId === o.id)
          .map((l) => ({
            productName: l.productName,
            sku: l.sku,
            quantity: l.quantity,
            unitPriceCents: l.unitPriceCents,
            attributes: l.attributes,
          })),
      }),
    ),
    addresses: user.addresses.map(addressOf),
    subscriptions: subs.map(
      (s): AccountSubscription => ({
        id: s.id,
        sku: s.sku,
        quantity: s.quantity,
        priceCents: s.priceCents,
        currencyCode: s.currency,
        billingPeriod: { value: s.billingPeriodValue, unit: s.billingPeriodUnit },
        numBillingCycles: s.numBillingCycles,
        cyclesBilled: s.cyclesBilled,
        status: s.status,
        nextBillingOn: s.nextBillingAt ? s.nextBillingAt.getTime() : null,
        createdOn: s.createdAt.getTime(),
      }),
    ),
  };
}

/** Changes a user's addresses in one locked read-modify-write. */
async function changeAddresses(
  db: Db,
  userId: string,
  change: (list: Address[]) => Address[],
): Promise<Address[]> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(siteUsers).where(eq(siteUsers.id, userId)).for("update");
    const next = change((row?.addresses ?? []).map(addressOf));
    await tx
      .update(siteUsers)
      .set({ addresses: next as unknown as Record<string, string>[] })
      .where(eq(siteUsers.id, userId));
    return next;
  });
}

export function addAddress(db: Db, userId: string, input: Omit<Address, "id">): Promise<Address[]> {
  return changeAddresses(db, userId, (list) => {
    if (list.length >= MAX_ADDRESSES) throw badRequest(MSG_TOO_MANY_ADDRESSES);
    return [...list, { id: newId(), ...input }];
  });
}

export function updateAddress(
  db: Db,
  userId: string,
  id: string,
  input: Omit<Address, "id">,
): Promise<Address[]> {
  return changeAddresses(db, userId, (list) => {
    if (!list.some((a) => a.id === id)) throw new ApiError(404, "not_found", MSG_NO_SUCH_ADDRESS);
    return list.map((a) => (a.id === id ? { id, ...input } : a));
  });
}

export function removeAddress(db: Db, userId: string, id: string): Promise<Address[]> {
  return changeAddresses(db, userId, (list) => {
    if (!list.some((a) => a.id === id)) throw new ApiError(404, "not_found", MSG_NO_SUCH_ADDRESS);
    return list.filter((a) => a.id !== id);
  });
}

// ─── Password reset ──────────────────────────────────────────────────────────────────────────

/**
 * `POST /api/site-users/account/password-reset`: emails a reset link when the address has an
 * account. The answer is the same either way, so nobody learns who has an account.
 */
export async function requestPasswordReset(
  deps: Deps,
  site: Website,
  email: string,
  ip: string,
): Promise<void> {
  await limit(deps, `site-user:reset:${site.id}:${ip}`, RESET_LIMIT, MSG_TOO_MANY_REQUESTS);
  const address = normalizeEmail(email);
  if (!isValidEmail(address)) throw badRequest(emailInvalidMessage(), { email: emailInvalidMessage() });
  await limit(deps, `site-user:reset:${site.id}:email:${address}`, RESET_LIMIT, MSG_TOO_MANY_REQUESTS);
  const [user] = await deps.db
    .select()
    .from(siteUsers)
    .where(and(eq(siteUsers.websiteId, site.id), eq(siteUsers.email, address)));
  if (!user) return;
  const token = newToken();
  const now = deps.clock.now();
  // The site's own address, never the request's Host header, which a sender controls.
  const link = `${siteBaseUrl(site, deps.config.publicUrl)}/account/reset-password?token=${token}`;
  await deps.db.transaction(async (tx) => {
    await tx.insert(passwordResetTokens).values({
      tokenHash: hashToken(token),
      websiteId: site.id,
      siteUserId: user.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + RESET_TOKEN_MINUTES * 60_000),
    });
    await queueEmail(tx, deps.config, {
      websiteId: site.id,
      to: user.email,
      fromName: site.title,
      subject: `Reset your password for ${site.title}`,
      text: `Hello ${user.firstName},\n\nSomeone asked to reset the password of your account at ${site.title}. To choose a new password, open this link within ${RESET_TOKEN_MINUTES} minutes:\n\n${link}\n\nIf it was not you, ignore this email: your password stays as it is.\n`,
      html: renderEmail(await emailBrandOf(tx, site, new URL(link).origin), {
        blocks: [
          { type: "text", text: `Hello ${user.firstName},` },
          {
            type: "text",
            text: `Someone asked to reset the password of your account at ${site.title}. To choose a new password, open this link within ${RESET_TOKEN_MINUTES} minutes:`,
          },
          { type: "button", text: "Choose a new password", url: link },
          { type: "text", text: "If it was not you, ignore this email: your password stays as it is." },
        ],
      }).html,
    });
  });
}

/**
 * `POST /api/site-users/account/password-reset/confirm`: sets a new password with a live reset
 * token, uses the token up and ends every session of the user.
 */
export async function resetPassword(
  deps: Deps,
  websiteId: string,
  token: string,
  password: string,
): Promise<void> {
  const fields: Record<string, string> = {};
  checkPassword(password, fields);
  if (Object.keys(fields).length) throw badRequest(fields.password!, fields);
  const passwordHash = await hashPassword(password);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(usableTokenWhere(passwordResetTokens, passwordResetTokens.tokenHash, token, websiteId, now))
      .returning({ siteUserId: passwordResetTokens.siteUserId });
    if (!used) throw new ApiError(400, "reset_token_invalid", MSG_RESET_INVALID);
    await tx.update(siteUsers).set({ passwordHash }).where(eq(siteUsers.id, used.siteUserId));
    await tx.delete(siteUserSessions).where(eq(siteUserSessions.siteUserId, used.siteUserId));
    // Other reset links of the user stop working too.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.siteUserId, used.siteUserId), isNull(passwordResetTokens.usedAt)));
  });
}

/** Housekeeping: expired sessions and reset tokens go. */
export async function pruneSiteUserSessions(db: Db, now: Date): Promise<void> {
  await db
    .delete(siteUserSessions)
    .where(sql`${siteUserSessions.expiresAt} < ${now.toISOString()}::timestamptz`);
  await db
    .delete(passwordResetTokens)
    .where(
      sql`${passwordResetTokens.expiresAt} < ${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz`,
    );
}
