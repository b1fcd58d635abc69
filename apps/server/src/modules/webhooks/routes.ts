/**
 * The owner API of webhooks, under /api/owner/sites/:siteId/webhooks: subscriptions (the secret
 * shown only when created or rotated), a test event, the delivery log and redelivery. Each route
 * declares its permission (`webhooks.read` / `webhooks.write`) in its config.
 */
import {
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_TOPICS,
  WEBHOOK_URL_MAX_LENGTH,
  MAX_WEBHOOKS,
} from "@atelier/owner-api";
import { type TSchema, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest, HTTPMethods, RouteHandlerMethod } from "fastify";
import { errorResponses } from "../../http/schemas.js";
import { pathParam, siteParams } from "../../http/site-routes.js";
import { ownerRead, ownerWrite, siteOf } from "../owner-sites/access.js";
import { redeliver, sendTestEvent } from "./delivery.js";
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  messageOfDelivery,
  rotateSecret,
  updateWebhook,
  webhookJson,
  webhookRow,
} from "./service.js";

const BASE = "/api/owner/sites/:siteId/webhooks";
const TAGS = ["owner: webhooks"];

const Topic = Type.Union(WEBHOOK_TOPICS.map((t) => Type.Literal(t)));
const Topics = Type.Array(Topic, { minItems: 1, maxItems: WEBHOOK_TOPICS.length, uniqueItems: true });
const Url = Type.String({
  minLength: 1,
  maxLength: WEBHOOK_URL_MAX_LENGTH,
  examples: ["https://example.com/hooks/atelier"],
});
const Description = Type.String({ maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH });

const WebhookSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  topics: Type.Array(Type.String()),
  description: Type.String(),
  active: Type.Boolean(),
  disabledReason: Type.Union([Type.String(), Type.Null()]),
  createdOn: Type.Integer({ description: "epoch milliseconds" }),
  previousSecretUntil: Type.Union([Type.Integer(), Type.Null()], {
    description: "until when the secret replaced by the last rotation still signs (epoch ms)",
  }),
});
const WithSecret = Type.Object({
  webhook: WebhookSchema,
  secret: Type.String({
    description: "whsec_<base64>: shown only in this answer",
    examples: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  }),
});
const DeliverySchema = Type.Object({
  id: Type.String(),
  eventId: Type.String({ description: "the webhook-id header of every attempt" }),
  type: Type.String(),
  attempt: Type.Integer(),
  at: Type.Integer({ description: "epoch milliseconds" }),
  status: Type.Union([Type.Integer(), Type.Null()], { description: "null when no answer came" }),
  latencyMs: Type.Integer(),
  responseExcerpt: Type.String({ description: "the first 2 KB of the answer, or why there was none" }),
});
const Ok = Type.Object({ ok: Type.Boolean() });

const errors = (...statuses: number[]) => errorResponses(401, 403, 404, ...statuses);

export const webhookRoutes: FastifyPluginAsync = async (app) => {
  const deps = app.deps;

  /** One webhooks call: read calls need `webhooks.read`, the others `webhooks.write`. */
  const route = (
    method: HTTPMethods,
    path: string,
    schema: {
      summary: string;
      params?: TSchema;
      body?: TSchema;
      querystring?: TSchema;
      response: Record<number, TSchema>;
    },
    handler: RouteHandlerMethod,
  ) => {
    const reads = method === "GET";
    app.route({
      method,
      url: `${BASE}${path}`,
      preHandler: reads ? ownerRead : ownerWrite,
      config: { permission: reads ? "webhooks.read" : "webhooks.write" },
      schema: { tags: TAGS, params: siteParams(), ...schema },
      handler,
    });
  };
  const id = (request: FastifyRequest) => pathParam(request, "webhookId");

  route(
    "GET",
    "",
    {
      summary: "The site's webhook subscriptions (never their secrets)",
      response: {
        200: Type.Object({ webhooks: Type.Array(WebhookSchema), topics: Type.Array(Type.String()) }),
        ...errors(),
      },
    },
    async (request) => ({ webhooks: await listWebhooks(deps, siteOf(request).id), topics: WEBHOOK_TOPICS }),
  );

  route(
    "POST",
    "",
    {
      summary: `Subscribes an https endpoint to events (at most ${MAX_WEBHOOKS} a site); the answer is the only time the secret is shown`,
      body: Type.Object(
        { url: Url, topics: Topics, description: Type.Optional(Description) },
        { additionalProperties: false },
      ),
      response: { 201: WithSecret, ...errors(400, 409) },
    },
    async (request, reply) => {
      const body = request.body as { url: string; topics: string[]; description?: string };
      return reply.status(201).send(await createWebhook(deps, siteOf(request).id, body));
    },
  );

  route(
    "GET",
    "/:webhookId",
    {
      summary: "One webhook subscription",
      params: siteParams("webhookId"),
      response: { 200: Type.Object({ webhook: WebhookSchema }), ...errors() },
    },
    async (request) => ({
      webhook: webhookJson(await webhookRow(deps.db, siteOf(request).id, id(request)), deps.clock.now()),
    }),
  );

  route(
    "PATCH",
    "/:webhookId",
    {
      summary:
        "Changes a subscription's URL, topics or description, or pauses (active: false) and resumes it",
      params: siteParams("webhookId"),
      body: Type.Object(
        {
          url: Type.Optional(Url),
          topics: Type.Optional(Topics),
          description: Type.Optional(Description),
          active: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
      response: { 200: Type.Object({ webhook: WebhookSchema }), ...errors(400) },
    },
    async (request) => ({
      webhook: await updateWebhook(deps, siteOf(request).id, id(request), request.body as object),
    }),
  );

  route(
    "DELETE",
    "/:webhookId",
    {
      summary: "Deletes a subscription and its delivery log",
      params: siteParams("webhookId"),
      response: { 200: Ok, ...errors() },
    },
    async (request) => {
      await deleteWebhook(deps.db, siteOf(request).id, id(request));
      return { ok: true };
    },
  );

  route(
    "POST",
    "/:webhookId/rotate-secret",
    {
      summary: "Replaces the signing secret; the old one keeps signing beside the new one for 24 hours",
      params: siteParams("webhookId"),
      response: { 200: WithSecret, ...errors() },
    },
    async (request) => rotateSecret(deps, siteOf(request).id, id(request)),
  );

  route(
    "POST",
    "/:webhookId/test",
    {
      summary: "Sends a webhook.test event to this subscription (even paused); it shows in the delivery log",
      params: siteParams("webhookId"),
      response: { 202: Type.Object({ eventId: Type.String() }), ...errors() },
    },
    async (request, reply) =>
      reply.status(202).send(await sendTestEvent(deps, siteOf(request).id, id(request))),
  );

  route(
    "GET",
    "/:webhookId/deliveries",
    {
      summary: "The delivery log of the last 30 days, newest first, 50 a page",
      params: siteParams("webhookId"),
      querystring: Type.Object(
        { cursor: Type.Optional(Type.String({ maxLength: 200 })) },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          deliveries: Type.Array(DeliverySchema),
          nextCursor: Type.Union([Type.String(), Type.Null()]),
        }),
        ...errors(400),
      },
    },
    async (request) =>
      listDeliveries(deps.db, siteOf(request).id, id(request), (request.query as { cursor?: string }).cursor),
  );

  route(
    "POST",
    "/:webhookId/deliveries/:deliveryId/redeliver",
    {
      summary: "Sends a logged event again, now, with the same webhook-id (one attempt)",
      params: siteParams("webhookId", "deliveryId"),
      response: { 202: Ok, ...errors() },
    },
    async (request, reply) => {
      const messageId = await messageOfDelivery(
        deps.db,
        siteOf(request).id,
        id(request),
        pathParam(request, "deliveryId"),
      );
      await redeliver(deps, messageId);
      return reply.status(202).send({ ok: true });
    },
  );
};
