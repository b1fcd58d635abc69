/**
 * The owner's orders API: list and search, detail, fulfil with tracking, refund (full or
 * partial, optionally restocking), cancel. Under /api/owner/sites/:siteId/orders.
 */
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { refundSuggestion } from "@atelier/commerce";
import { badRequest } from "../../http/errors.js";
import {
  type OrderOpsDeps,
  cancelOrder,
  checkRefundLines,
  fulfilOrder,
  refundOrder,
  refundOrderOf,
} from "./operations.js";
import { siteOf } from "../owner-sites/access.js";
import { linesOf, listOrders, orderDetail, ownerOrder } from "./service.js";
import { ordersAsShopifyCsv } from "./shopify-csv.js";
import { Id, Loose, OffsetPaging, errorResponses, offsetPage } from "../../http/schemas.js";
import { pathParam, siteParams, siteApiRoutes } from "../../http/site-routes.js";

const OrderParams = siteParams("orderId");
type OwnerSite = ReturnType<typeof siteOf>;
const errors = errorResponses(400, 401, 402, 403, 404, 409);
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
    ...OffsetPaging,
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
    refundLines: Type.Optional(
      Type.Array(
        Type.Object(
          { lineId: Id, quantity: Type.Integer({ minimum: 0, maximum: 9999 }) },
          { additionalProperties: false },
        ),
        {
          maxItems: 200,
          description:
            "Refund these units: without amountCents, their price less their pro-rata share of the order's discounts, plus their share of the tax",
        },
      ),
    ),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

const SuggestionQuery = Type.Object(
  {
    lines: Type.String({
      maxLength: 4000,
      description: "lineId:quantity pairs, comma-separated",
    }),
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

export const MSG_BAD_LINES = "List the lines as lineId:quantity, separated by commas.";

/** "a:2,b:1" → [{ lineId: "a", quantity: 2 }, …]; anything else is a 400 in plain words. */
function parseLineQuantities(text: string): { lineId: string; quantity: number }[] {
  return text
    .split(",")
    .filter((p) => p.trim())
    .map((pair) => {
      const [lineId, qty] = pair.trim().split(":");
      const quantity = Number(qty);
      if (
        !lineId ||
        !/^[\w-]{1,64}$/.test(lineId) ||
        !Number.isInteger(quantity) ||
        quantity < 0 ||
        quantity > 9999
      )
        throw badRequest(MSG_BAD_LINES, { lines: MSG_BAD_LINES });
      return { lineId, quantity };
    });
}

export const orderRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock, config } = app.deps;
  const deps = (): OrderOpsDeps => ({ db, clock, config, payments: app.payments });

  const site = siteApiRoutes(app, { tags: ["owner", "orders"], area: "orders" });

  site.get(
    "/orders",
    {
      summary:
        "Orders of a site, newest first (orders still waiting for their payment only with status=pending)",
      querystring: ListQuery,
      response: {
        200: Type.Object({ orders: Type.Array(Loose("An order")), total: Type.Integer() }),
        ...errors,
      },
    },
    async (request) => {
      const q = request.query as Static<typeof ListQuery>;
      return listOrders(db, siteOf(request).id, {
        q: q.q,
        status: q.status,
        ...offsetPage(q),
      });
    },
  );

  site.get(
    "/orders/:orderId",
    {
      summary: "One order with its payments and refunds",
      params: OrderParams,
      response: { 200: Detail, ...errors },
    },
    async (request) => orderDetail(db, siteOf(request).id, pathParam(request, "orderId")),
  );

  site.get(
    "/export/shopify-orders.csv",
    {
      summary:
        "The site's orders as a Shopify orders CSV (one row per line item, with the discount codes, amounts and each line's discount)",
    },
    async (request, reply) => {
      const website = siteOf(request);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${website.identifier}-orders.csv"`)
        .send(await ordersAsShopifyCsv(db, website.id));
    },
  );

  site.get(
    "/orders/:orderId/refund-suggestion",
    {
      summary:
        "What refunding some units of an order's lines gives back: each line's price less its pro-rata share of the discounts, plus its share of the tax",
      params: OrderParams,
      querystring: SuggestionQuery,
      response: {
        200: Type.Object({
          lines: Type.Array(
            Type.Object({
              lineId: Type.String(),
              quantity: Type.Integer(),
              subtotalCents: Type.Integer(),
              discountCents: Type.Integer(),
              taxCents: Type.Integer(),
              amountCents: Type.Integer(),
            }),
          ),
          amountCents: Type.Integer({ description: "minor units, at most what is left to refund" }),
        }),
        ...errors,
      },
    },
    async (request) => {
      const websiteId = siteOf(request).id;
      const q = request.query as Static<typeof SuggestionQuery>;
      const chosen = parseLineQuantities(q.lines);
      const order = await ownerOrder(db, websiteId, pathParam(request, "orderId"));
      const lines = await linesOf(db, order.id);
      const s = refundSuggestion(refundOrderOf(order, lines), checkRefundLines(lines, chosen));
      return { ...s, amountCents: Math.min(s.amountCents, order.grandTotalCents - order.refundedCents) };
    },
  );

  /** An owner's action on one order: its body checked against `body`, answered with the order's detail. */
  const orderAction = <B extends TSchema>(
    name: string,
    summary: string,
    body: B,
    run: (deps: OrderOpsDeps, site: OwnerSite, orderId: string, input: Static<B>) => Promise<unknown>,
  ) =>
    site.post(
      `/orders/:orderId/${name}`,
      { summary, params: OrderParams, body, response: { 200: Detail, ...errors } },
      async (request) =>
        run(deps(), siteOf(request), pathParam(request, "orderId"), request.body as Static<B>),
    );

  orderAction(
    "fulfil",
    "Marks an order fulfilled, with carrier and tracking; emails the buyer unless notifyCustomer is false",
    FulfilBody,
    fulfilOrder,
  );
  orderAction(
    "refund",
    "Refunds an order in full (no amount) or in part, restocking every line (restock) or some (restockLines)",
    RefundBody,
    refundOrder,
  );
  orderAction(
    "cancel",
    "Cancels an unfulfilled order: refunds what is left, restocks (unless restock is false), stops its subscriptions",
    CancelBody,
    cancelOrder,
  );
};
