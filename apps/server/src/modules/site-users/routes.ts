import { ADDRESS_FIELDS } from "@atelier/commerce";
import { Type } from "@sinclair/typebox";
import { StringParams } from "../../http/schemas.js";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { clearCookie, setSessionCookie } from "../../http/cookies.js";
import { ensureCrumb, requireCrumb } from "../../http/crumb.js";
import { ApiError } from "../../http/errors.js";
import { pathParam, routeGroup } from "../../http/site-routes.js";
import { CART_COOKIE, CART_PRESENT_COOKIE, keepCartCookie } from "../cart/routes.js";
import { registerHousekeeping } from "../jobs/plugin.js";
import { type Website, siteAtHost } from "../sites/service.js";
import {
  MSG_SIGN_IN_REQUIRED,
  MSG_XSRF_FAIL,
  REMEMBER_ME_DAYS,
  type SessionOpened,
  type SiteUser,
  accountJson,
  accountOf,
  addAddress,
  cleanAddress,
  pruneSiteUserSessions,
  removeAddress,
  requestPasswordReset,
  resetPassword,
  sessionOf,
  signIn,
  signOut,
  signUp,
  updateAddress,
  xsrfMatches,
} from "./service.js";

/** HttpOnly cookie of the site user's session (the page renderer reads the same name). */
export const SITE_USER_COOKIE = "atelier_site_user";
/**
 * Readable companion of the session cookie: tells the storefront a site user is signed in (the
 * cart pill loads the cart at start, the account island knows which page to show). No secret.
 */
export const SIGNED_IN_COOKIE = "atelier_signed_in";

registerHousekeeping("site-user-sessions", (deps) => pruneSiteUserSessions(deps.db, deps.clock.now()));

declare module "fastify" {
  interface FastifyRequest {
    siteUser?: SiteUser;
    website?: Website;
  }
}

/** The email and password fields of the sign-up, sign-in and password calls. */
const Email = Type.String({ maxLength: 256 });
const Password = Type.String({ maxLength: 1024 });
const Account = Type.Object({
  id: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  createdOn: Type.Number(),
});
const SessionAnswer = Type.Object({ xsrfToken: Type.String(), account: Account });
const AddressInput = Type.Object(
  Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, Type.Optional(Type.String({ maxLength: 200 }))])),
  { additionalProperties: false },
);
const Address = Type.Object({
  id: Type.String(),
  ...Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, Type.String()])),
});
const Addresses = Type.Object({ addresses: Type.Array(Address) });
const Order = Type.Object({
  id: Type.String(),
  orderNumber: Type.Integer(),
  createdOn: Type.Number(),
  status: Type.String(),
  currencyCode: Type.String(),
  subtotalCents: Type.Integer(),
  taxCents: Type.Integer(),
  shippingCents: Type.Integer(),
  discountCents: Type.Integer(),
  grandTotalCents: Type.Integer(),
  refundedCents: Type.Integer(),
  trackingNumber: Type.Union([Type.String(), Type.Null()]),
  lines: Type.Array(
    Type.Object({
      productName: Type.String(),
      sku: Type.String(),
      quantity: Type.Integer(),
      unitPriceCents: Type.Integer(),
      attributes: Type.Record(Type.String(), Type.String()),
    }),
  ),
});
const Subscription = Type.Object({
  id: Type.String(),
  sku: Type.String(),
  quantity: Type.Integer(),
  priceCents: Type.Integer(),
  currencyCode: Type.String(),
  billingPeriod: Type.Object({ value: Type.Integer(), unit: Type.String() }),
  numBillingCycles: Type.Integer(),
  cyclesBilled: Type.Integer(),
  status: Type.String(),
  nextBillingOn: Type.Union([Type.Number(), Type.Null()]),
  createdOn: Type.Number(),
});
const Ok = Type.Object({ ok: Type.Boolean() });
const XsrfHeader = Type.Object({ "x-xsrf-token": Type.Optional(Type.String({ maxLength: 200 })) });

async function siteOf(request: FastifyRequest): Promise<Website> {
  const site = await siteAtHost(request.server.deps.db, request.headers.host);
  request.website = site;
  return site;
}

/** preHandler: a live site-user session and its XSRF token in `X-XSRF-Token` (SPEC §6). */
async function requireSiteUser(request: FastifyRequest): Promise<void> {
  const site = await siteOf(request);
  const { db, clock } = request.server.deps;
  const found = await sessionOf(db, site.id, request.cookies[SITE_USER_COOKIE], clock.now());
  if (!found) throw new ApiError(401, "sign_in_required", MSG_SIGN_IN_REQUIRED);
  if (!xsrfMatches(found.session, request.headers["x-xsrf-token"]))
    throw new ApiError(403, "xsrf_fail", MSG_XSRF_FAIL);
  request.siteUser = found.user;
}

/**
 * The crumb check of sign-out: on failure a fresh crumb cookie goes out with the 403, so the
 * client's one retry (SPEC §7: retried once if the answer has crumbFail) can succeed.
 */
async function requireCrumbOrRenew(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  try {
    await requireCrumb(request);
  } catch (err) {
    ensureCrumb(request, reply);
    throw err;
  }
}

const AddressParams = StringParams("addressId");

/** Visitor accounts (SPEC §7 site-user calls), the account's addresses and password reset. */
export const siteUserRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.deps;
  const secure = config.publicUrl.startsWith("https:");
  const account = routeGroup(app, {
    tags: ["site users"],
    prefix: "/api/site-users/account",
    read: requireSiteUser,
    write: [requireCrumb, requireSiteUser],
  });

  function setCartCookie(reply: FastifyReply, token: string | undefined) {
    if (token === undefined) return;
    if (token === "") {
      clearCookie(reply, CART_COOKIE);
      clearCookie(reply, CART_PRESENT_COOKIE);
      return;
    }
    keepCartCookie(reply, token, secure);
  }

  function signedIn(reply: FastifyReply, opened: SessionOpened) {
    setSessionCookie(
      reply,
      SITE_USER_COOKIE,
      opened.token,
      secure,
      opened.rememberMe ? { maxAge: REMEMBER_ME_DAYS * 86400 } : {},
    );
    reply.setCookie(SIGNED_IN_COOKIE, "1", {
      path: "/",
      sameSite: "lax",
      httpOnly: false,
      secure,
      ...(opened.rememberMe ? { maxAge: REMEMBER_ME_DAYS * 86400 } : {}),
    });
    setCartCookie(reply, opened.cartToken);
    reply.header("cache-control", "no-store");
    return { xsrfToken: opened.xsrfToken, account: accountJson(opened.user) };
  }

  app.post(
    "/api/site-users/account",
    {
      preHandler: requireCrumb,
      schema: {
        tags: ["site users"],
        summary: "Signs a visitor up (password of 8 or more characters) and signs them in",
        body: Type.Object(
          {
            email: Email,
            password: Password,
            firstName: Type.String({ maxLength: 100 }),
            lastName: Type.String({ maxLength: 100 }),
          },
          { additionalProperties: false },
        ),
        response: { 201: SessionAnswer },
      },
    },
    async (request, reply) => {
      const site = await siteOf(request);
      const body = request.body as { email: string; password: string; firstName: string; lastName: string };
      const opened = await signUp(app.deps, site.id, body, request.ip, request.cookies[CART_COOKIE]);
      return reply.status(201).send(signedIn(reply, opened));
    },
  );

  app.post(
    "/api/site-users/account/session",
    {
      preHandler: requireCrumb,
      schema: {
        tags: ["site users"],
        summary: "Signs a site user in; answers the xsrfToken to send as X-XSRF-Token afterwards",
        body: Type.Object(
          {
            email: Email,
            password: Password,
            rememberMe: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 200: SessionAnswer },
      },
    },
    async (request, reply) => {
      const site = await siteOf(request);
      const body = request.body as { email: string; password: string; rememberMe?: boolean };
      const opened = await signIn(app.deps, site.id, body, request.ip, request.cookies[CART_COOKIE]);
      return signedIn(reply, opened);
    },
  );

  app.delete(
    "/api/site-users/account/session",
    {
      preHandler: requireCrumbOrRenew,
      schema: {
        tags: ["site users"],
        summary: "Signs out; with cloneCart=true the visitor keeps a copy of the cart",
        querystring: Type.Object({
          cloneCart: Type.Optional(Type.Boolean()),
          crumb: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: Ok },
      },
    },
    async (request, reply) => {
      const site = await siteOf(request);
      const { cloneCart } = request.query as { cloneCart?: boolean };
      const out = await signOut(
        app.deps,
        site.id,
        request.cookies[SITE_USER_COOKIE],
        cloneCart === true,
        request.cookies[CART_COOKIE],
      );
      clearCookie(reply, SITE_USER_COOKIE);
      clearCookie(reply, SIGNED_IN_COOKIE);
      setCartCookie(reply, out.cartToken);
      return { ok: true };
    },
  );

  account.get(
    "",
    {
      summary: "The signed-in site user's profile, orders, addresses and subscriptions",
      headers: XsrfHeader,
      response: {
        200: Type.Object({
          account: Account,
          orders: Type.Array(Order),
          addresses: Type.Array(Address),
          subscriptions: Type.Array(Subscription),
        }),
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return accountOf(db, request.siteUser!);
    },
  );

  account.post(
    "/addresses",
    {
      summary: "Adds an address to the account",
      headers: XsrfHeader,
      body: AddressInput,
      response: { 201: Addresses },
    },
    async (request, reply) => {
      const addresses = await addAddress(
        db,
        request.siteUser!.id,
        cleanAddress(request.body as Record<string, string>),
      );
      return reply.status(201).send({ addresses });
    },
  );

  account.put(
    "/addresses/:addressId",
    {
      summary: "Changes an address of the account",
      headers: XsrfHeader,
      params: AddressParams,
      body: AddressInput,
      response: { 200: Addresses },
    },
    async (request) => {
      const input = cleanAddress(request.body as Record<string, string>);
      return {
        addresses: await updateAddress(db, request.siteUser!.id, pathParam(request, "addressId"), input),
      };
    },
  );

  account.delete(
    "/addresses/:addressId",
    {
      summary: "Removes an address from the account",
      headers: XsrfHeader,
      params: AddressParams,
      response: { 200: Addresses },
    },
    async (request) => ({
      addresses: await removeAddress(db, request.siteUser!.id, pathParam(request, "addressId")),
    }),
  );

  app.post(
    "/api/site-users/account/password-reset",
    {
      preHandler: requireCrumb,
      schema: {
        tags: ["site users"],
        summary: "Emails a password reset link if the address has an account (same answer either way)",
        body: Type.Object({ email: Email }, { additionalProperties: false }),
        response: { 200: Ok },
      },
    },
    async (request) => {
      const site = await siteOf(request);
      await requestPasswordReset(app.deps, site, (request.body as { email: string }).email, request.ip);
      return { ok: true };
    },
  );

  app.post(
    "/api/site-users/account/password-reset/confirm",
    {
      preHandler: requireCrumb,
      schema: {
        tags: ["site users"],
        summary: "Sets a new password with the emailed token; every session of the user ends",
        body: Type.Object(
          { token: Type.String({ maxLength: 200 }), password: Password },
          { additionalProperties: false },
        ),
        response: { 200: Ok },
      },
    },
    async (request) => {
      const site = await siteOf(request);
      const body = request.body as { token: string; password: string };
      await resetPassword(app.deps, site.id, body.token, body.password);
      return { ok: true };
    },
  );
};
