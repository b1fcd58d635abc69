/**
 * The security of the signed-in owner's account (docs/account-security.md): password change and
 * reset, email change, two-step verification and the signed-in devices.
 */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { requireOwner } from "../../http/owner-auth.js";
import { Id } from "../../http/schemas.js";
import { registerHousekeeping } from "../jobs/plugin.js";
import { confirmEmailChange, pendingEmailOf, requestEmailChange } from "./email-change.js";
import { pruneOwnerAccountRows } from "./housekeeping.js";
import { changePassword, requestPasswordReset, resetPassword, verifyOwnPassword } from "./passwords.js";
import { endOtherSessions, endSession, listSessions } from "./sessions.js";
import {
  confirmTwoFactor,
  disableTwoFactor,
  recoveryCodesLeft,
  startTwoFactor,
  twoFactorEnabled,
} from "./two-factor.js";

registerHousekeeping("owner-accounts", (deps) => pruneOwnerAccountRows(deps.db, deps.clock.now()));

const tags = ["owner account"];
const Password = Type.String({ maxLength: 1024 });
const Token = Type.String({ minLength: 1, maxLength: 200 });
const Code = Type.String({ minLength: 1, maxLength: 64 });
const body = <P extends Record<string, ReturnType<typeof Type.String>>>(props: P) =>
  Type.Object(props, { additionalProperties: false });
const Ok = Type.Object({ ok: Type.Boolean() });
const Account = Type.Object({ id: Type.String(), email: Type.String(), displayName: Type.String() });
const Session = Type.Object({
  id: Type.String(),
  browser: Type.String(),
  os: Type.String(),
  ip: Type.String(),
  createdAt: Type.String({ format: "date-time" }),
  lastSeenAt: Type.String({ format: "date-time" }),
  current: Type.Boolean(),
});

/** The signed-in owner and the session of the request (after requireOwner). */
const ownerOf = (request: FastifyRequest) => ({
  account: request.owner!,
  sessionId: request.ownerSessionId!,
});
const signedIn = [requireOwner];
const signedInWrite = [requireCrumb, requireOwner];

export const accountSecurityRoutes: FastifyPluginAsync = async (app) => {
  const deps = app.deps;

  app.get(
    "/api/owner/account/security",
    {
      preHandler: signedIn,
      schema: {
        tags,
        summary:
          "What protects the account: two-step verification, recovery codes left, an unconfirmed new email",
        response: {
          200: Type.Object({
            twoFactorEnabled: Type.Boolean(),
            recoveryCodesLeft: Type.Integer(),
            pendingEmail: Type.Union([Type.String(), Type.Null()]),
          }),
        },
      },
    },
    async (request) => {
      const { account } = ownerOf(request);
      return {
        twoFactorEnabled: await twoFactorEnabled(deps.db, account.id),
        recoveryCodesLeft: await recoveryCodesLeft(deps.db, account.id),
        pendingEmail: await pendingEmailOf(deps, account.id),
      };
    },
  );

  app.put(
    "/api/owner/account/password",
    {
      preHandler: signedInWrite,
      schema: {
        tags,
        summary: "Changes the password (the current one is required); every other session is signed out",
        body: body({ currentPassword: Password, newPassword: Password }),
        response: { 200: Type.Object({ ok: Type.Boolean(), signedOut: Type.Integer() }) },
      },
    },
    async (request) => {
      const { account, sessionId } = ownerOf(request);
      const input = request.body as { currentPassword: string; newPassword: string };
      const { signedOut } = await changePassword(deps, account, sessionId, input);
      return { ok: true, signedOut };
    },
  );

  app.post(
    "/api/owner/password-reset",
    {
      preHandler: requireCrumb,
      schema: {
        tags,
        summary:
          "Emails a single-use link (valid 1 hour) to choose a new password; the same answer whether or not the address has an account",
        body: body({ email: Type.String({ maxLength: 256 }) }),
        response: { 202: Type.Object({ message: Type.String() }) },
      },
    },
    async (request, reply) => {
      await requestPasswordReset(deps, (request.body as { email: string }).email, request.ip);
      return reply.status(202).send({
        message: "If an account uses this address, we have sent it a link to choose a new password.",
      });
    },
  );

  app.post(
    "/api/owner/password-reset/confirm",
    {
      preHandler: requireCrumb,
      schema: {
        tags,
        summary:
          "Sets a new password with the emailed link's token; every session of the account is signed out",
        body: body({ token: Token, newPassword: Password }),
        response: { 200: Ok },
      },
    },
    async (request) => {
      const input = request.body as { token: string; newPassword: string };
      await resetPassword(deps, input.token, input.newPassword);
      return { ok: true };
    },
  );

  app.put(
    "/api/owner/account/email",
    {
      preHandler: signedInWrite,
      schema: {
        tags,
        summary: "Asks to sign in with a new email address: a link sent to it confirms the change",
        body: body({ newEmail: Type.String({ maxLength: 256 }), password: Password }),
        response: { 202: Type.Object({ pendingEmail: Type.String() }) },
      },
    },
    async (request, reply) => {
      const input = request.body as { newEmail: string; password: string };
      return reply.status(202).send(await requestEmailChange(deps, ownerOf(request).account, input));
    },
  );

  app.post(
    "/api/owner/account/email/confirm",
    {
      preHandler: requireCrumb,
      schema: {
        tags,
        summary: "Confirms a new email address with the token of the link sent to it",
        body: body({ token: Token }),
        response: { 200: Type.Object({ account: Account }) },
      },
    },
    async (request) => ({
      account: await confirmEmailChange(deps, (request.body as { token: string }).token),
    }),
  );

  app.post(
    "/api/owner/account/two-factor",
    {
      preHandler: signedInWrite,
      schema: {
        tags,
        summary:
          "Starts two-step verification: a new secret for an authenticator app (as text, URL and QR code)",
        response: {
          200: Type.Object({ secret: Type.String(), otpauthUrl: Type.String(), qrCodeSvg: Type.String() }),
        },
      },
    },
    async (request) => startTwoFactor(deps.db, ownerOf(request).account),
  );

  app.post(
    "/api/owner/account/two-factor/confirm",
    {
      preHandler: signedInWrite,
      schema: {
        tags,
        summary:
          "Turns two-step verification on with a first code; answers 10 single-use recovery codes, shown this once",
        body: body({ code: Code }),
        response: { 200: Type.Object({ recoveryCodes: Type.Array(Type.String()) }) },
      },
    },
    async (request) => ({
      recoveryCodes: await confirmTwoFactor(
        deps,
        ownerOf(request).account.id,
        (request.body as { code: string }).code,
      ),
    }),
  );

  app.delete(
    "/api/owner/account/two-factor",
    {
      preHandler: signedInWrite,
      schema: {
        tags,
        summary: "Turns two-step verification off; needs the password and a code (or a recovery code)",
        body: body({ password: Password, code: Code }),
        response: { 200: Ok },
      },
    },
    async (request) => {
      const { account } = ownerOf(request);
      const input = request.body as { password: string; code: string };
      await verifyOwnPassword(deps, account, input.password, "password");
      await disableTwoFactor(deps, account.id, input.code);
      return { ok: true };
    },
  );

  app.get(
    "/api/owner/account/sessions",
    {
      preHandler: signedIn,
      schema: {
        tags,
        summary: "The account's signed-in devices, the most recently used first; `current` marks this one",
        response: { 200: Type.Object({ sessions: Type.Array(Session) }) },
      },
    },
    async (request) => {
      const { account, sessionId } = ownerOf(request);
      return { sessions: await listSessions(deps.db, deps.clock, account.id, sessionId) };
    },
  );

  app.delete(
    "/api/owner/account/sessions/:id",
    {
      preHandler: signedInWrite,
      schema: {
        tags,
        summary: "Signs one of the account's devices out",
        params: Type.Object({ id: Id }),
        response: { 200: Ok },
      },
    },
    async (request) => {
      await endSession(deps.db, ownerOf(request).account.id, (request.params as { id: string }).id);
      return { ok: true };
    },
  );

  app.delete(
    "/api/owner/account/sessions",
    {
      preHandler: signedInWrite,
      schema: {
        tags,
        summary: "Signs out every device of the account but this one",
        response: { 200: Type.Object({ signedOut: Type.Integer() }) },
      },
    },
    async (request) => {
      const { account, sessionId } = ownerOf(request);
      return { signedOut: await endOtherSessions(deps.db, account.id, sessionId) };
    },
  );
};
