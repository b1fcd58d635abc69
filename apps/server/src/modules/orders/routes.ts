/**
 * The owner's orders API: list and search, detail, fulfil with tracking, refund (full or
 * partial, optionally restocking), cancel. Under /api/owner/sites/:siteId/orders.
 */
import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { type OrderOpsDeps, cancelOrder, fulfilOrder, refundOrder } from "./operations.js";
import { ownerReads, ownerSite, ownerWrites } from "./owner-access.js";
import { listOrders, orderDetail } from "./service.js";

const Id = Type.String({ pattern: "^[a-f0-9]{24}$" });
const SiteParams = Type.Object({ siteId: Id });
const OrderParams = Type.Object({ siteId: Id, orderId: Id });
const Loose = (description: string) => Type.Object({}, { additionalProperties: true, description });
const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      fields: Type.Optional(Type.Record(Type.String(), Type.String())),
    }),
  },
  { additionalProperties: true },
);
const errors = {
  400: ErrorSchema,
  401: ErrorSchema,
  402: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
  409: ErrorSchema,
};
const Detail = Loose("{order, payments, refunds}");

const ListQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ maxLength: 200, description: "Order number, email, name, product or SKU" }),
    ),
    status: Type.Optional(
      Type.Union(
        ["pending", "paid", "fulfilled", "partially_refunded", "refunded", "cancelled"].map((s) =>
          Type.Literal(s),
        ),
      ),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);

const FulfilBody = Type.Object(
  {
    carrier: Type.Optional(Type.String({ maxLength: 100 })),
    trackingNumber: Type.Optional(Type.String({ maxLength: 100 })),
    trackingUrl: Type.Optional(Type.String({ maxLength: 2000 })),
    notifyCustomer: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const RefundBody = Type.Object(
  {
    amountCents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000_000 })),
    restock: Type.Optional(Type.Boolean({ description: "Restock every unit not restocked yet" })),
    restockLines: Type.Optional(
      Type.Array(
        Type.Object(
          { lineId: Id, quantity: Type.Integer({ minimum: 0, maximum: 9999 }) },
          { additionalProperties: false },
        ),
        { maxItems: 200, description: "Restock these units only" },
      ),
    ),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

const CancelBody = Type.Object(
  {
    restock: Type.Optional(Type.Boolean()),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
    notifyCustomer: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const orderRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock, config } = app.deps;
  const deps = (): OrderOpsDeps => ({ db, clock, config, payments: app.payments });

  app.get(
    "/api/owner/sites/:siteId/orders",
    {
      preHandler: ownerReads,
      schema: {
        tags: ["owner", "orders"],
        summary:
          "Orders of a site, newest first (orders still waiting for their payment only with status=pending)",
        params: SiteParams,
        querystring: ListQuery,
        response: {
          200: Type.Object({ orders: Type.Array(Loose("An order")), total: Type.Integer() }),
          ...errors,
        },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof ListQuery>;
      return listOrders(db, ownerSite(request).id, {
        q: q.q,
        status: q.status,
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      });
    },
  );

  app.get(
    "/api/owner/sites/:siteId/orders/:orderId",
    {
      preHandler: ownerReads,
      schema: {
        tags: ["owner", "orders"],
        summary: "One order with its payments and refunds",
        params: OrderParams,
        response: { 200: Detail, ...errors },
      },
    },
    async (request) =>
      orderDetail(db, ownerSite(request).id, (request.params as { orderId: string }).orderId),
  );

  app.post(
    "/api/owner/sites/:siteId/orders/:orderId/fulfil",
    {
      preHandler: ownerWrites,
      schema: {
        tags: ["owner", "orders"],
        summary:
          "Marks an order fulfilled, with carrier and tracking; emails the buyer unless notifyCustomer is false",
        params: OrderParams,
        body: FulfilBody,
        response: { 200: Detail, ...errors },
      },
    },
    async (request) =>
      fulfilOrder(
        deps(),
        ownerSite(request),
        (request.params as { orderId: string }).orderId,
        request.body as Static<typeof FulfilBody>,
      ),
  );

  app.post(
    "/api/owner/sites/:siteId/orders/:orderId/refund",
    {
      preHandler: ownerWrites,
      schema: {
        tags: ["owner", "orders"],
        summary:
          "Refunds an order in full (no amount) or in part, restocking every line (restock) or some (restockLines)",
        params: OrderParams,
        body: RefundBody,
        response: { 200: Detail, ...errors },
      },
    },
    async (request) =>
      refundOrder(
        deps(),
        ownerSite(request),
        (request.params as { orderId: string }).orderId,
        request.body as Static<typeof RefundBody>,
      ),
  );

  app.post(
    "/api/owner/sites/:siteId/orders/:orderId/cancel",
    {
      preHandler: ownerWrites,
      schema: {
        tags: ["owner", "orders"],
        summary:
          "Cancels an unfulfilled order: refunds what is left, restocks (unless restock is false), stops its subscriptions",
        params: OrderParams,
        body: CancelBody,
        response: { 200: Detail, ...errors },
      },
    },
    async (request) =>
      cancelOrder(
        deps(),
        ownerSite(request),
        (request.params as { orderId: string }).orderId,
        request.body as Static<typeof CancelBody>,
      ),
  );
};
