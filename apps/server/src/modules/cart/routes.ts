/**
 * The cart calls of SPEC §7, plus changing an entry's quantity and removing an entry (our
 * design). The cart is the one named by the visitor's cart cookie; the website comes from the
 * host. Every call is rate limited with counters shared by all server processes: past the limit
 * it answers 429 'Please try again in a few seconds.'.
 */
import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { setSessionCookie } from "../../http/cookies.js";
import { requireCrumb } from "../../http/crumb.js";
import { pathParam, routeGroup } from "../../http/site-routes.js";
import { type RateLimit, type ReadWithCount, readWithCount, siteLimiter, siteReadsOf } from "./rate-limit.js";
import {
  CART_COOKIE_DAYS,
  type CartOwner,
  addEntry,
  additionalFieldsFormOf,
  createSubscriptionCart,
  getCart,
  openCartJson,
  removeEntry,
  seenCartOfJson,
  setEntryQuantity,
  stockOf,
  tokenHashValue,
  updateAdditionalFields,
} from "./service.js";
import { ErrorSchema, errorResponses } from "../../http/schemas.js";

/** HttpOnly cookie holding the visitor's cart token. */
export const CART_COOKIE = "atelier_cart";
/** Readable companion cookie: tells the storefront a cart exists, so it loads it at start. */
export const CART_PRESENT_COOKIE = "atelier_has_cart";

export const RATE_LIMITED_MESSAGE = "Please try again in a few seconds.";
/** Cart changes allowed per visitor address per window. */
export const CART_WRITE_LIMIT: RateLimit = { max: 30, windowMs: 10_000 };
/** Cart and stock reads allowed per visitor address per window. */
const CART_READ_LIMIT: RateLimit = { max: 120, windowMs: 10_000 };

// ─── Schemas ─────────────────────────────────────────────────────────────────────────────────

const Id = Type.String({ maxLength: 64 });
const Sku = Type.String({ maxLength: 200 });
const QuantityInput = Type.Unknown({
  description: "A whole number from 1 to 9999 (a number or a numeric string).",
  examples: [1],
});
const AdditionalFields = Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()], {
  description: "The answers of the product's additional-fields form, as a JSON string.",
});

const CartEntrySchema = Type.Object({
  id: Type.String(),
  itemId: Type.String(),
  variantId: Type.Union([Type.String(), Type.Null()]),
  sku: Type.String(),
  chosenVariant: Type.Object({
    id: Type.Union([Type.String(), Type.Null()]),
    sku: Type.String(),
    attributes: Type.Record(Type.String(), Type.String()),
    qtyInStock: Type.Integer(),
    unlimited: Type.Boolean(),
  }),
  quantity: Type.Integer(),
  additionalFields: Type.Unknown(),
  title: Type.String(),
  url: Type.String(),
  imageUrl: Type.Union([Type.String(), Type.Null()]),
  productType: Type.Integer(),
  purchasePriceCents: Type.Integer(),
  unitPriceCents: Type.Integer(),
  onSale: Type.Boolean(),
  subTotal: Type.Integer({ description: "purchasePriceCents × quantity, in minor units" }),
  currencyCode: Type.String(),
  isSubscription: Type.Boolean(),
  available: Type.Boolean(),
});

const CartSchema = Type.Object({
  id: Type.Union([Type.String(), Type.Null()]),
  websiteId: Type.String(),
  orderId: Type.Union([Type.String(), Type.Null()]),
  created: Type.Union([Type.Number(), Type.Null()]),
  isPurchased: Type.Boolean(),
  currencyCode: Type.String(),
  entries: Type.Array(CartEntrySchema),
  shippingOptions: Type.Array(Type.Unknown()),
  selectedShippingOption: Type.Union([Type.String(), Type.Null()]),
  shippingLocation: Type.Record(Type.String(), Type.String()),
  applicableTaxRules: Type.Array(Type.Unknown()),
  coupons: Type.Array(Type.String()),
  validCoupons: Type.Array(Type.Unknown()),
  invalidCoupons: Type.Array(Type.Unknown()),
  discounts: Type.Array(
    Type.Object({
      name: Type.String(),
      amountCents: Type.Integer(),
      shippingCents: Type.Integer(),
      discountId: Type.Optional(Type.String()),
      couponCode: Type.Optional(Type.String()),
    }),
    { description: "The automatic discount that applies, by name (its amount is in discountCents)" },
  ),
  subtotalCents: Type.Integer(),
  taxCents: Type.Integer(),
  shippingCostCents: Type.Integer(),
  discountCents: Type.Integer(),
  grandTotalCents: Type.Integer(),
  totalQuantity: Type.Integer(),
  hasDigital: Type.Boolean(),
  purelyDigital: Type.Boolean(),
  requiresShipping: Type.Boolean(),
});

const errors = errorResponses(400, 403, 404, 429);

const AddBody = Type.Object(
  {
    itemId: Id,
    sku: Type.Optional(Sku),
    quantity: Type.Optional(QuantityInput),
    additionalFields: Type.Optional(AdditionalFields),
  },
  { additionalProperties: true },
);
const AddQuery = Type.Object(
  {
    isExpress: Type.Optional(Type.Boolean()),
    crumb: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);
const EntryParams = Type.Object({ entryId: Id });
const AdditionalFieldsBody = Type.Object(
  { itemId: Id, sku: Type.Optional(Sku), additionalFields: Type.Optional(AdditionalFields) },
  { additionalProperties: true },
);
const QuantityBody = Type.Object({ quantity: QuantityInput }, { additionalProperties: true });
const SubscriptionBody = Type.Object(
  {
    itemId: Id,
    sku: Type.Optional(Sku),
    qty: Type.Optional(QuantityInput),
    additionalFields: Type.Optional(AdditionalFields),
  },
  { additionalProperties: true },
);
const CartQuery = Type.Object(
  {
    mock: Type.Optional(Type.String({ maxLength: 100 })),
    timecode: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: true },
);
const StockQuery = Type.Object({ itemId: Id }, { additionalProperties: true });
const StockAnswer = Type.Object({
  results: Type.Array(
    Type.Object({
      variantId: Type.String(),
      sku: Type.String(),
      unlimited: Type.Boolean(),
      qtyInStock: Type.Integer(),
    }),
  ),
});
const EntryAnswer = Type.Object({ shoppingCart: CartSchema, updatedEntry: CartEntrySchema });

/**
 * Keeps the visitor's cart: its token in an HTTP-only cookie, and a cookie scripts may read that
 * says a cart exists, both for CART_COOKIE_DAYS.
 */
export function keepCartCookie(reply: FastifyReply, token: string, secure: boolean) {
  const maxAge = CART_COOKIE_DAYS * 86400;
  setSessionCookie(reply, CART_COOKIE, token, secure, { maxAge });
  reply.setCookie(CART_PRESENT_COOKIE, "1", {
    path: "/",
    sameSite: "lax",
    httpOnly: false,
    secure,
    maxAge,
  });
}

export const cartRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock, config } = app.deps;
  const secure = config.publicUrl.startsWith("https:");

  const cache = app.storeCache;
  // A call reads the cart, its version and its entries with its count; a change writes in one
  // statement if the cart is unchanged since (cart/service.ts SeenCart).
  const readingCart = (name: string): ReadWithCount => ({
    name,
    sql: openCartJson,
    values: (request) => ({ tokenHash: tokenHashValue(request.cookies[CART_COOKIE]) }),
  });
  const limiter = (name: string, limit: RateLimit, read: ReadWithCount) =>
    siteLimiter({ db, clock, cache }, name, limit, RATE_LIMITED_MESSAGE, read);
  const writeLimit = limiter("cart-write", CART_WRITE_LIMIT, readingCart("cart_write_count_and_cart"));
  const readLimit = limiter("cart-read", CART_READ_LIMIT, readingCart("cart_read_count_and_cart"));

  async function ownerOf(request: FastifyRequest): Promise<CartOwner> {
    const reads = await siteReadsOf(db, cache, request);
    const read = readWithCount(request);
    return {
      websiteId: reads.site.id,
      token: request.cookies[CART_COOKIE],
      reads,
      seen: read === undefined ? undefined : seenCartOfJson(read),
    };
  }

  const keepCart = (reply: FastifyReply, token: string) => keepCartCookie(reply, token, secure);
  const cart = routeGroup(app, { tags: ["cart"], read: readLimit, write: [requireCrumb, writeLimit] });
  const entry = routeGroup(app, {
    tags: ["cart"],
    prefix: "/api/commerce/shopping-cart/entries/:entryId",
    params: EntryParams,
    write: [requireCrumb, writeLimit],
  });

  cart.get(
    "/api/commerce/shopping-cart",
    {
      summary: "The visitor's cart (empty when they have none)",
      querystring: CartQuery,
      response: { 200: CartSchema, 404: ErrorSchema, 429: ErrorSchema },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return getCart(db, await ownerOf(request), clock.now());
    },
  );

  cart.post(
    "/api/commerce/shopping-cart/entries",
    {
      summary: "Add a product variant to the cart",
      description:
        "With `?isExpress=true` the entry goes into a new cart of its own and the answer carries its `cartToken` for the checkout page.",
      querystring: AddQuery,
      body: AddBody,
      response: {
        200: Type.Object({
          shoppingCart: CartSchema,
          newlyAdded: CartEntrySchema,
          updatedEntry: Type.Optional(CartEntrySchema),
          cartToken: Type.Optional(Type.String()),
        }),
        ...errors,
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof AddBody>;
      const { isExpress } = request.query as Static<typeof AddQuery>;
      const owner = await ownerOf(request);
      const result = await addEntry(db, clock, owner, {
        itemId: body.itemId,
        sku: body.sku || undefined,
        quantity: body.quantity,
        additionalFields: body.additionalFields,
        isExpress: isExpress === true,
      });
      if (result.newToken && !isExpress) keepCart(reply, result.newToken);
      return {
        shoppingCart: result.shoppingCart,
        newlyAdded: result.newlyAdded,
        updatedEntry: result.updatedEntry,
        cartToken: isExpress ? result.newToken : undefined,
      };
    },
  );

  entry.put(
    "/additionalFields",
    {
      summary: "Replace the additional fields of a cart entry",
      body: AdditionalFieldsBody,
      response: { 200: EntryAnswer, ...errors },
    },
    async (request) => {
      const body = request.body as Static<typeof AdditionalFieldsBody>;
      return updateAdditionalFields(db, clock, await ownerOf(request), {
        entryId: pathParam(request, "entryId"),
        itemId: body.itemId,
        sku: body.sku || undefined,
        additionalFields: body.additionalFields,
      });
    },
  );

  entry.patch(
    "",
    {
      summary: "Change the quantity of a cart entry",
      body: QuantityBody,
      response: { 200: EntryAnswer, ...errors },
    },
    async (request) => {
      const { quantity } = request.body as Static<typeof QuantityBody>;
      return setEntryQuantity(db, clock, await ownerOf(request), pathParam(request, "entryId"), quantity);
    },
  );

  entry.delete(
    "",
    {
      summary: "Remove an entry from the cart",
      response: { 200: Type.Object({ shoppingCart: CartSchema }), ...errors },
    },
    async (request) => removeEntry(db, clock, await ownerOf(request), pathParam(request, "entryId")),
  );

  cart.post(
    "/api/3/commerce/cart/subscription",
    {
      summary: "Start a subscription purchase",
      description:
        "Makes a cart holding the subscription alone and answers its token for the subscription checkout page.",
      body: SubscriptionBody,
      response: { 200: Type.Object({ cartToken: Type.String() }), ...errors },
    },
    async (request) => {
      const body = request.body as Static<typeof SubscriptionBody>;
      const owner = await ownerOf(request);
      return createSubscriptionCart(db, clock, owner.reads, {
        itemId: body.itemId,
        sku: body.sku || undefined,
        qty: body.qty,
        additionalFields: body.additionalFields,
      });
    },
  );

  cart.get(
    "/api/commerce/products/:itemId/additional-fields-form",
    {
      summary: "The additional-fields form a product asks for when it is added to the cart",
      params: Type.Object({ itemId: Id }),
      response: {
        200: Type.Object({
          form: Type.Object({
            id: Type.String(),
            name: Type.String(),
            fields: Type.Array(Type.Record(Type.String(), Type.Unknown())),
          }),
        }),
        404: ErrorSchema,
        429: ErrorSchema,
      },
    },
    async (request) => {
      const { itemId } = request.params as { itemId: string };
      return additionalFieldsFormOf(db, (await ownerOf(request)).reads, itemId);
    },
  );

  const stockSchema = {
    summary: "Stock of every variant of a product",
    querystring: StockQuery,
    response: { 200: StockAnswer, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema },
  };
  const stockHandler = async (request: FastifyRequest) => {
    const { itemId } = request.query as Static<typeof StockQuery>;
    const owner = await ownerOf(request);
    return stockOf(db, owner.reads, itemId);
  };
  cart.get("/api/commerce/inventory/stock/", stockSchema, stockHandler);
  cart.get("/api/commerce/inventory/stock", { ...stockSchema, hide: true }, stockHandler);
};
