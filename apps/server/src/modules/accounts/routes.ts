import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { clearCookie, setSessionCookie } from "../../http/cookies.js";
import { requireCrumb } from "../../http/crumb.js";
import { OWNER_SESSION_COOKIE, requireOwner } from "../../http/owner-auth.js";
import { accountSecurityRoutes } from "./security-routes.js";
import { OWNER_SESSION_DAYS, logIn, logOut, signUp, websitesOf } from "./service.js";
import { clientOf } from "./sessions.js";

const Account = Type.Object({ id: Type.String(), email: Type.String(), displayName: Type.String() });
const Credentials = Type.Object(
  {
    email: Type.String({ maxLength: 256 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    code: Type.Optional(
      Type.String({ maxLength: 64, description: "A code of the authenticator app, or a recovery code" }),
    ),
  },
  { additionalProperties: false },
);

/** Site-owner accounts: sign up, log in, log out, who am I, and the account's security. */
export const accountRoutes: FastifyPluginAsync = async (app) => {
  await app.register(accountSecurityRoutes);
  const { db, config } = app.deps;
  const secure = config.publicUrl.startsWith("https:");

  app.post(
    "/api/owner/account",
    {
      preHandler: requireCrumb,
      schema: {
        tags: ["owner"],
        body: Type.Object(
          {
            email: Type.String({ maxLength: 256 }),
            password: Type.String({ maxLength: 1024 }),
            displayName: Type.Optional(Type.String({ maxLength: 120 })),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ account: Account }) },
      },
    },
    async (request, reply) => {
      const account = await signUp(
        db,
        request.body as { email: string; password: string; displayName?: string },
      );
      const session = await logIn(
        app.deps,
        request.body as { email: string; password: string },
        clientOf(request),
      );
      setSessionCookie(reply, OWNER_SESSION_COOKIE, session.token, secure, {
        maxAge: OWNER_SESSION_DAYS * 86400,
      });
      return reply.status(201).send({ account });
    },
  );

  app.post(
    "/api/owner/session",
    {
      preHandler: requireCrumb,
      config: { rateLimit: { max: 10, timeWindow: "1 minute" } },
      schema: {
        tags: ["owner"],
        summary:
          "Signs in; answers 401 two_factor_required when the account needs a code, 429 while it must wait after wrong passwords",
        body: Credentials,
        response: { 200: Type.Object({ account: Account }) },
      },
    },
    async (request, reply) => {
      const session = await logIn(
        app.deps,
        request.body as { email: string; password: string; code?: string },
        clientOf(request),
      );
      setSessionCookie(reply, OWNER_SESSION_COOKIE, session.token, secure, {
        maxAge: OWNER_SESSION_DAYS * 86400,
      });
      return { account: session.account };
    },
  );

  app.delete(
    "/api/owner/session",
    {
      preHandler: requireCrumb,
      schema: { tags: ["owner"], response: { 200: Type.Object({ ok: Type.Boolean() }) } },
    },
    async (request, reply) => {
      const token = request.cookies[OWNER_SESSION_COOKIE];
      if (token) await logOut(db, token);
      clearCookie(reply, OWNER_SESSION_COOKIE);
      return { ok: true };
    },
  );

  app.get(
    "/api/owner/account",
    {
      preHandler: requireOwner,
      schema: {
        tags: ["owner"],
        response: {
          200: Type.Object({
            account: Account,
            websites: Type.Array(
              Type.Object({
                id: Type.String(),
                identifier: Type.String(),
                title: Type.String(),
                role: Type.String(),
              }),
            ),
          }),
        },
      },
    },
    async (request) => ({ account: request.owner!, websites: await websitesOf(db, request.owner!.id) }),
  );
};
