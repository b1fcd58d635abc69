/**
 * The restock calls of SPEC §7. The visitor's sign-up takes the website from the host; the
 * owner's calls also take it from the host (or `siteId`) and need the owner to be a member of
 * that website. The job that emails sign-ups when stock comes back is registered here.
 */
import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { requireOwner } from "../../http/owner-auth.js";
import { type RateLimit, addressLimiter } from "../cart/rate-limit.js";
import { registerHousekeeping } from "../jobs/plugin.js";
import { registerJobHandler } from "../jobs/service.js";
import { siteAtHost } from "../sites/service.js";
import { membershipOf, requirePermission } from "../owner-sites/access.js";
import {
  RESTOCK_JOB,
  RESTOCK_PAGE_MAX,
  RESTOCK_PAGE_SIZE,
  listGroups,
  listSignUps,
  runRestockJob,
  sendNotifications,
  signUp,
  sweepRestocked,
} from "./service.js";
import { CursorPage, ErrorSchema, errorResponses } from "../../http/schemas.js";

registerJobHandler(RESTOCK_JOB, async (deps, payload) => {
  await runRestockJob(deps.db, deps.clock, deps.config, payload);
});
registerHousekeeping("restock", async (deps) => {
  await sweepRestocked(deps.db, deps.clock.now());
});

const BASE = "/api/site-users/account/notifications/restock";
/** Sign-ups allowed per visitor address per window. */
export const RESTOCK_SIGNUP_LIMIT: RateLimit = { max: 10, windowMs: 60_000 };

const Id = Type.String({ maxLength: 64 });
const errors = errorResponses(400, 401, 403, 404, 429);

const SignUpBody = Type.Object(
  {
    productId: Id,
    variantId: Id,
    siteVisitorEmail: Type.Optional(Type.String({ maxLength: 1000 })),
    isJoinMailingList: Type.Optional(Type.Boolean()),
    captchaToken: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: true },
);
const Paging = {
  cursor: Type.Optional(Type.String({ maxLength: 400 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: RESTOCK_PAGE_MAX })),
  siteId: Type.Optional(Id),
};
const GroupsQuery = Type.Object(Paging, { additionalProperties: true });
const SignUpsQuery = Type.Object({ productId: Id, variantId: Id, ...Paging }, { additionalProperties: true });
const SiteQuery = Type.Object({ siteId: Type.Optional(Id) }, { additionalProperties: true });
const SendRequest = Type.Object({ productId: Id, variantId: Id }, { additionalProperties: true });
const SendAllBody = Type.Object(
  { sendRequests: Type.Array(SendRequest, { maxItems: 1000 }) },
  { additionalProperties: true },
);
const SendAnswer = Type.Object({ count: Type.Integer(), skipped: Type.Array(SendRequest) });

export const restockRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock, config } = app.deps;

  async function siteFromHost(request: FastifyRequest): Promise<string> {
    const site = await siteAtHost(db, request.headers.host);
    return site.id;
  }

  /** The owner's website: `siteId` when given, else the host's; the owner must be a member. */
  async function ownerSite(request: FastifyRequest): Promise<string> {
    const siteId = (request.query as { siteId?: string }).siteId || (await siteFromHost(request));
    if (request.apiKey) return siteId;
    const { member } = await membershipOf(db, request.owner!.id, siteId);
    if (!member.owner) requirePermission(member, request.routeOptions.config.permission);
    return siteId;
  }

  const signUpLimit = addressLimiter(
    { db, clock },
    "restock",
    RESTOCK_SIGNUP_LIMIT,
    "Please try again in a few seconds.",
  );

  app.post(
    BASE,
    {
      preHandler: [requireCrumb, signUpLimit],
      schema: {
        tags: ["restock"],
        summary: "Sign up to be emailed when a sold-out variant is back in stock",
        body: SignUpBody,
        response: { 200: Type.Object({ success: Type.Boolean(), message: Type.String() }), ...errors },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof SignUpBody>;
      return signUp(db, clock, await siteFromHost(request), body, request.ip);
    },
  );

  app.get(
    `${BASE}/groups`,
    {
      preHandler: requireOwner,
      config: { permission: "orders.read" },
      schema: {
        tags: ["restock"],
        summary: "Variants with restock sign-ups waiting (owner)",
        querystring: GroupsQuery,
        response: {
          200: CursorPage(
            "signUpGroups",
            Type.Object({
              productId: Type.String(),
              variantId: Type.String(),
              productTitle: Type.String(),
              productUrl: Type.String(),
              sku: Type.String(),
              attributes: Type.Record(Type.String(), Type.String()),
              signUpCount: Type.Integer(),
              qtyInStock: Type.Integer(),
              unlimited: Type.Boolean(),
              inStock: Type.Boolean(),
            }),
          ),
          ...errors,
        },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof GroupsQuery>;
      return listGroups(db, await ownerSite(request), q.cursor, q.limit ?? RESTOCK_PAGE_SIZE);
    },
  );

  app.get(
    BASE,
    {
      preHandler: requireOwner,
      config: { permission: "orders.read" },
      schema: {
        tags: ["restock"],
        summary: "The restock sign-ups waiting for one variant (owner)",
        querystring: SignUpsQuery,
        response: {
          200: CursorPage(
            "signUps",
            Type.Object({
              id: Type.String(),
              productId: Type.String(),
              variantId: Type.String(),
              email: Type.String(),
              isJoinMailingList: Type.Boolean(),
              createdOn: Type.Number(),
            }),
          ),
          ...errors,
        },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof SignUpsQuery>;
      return listSignUps(
        db,
        await ownerSite(request),
        q.productId,
        q.variantId,
        q.cursor,
        q.limit ?? RESTOCK_PAGE_SIZE,
      );
    },
  );

  app.post(
    `${BASE}/send`,
    {
      preHandler: [requireCrumb, requireOwner],
      config: { permission: "orders.write" },
      schema: {
        tags: ["restock"],
        summary: "Email the sign-ups of one variant that is back in stock (owner)",
        querystring: SiteQuery,
        body: SendRequest,
        response: { 200: SendAnswer, 409: ErrorSchema, ...errors },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof SendRequest>;
      return sendNotifications(db, clock, config, await ownerSite(request), [body], { single: true });
    },
  );

  app.post(
    `${BASE}/send/all`,
    {
      preHandler: [requireCrumb, requireOwner],
      config: { permission: "orders.write" },
      schema: {
        tags: ["restock"],
        summary: "Email the sign-ups of several variants (owner); sold-out ones are skipped",
        querystring: SiteQuery,
        body: SendAllBody,
        response: { 200: SendAnswer, ...errors },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof SendAllBody>;
      return sendNotifications(db, clock, config, await ownerSite(request), body.sendRequests);
    },
  );
};
