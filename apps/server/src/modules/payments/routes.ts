/**
 * The built-in test provider's 3-D Secure challenge, as the checkout page shows it: what is
 * being authenticated, and the buyer's answer (complete or fail). Only with the test provider.
 */
import { Type } from "@sinclair/typebox";
import { StringParams } from "../../http/schemas.js";
import type { FastifyPluginAsync } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { notFound } from "../../http/errors.js";
import { TestPaymentProvider } from "./test-provider.js";

const Params = StringParams("challengeId");
const Challenge = Type.Object({
  challengeId: Type.String(),
  amountCents: Type.Integer(),
  currency: Type.String(),
  cardLast4: Type.String(),
  wallet: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
});
const ErrorSchema = Type.Object(
  { error: Type.Object({ code: Type.String(), message: Type.String() }) },
  { additionalProperties: true },
);
const MSG_NO_CHALLENGE = "No such authentication.";

export const paymentRoutes: FastifyPluginAsync = async (app) => {
  const provider = () => {
    if (!(app.payments instanceof TestPaymentProvider)) throw notFound(MSG_NO_CHALLENGE);
    return app.payments;
  };

  app.get(
    "/api/commerce/payments/test-challenges/:challengeId",
    {
      schema: {
        tags: ["checkout"],
        summary: "A 3-D Secure challenge of the built-in test provider",
        params: Params,
        response: { 200: Challenge, 404: ErrorSchema },
      },
    },
    async (request) => {
      const { challengeId } = request.params as { challengeId: string };
      const charge = await provider().challenge(challengeId);
      if (!charge) throw notFound(MSG_NO_CHALLENGE);
      return {
        challengeId,
        amountCents: charge.amountCents,
        currency: charge.currency,
        cardLast4: charge.cardLast4,
        wallet: charge.wallet ?? null,
        status: charge.status,
      };
    },
  );

  app.post(
    "/api/commerce/payments/test-challenges/:challengeId",
    {
      preHandler: requireCrumb,
      schema: {
        tags: ["checkout"],
        summary:
          "Completes or fails a 3-D Secure test challenge; then send the order again with the same idempotencyKey",
        params: Params,
        body: Type.Object(
          { outcome: Type.Union([Type.Literal("succeed"), Type.Literal("fail")]) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ status: Type.String() }), 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const { challengeId } = request.params as { challengeId: string };
      const { outcome } = request.body as { outcome: "succeed" | "fail" };
      const result = await provider().completeChallenge(challengeId, outcome);
      if (!result) throw notFound(MSG_NO_CHALLENGE);
      return { status: result.status };
    },
  );
};
