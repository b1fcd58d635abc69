import { SUPPORTED_CURRENCIES } from "@atelier/commerce";
import type { StoreSettingsAnswer } from "@atelier/owner-api";
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { siteOf } from "../owner-sites/access.js";
import { pathParam, siteParams, siteApiRoutes } from "../../http/site-routes.js";
import {
  type CouponInput,
  type ShippingInput,
  type TaxInput,
  createCoupon,
  createShipping,
  createTax,
  deleteCoupon,
  deleteShipping,
  deleteTax,
  getStoreSettings,
  listCoupons,
  listShipping,
  listTax,
  updateCoupon,
  updateShipping,
  updateStoreSettings,
  updateTax,
} from "./service.js";

const tags = ["owner: store settings"];
const RuleParams = siteParams("id");
const Cents = Type.Integer({ minimum: 0, maximum: 100_000_000 });
const Millis = Type.Union([Type.Null(), Type.Integer({ minimum: 0, maximum: 253402300799000 })]);

const Shipping = Type.Object(
  {
    name: Type.String({ maxLength: 300 }),
    kind: Type.String({ maxLength: 20 }),
    priceCents: Type.Optional(Cents),
    perKgCents: Type.Optional(Cents),
    minSubtotalCents: Type.Optional(Cents),
    countries: Type.Optional(Type.Array(Type.String({ maxLength: 10 }), { maxItems: 300 })),
  },
  { additionalProperties: false },
);
const Tax = Type.Object(
  {
    name: Type.String({ maxLength: 300 }),
    country: Type.String({ maxLength: 10 }),
    region: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 20 })])),
    rateBasisPoints: Type.Integer({ minimum: 0, maximum: 100000 }),
    appliesToShipping: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const Coupon = Type.Object(
  {
    code: Type.String({ maxLength: 100 }),
    kind: Type.String({ maxLength: 20 }),
    amount: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
    minSubtotalCents: Type.Optional(Cents),
    startsAt: Type.Optional(Millis),
    endsAt: Type.Optional(Millis),
    usageLimit: Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 0, maximum: 10_000_000 })])),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Store settings, shipping rules, tax rules and coupons of the owner API. */
export const storeSettingsRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;
  const site = siteApiRoutes(app, { tags, area: "store" });

  site.get(
    "/store",
    {},
    async (request) =>
      ({
        settings: await getStoreSettings(db, siteOf(request).id),
        currencies: SUPPORTED_CURRENCIES,
      }) satisfies StoreSettingsAnswer,
  );

  site.patch(
    "/store",
    {
      body: Type.Object(
        {
          currency: Type.Optional(Type.String({ maxLength: 10 })),
          useCLDRMoneyFormat: Type.Optional(Type.Boolean()),
          multipleQuantityAllowedForServices: Type.Optional(Type.Boolean()),
          customSoldOutText: Type.Optional(Type.String({ maxLength: 500 })),
          restockNotificationsEnabled: Type.Optional(Type.Boolean()),
          restockNotificationsSuccessText: Type.Optional(Type.String({ maxLength: 2000 })),
          soldOutVariantsDropdownDisabled: Type.Optional(Type.Boolean()),
          measurementStandard: Type.Optional(Type.String({ maxLength: 20 })),
        },
        { additionalProperties: false },
      ),
    },
    async (request) => ({
      settings: await updateStoreSettings(db, siteOf(request).id, request.body as never),
    }),
  );

  // Shipping, tax and coupons: the same four calls each.
  const crud = <T>(
    path: string,
    body: ReturnType<typeof Type.Object>,
    ops: {
      list: (websiteId: string) => Promise<unknown[]>;
      create: (websiteId: string, input: T) => Promise<unknown>;
      update: (websiteId: string, id: string, input: T) => Promise<unknown>;
      remove: (websiteId: string, id: string) => Promise<void>;
    },
  ) => {
    site.get(`/store/${path}`, {}, async (request) => ({ rules: await ops.list(siteOf(request).id) }));
    site.post(`/store/${path}`, { body }, async (request, reply) =>
      reply.status(201).send({ rule: await ops.create(siteOf(request).id, request.body as T) }),
    );
    site.put(`/store/${path}/:id`, { params: RuleParams, body }, async (request) => ({
      rule: await ops.update(siteOf(request).id, pathParam(request, "id"), request.body as T),
    }));
    site.delete(`/store/${path}/:id`, { params: RuleParams }, async (request) => {
      await ops.remove(siteOf(request).id, pathParam(request, "id"));
      return { ok: true };
    });
  };
  crud<ShippingInput>("shipping-rules", Shipping, {
    list: (w) => listShipping(db, w),
    create: (w, i) => createShipping(db, w, i),
    update: (w, id, i) => updateShipping(db, w, id, i),
    remove: (w, id) => deleteShipping(db, w, id),
  });
  crud<TaxInput>("tax-rules", Tax, {
    list: (w) => listTax(db, w),
    create: (w, i) => createTax(db, w, i),
    update: (w, id, i) => updateTax(db, w, id, i),
    remove: (w, id) => deleteTax(db, w, id),
  });
  crud<CouponInput>("coupons", Coupon, {
    list: (w) => listCoupons(db, w),
    create: (w, i) => createCoupon(db, w, i),
    update: (w, id, i) => updateCoupon(db, w, id, i),
    remove: (w, id) => deleteCoupon(db, w, id),
  });
};
