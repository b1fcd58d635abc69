import { type TSchema, Type } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { Db } from "../../db/client.js";
import type { siteApiRoutes } from "../../http/site-routes.js";
import type { Clock } from "../../lib/clock.js";
import { siteOf } from "../owner-sites/access.js";
import {
  type Interval,
  ensureRollups,
  funnelReport,
  productsReport,
  rangeOf,
  salesReport,
  siteOfReports,
  todayOf,
  trafficReport,
} from "./reports.js";

const LocalDate = Type.String({
  pattern: "^\\d{4}-\\d{2}-\\d{2}$",
  description: "A local date of the site (YYYY-MM-DD)",
});
const RangeQuery = {
  from: Type.Optional(LocalDate),
  to: Type.Optional(LocalDate),
};
const Int = Type.Integer();
const Ratio = Type.Number({ description: "0 to 1" });
const Period = { from: LocalDate, to: LocalDate };

const SalesFigures = Type.Object({
  orders: Int,
  units: Int,
  grossCents: Int,
  discountCents: Int,
  refundedCents: Int,
  refundedOrders: Int,
  revenueCents: Type.Integer({
    description: "Gross sales less discounts and refunds; shipping and tax apart",
  }),
  shippingCents: Int,
  taxCents: Int,
  averageOrderCents: Int,
});
const Visits = { visits: Int, visitors: Int };
const Keyed = Type.Array(Type.Object({ key: Type.String(), ...Visits }));
const TrafficTotals = Type.Object({ ...Visits, pageViews: Int });
const FunnelSteps = Type.Array(
  Type.Object({
    key: Type.String(),
    label: Type.String(),
    count: Int,
    fromPrevious: Ratio,
    fromFirst: Ratio,
  }),
);
const SiteFigures = { timeZone: Type.String(), currency: Type.String() };

type Registrar = ReturnType<typeof siteApiRoutes>;

/** The owner's reports (permission analytics.read): sales, products, funnel and traffic. */
export function registerReportRoutes(site: Registrar, db: Db, clock: Clock) {
  async function context(request: FastifyRequest) {
    const websiteId = siteOf(request).id;
    const reportSite = await siteOfReports(db, websiteId);
    const range = rangeOf(request.query as { from?: string; to?: string }, todayOf(reportSite, clock.now()));
    await ensureRollups(db, websiteId);
    return { reportSite, range };
  }
  const report = (
    path: string,
    summary: string,
    query: Record<string, TSchema>,
    body: Record<string, TSchema>,
  ) =>
    ({
      path,
      schema: {
        summary,
        querystring: Type.Object({ ...RangeQuery, ...query }, { additionalProperties: false }),
        response: { 200: Type.Object({ ...Period, ...body }) },
      },
    }) as const;

  const sales = report(
    "/analytics/sales",
    "Sales by day, week or month over a range of local dates (default: the last 30 days), with the previous period",
    {
      interval: Type.Optional(Type.Union([Type.Literal("day"), Type.Literal("week"), Type.Literal("month")])),
    },
    {
      interval: Type.String(),
      ...SiteFigures,
      totals: SalesFigures,
      series: Type.Array(Type.Intersect([Type.Object({ period: LocalDate }), SalesFigures])),
      compare: Type.Object({ ...Period, totals: SalesFigures }),
    },
  );
  site.get(sales.path, sales.schema, async (request) => {
    const { reportSite, range } = await context(request);
    const interval = ((request.query as { interval?: Interval }).interval ?? "day") as Interval;
    return salesReport(db, reportSite, range, interval);
  });

  const ProductTotals = Type.Object({ units: Int, revenueCents: Int });
  const products = report(
    "/analytics/products",
    "Top products and variants by revenue and units, and each product's views, adds to cart and orders",
    {},
    {
      ...SiteFigures,
      totals: ProductTotals,
      products: Type.Array(
        Type.Object({
          itemId: Type.String(),
          name: Type.String(),
          views: Int,
          adds: Int,
          orders: Int,
          units: Int,
          revenueCents: Int,
          viewToCart: Ratio,
          cartToOrder: Ratio,
        }),
      ),
      variants: Type.Array(
        Type.Object({
          itemId: Type.String(),
          variantId: Type.String(),
          name: Type.String(),
          orders: Int,
          units: Int,
          revenueCents: Int,
        }),
      ),
      compare: Type.Object({ ...Period, totals: ProductTotals }),
    },
  );
  site.get(products.path, products.schema, async (request) => {
    const { reportSite, range } = await context(request);
    return productsReport(db, reportSite, range);
  });

  const funnel = report(
    "/analytics/funnel",
    "The purchase funnel: visits, product views, adds to cart, checkouts started and purchases, with the conversion at each step",
    {},
    { timeZone: Type.String(), steps: FunnelSteps, compare: Type.Object({ ...Period, steps: FunnelSteps }) },
  );
  site.get(funnel.path, funnel.schema, async (request) => {
    const { reportSite, range } = await context(request);
    return funnelReport(db, reportSite, range);
  });

  const Pages = Type.Array(Type.Object({ path: Type.String(), pageViews: Int, visits: Int }));
  const traffic = report(
    "/analytics/traffic",
    "Visits, visitors and page views by day; sources, referring sites, UTM tags, top and entry pages, devices",
    {},
    {
      timeZone: Type.String(),
      totals: TrafficTotals,
      series: Type.Array(Type.Object({ day: LocalDate, ...Visits, pageViews: Int })),
      sources: Keyed,
      domains: Keyed,
      utmSources: Keyed,
      utmMediums: Keyed,
      utmCampaigns: Keyed,
      pages: Pages,
      entryPages: Type.Array(Type.Object({ path: Type.String(), ...Visits })),
      devices: Keyed,
      compare: Type.Object({ ...Period, totals: TrafficTotals }),
    },
  );
  site.get(traffic.path, traffic.schema, async (request) => {
    const { reportSite, range } = await context(request);
    return trafficReport(db, reportSite, range);
  });
}
