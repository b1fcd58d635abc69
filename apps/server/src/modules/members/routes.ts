/**
 * The owner API of a site's team: members and their roles, invitations (and accepting one), and
 * the transfer of ownership. See docs/team.md.
 */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { setSessionCookie } from "../../http/cookies.js";
import { requireCrumb } from "../../http/crumb.js";
import { OWNER_SESSION_COOKIE } from "../../http/owner-auth.js";
import { errorResponses } from "../../http/schemas.js";
import { pathParam, siteApiRoutes, siteParams } from "../../http/site-routes.js";
import { OWNER_SESSION_DAYS, accountForSession } from "../accounts/service.js";
import type { Actor } from "../events/service.js";
import { clientOf } from "../accounts/sessions.js";
import { memberPermissions, siteOf } from "../owner-sites/access.js";
import { ANY_MEMBER, ROLE_IDS } from "./permissions.js";
import {
  acceptInvitation,
  invite,
  listInvitations,
  listMembers,
  previewInvitation,
  removeMember,
  resendInvitation,
  revokeInvitation,
  setRoles,
  transferOwnership,
} from "./service.js";

const RoleName = Type.String({ maxLength: 40, description: `One of: ${ROLE_IDS.join(", ")}` });
const Roles = Type.Array(RoleName, { maxItems: 10 });
const Member = Type.Object({
  accountId: Type.String(),
  email: Type.String(),
  name: Type.String(),
  roles: Type.Array(Type.String()),
  owner: Type.Boolean(),
  lastSignInAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
});
const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  roles: Type.Array(Type.String()),
  expiresAt: Type.String({ format: "date-time" }),
});
const Ok = Type.Object({ ok: Type.Literal(true) });
const Account = Type.Object({ id: Type.String(), email: Type.String(), displayName: Type.String() });

/** Who makes a change through the owner API. */
export function actorOf(request: FastifyRequest): Actor {
  return request.owner ? { type: "account", id: request.owner.id } : { type: "system", id: null };
}

export const memberRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock, config } = app.deps;
  const mailer = { config, clock };
  const site = siteApiRoutes(app, { tags: ["owner: team"], area: "members" });
  const errors = errorResponses(400, 401, 403, 404, 409);

  site.get(
    "/me",
    {
      summary: "What the signed-in person is on this site: owner or member, roles, permissions",
      response: {
        200: Type.Object({
          owner: Type.Boolean(),
          roles: Type.Array(Type.String()),
          permissions: Type.Array(Type.String()),
        }),
        ...errors,
      },
    },
    async (request) => ({
      owner: request.member!.owner,
      roles: request.member!.roles,
      permissions: memberPermissions(request),
    }),
    ANY_MEMBER,
  );

  site.get(
    "/members",
    {
      summary: "The site's members (with their roles and last sign-in) and pending invitations",
      response: {
        200: Type.Object({ members: Type.Array(Member), invitations: Type.Array(Invitation) }),
        ...errors,
      },
    },
    async (request) => ({
      members: await listMembers(db, siteOf(request).id),
      invitations: await listInvitations(db, siteOf(request).id),
    }),
  );

  site.post(
    "/invitations",
    {
      summary: "Invites a person by email with roles; the email carries a link valid 7 days",
      body: Type.Object(
        { email: Type.String({ maxLength: 256 }), roles: Roles },
        { additionalProperties: false },
      ),
      response: { 201: Type.Object({ invitation: Invitation }), ...errors },
    },
    async (request, reply) => {
      const body = request.body as { email: string; roles: string[] };
      const invitation = await invite(
        db,
        mailer,
        siteOf(request),
        request.owner!,
        actorOf(request),
        body,
        request.member,
      );
      return reply.status(201).send({ invitation });
    },
  );

  site.post(
    "/invitations/:invitationId/resend",
    {
      summary: "Sends the invitation again with a new link valid 7 days (the old link stops working)",
      params: siteParams("invitationId"),
      response: { 200: Type.Object({ invitation: Invitation }), ...errors },
    },
    async (request) => ({
      invitation: await resendInvitation(
        db,
        mailer,
        siteOf(request),
        request.owner!,
        actorOf(request),
        pathParam(request, "invitationId"),
      ),
    }),
  );

  site.delete(
    "/invitations/:invitationId",
    {
      summary: "Revokes a pending invitation",
      params: siteParams("invitationId"),
      response: { 200: Ok, ...errors },
    },
    async (request) => {
      await revokeInvitation(db, siteOf(request), actorOf(request), pathParam(request, "invitationId"));
      return { ok: true as const };
    },
  );

  site.patch(
    "/members/:accountId",
    {
      summary: "Sets a member's roles",
      params: siteParams("accountId"),
      body: Type.Object({ roles: Roles }, { additionalProperties: false }),
      response: { 200: Ok, ...errors },
    },
    async (request) => {
      const { roles } = request.body as { roles: string[] };
      await setRoles(
        db,
        siteOf(request),
        actorOf(request),
        pathParam(request, "accountId"),
        roles,
        request.member,
      );
      return { ok: true as const };
    },
  );

  site.delete(
    "/members/:accountId",
    {
      summary: "Removes a member (the owner cannot be removed)",
      params: siteParams("accountId"),
      response: { 200: Ok, ...errors },
    },
    async (request) => {
      await removeMember(db, siteOf(request), actorOf(request), pathParam(request, "accountId"));
      return { ok: true as const };
    },
  );

  site.post(
    "/transfer-ownership",
    {
      summary:
        "Makes a member the owner; the owner confirms with their password and becomes an Administrator",
      body: Type.Object(
        {
          accountId: Type.String({ maxLength: 40 }),
          password: Type.String({ minLength: 1, maxLength: 1024 }),
        },
        { additionalProperties: false },
      ),
      response: { 200: Ok, ...errors },
    },
    async (request) => {
      const body = request.body as { accountId: string; password: string };
      await transferOwnership(db, siteOf(request), request.owner!, body);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/owner/invitations/preview",
    {
      preHandler: requireCrumb,
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      schema: {
        tags: ["owner: team"],
        summary:
          "What an invitation link offers before accepting: the site, who invites, the roles, and whether the address has an account",
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            email: Type.String(),
            roles: Type.Array(Type.String()),
            site: Type.Object({ title: Type.String() }),
            inviter: Type.Object({ name: Type.String() }),
            hasAccount: Type.Boolean(),
          }),
          ...errorResponses(400),
        },
      },
    },
    async (request) => previewInvitation(db, clock, (request.body as { token: string }).token),
  );

  app.post(
    "/api/owner/invitations/accept",
    {
      preHandler: requireCrumb,
      config: { rateLimit: { max: 10, timeWindow: "1 minute" } },
      schema: {
        tags: ["owner: team"],
        summary:
          "Accepts an invitation: the signed-in account of the invited address, its password (and, with two-step verification on, a code or a recovery code: 401 two_factor_required asks for it, as sign-in does), or a new account (password and name)",
        body: Type.Object(
          {
            token: Type.String({ minLength: 1, maxLength: 200 }),
            password: Type.Optional(Type.String({ maxLength: 1024 })),
            name: Type.Optional(Type.String({ maxLength: 120 })),
            code: Type.Optional(Type.String({ maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ account: Account, siteId: Type.String() }),
          ...errorResponses(400, 401, 409),
        },
      },
    },
    async (request, reply) => {
      const cookie = request.cookies[OWNER_SESSION_COOKIE];
      const signedIn = cookie ? await accountForSession(db, clock, cookie) : undefined;
      const body = request.body as { token: string; password?: string; name?: string; code?: string };
      const accepted = await acceptInvitation(request.server.deps, clientOf(request), body, signedIn);
      if (accepted.session)
        setSessionCookie(
          reply,
          OWNER_SESSION_COOKIE,
          accepted.session.token,
          config.publicUrl.startsWith("https:"),
          {
            maxAge: OWNER_SESSION_DAYS * 86400,
          },
        );
      return { account: accepted.account, siteId: accepted.websiteId };
    },
  );
};
