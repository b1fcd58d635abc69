/** The answers of the owner API's analytics reports (apps/server/src/modules/analytics/report-routes.ts). */
interface Period {
  from: string;
  to: string;
}

export interface SalesFigures {
  orders: number;
  units: number;
  grossCents: number;
  discountCents: number;
  refundedCents: number;
  refundedOrders: number;
  revenueCents: number;
  shippingCents: number;
  taxCents: number;
  averageOrderCents: number;
}

export interface Sales extends Period {
  interval: string;
  timeZone: string;
  currency: string;
  totals: SalesFigures;
  series: (SalesFigures & { period: string })[];
  compare: Period & { totals: SalesFigures };
}

interface ProductTotals {
  units: number;
  revenueCents: number;
}

export interface Products extends Period {
  timeZone: string;
  currency: string;
  totals: ProductTotals;
  products: {
    itemId: string;
    name: string;
    views: number;
    adds: number;
    orders: number;
    units: number;
    revenueCents: number;
    viewToCart: number;
    cartToOrder: number;
  }[];
  variants: {
    itemId: string;
    variantId: string;
    name: string;
    orders: number;
    units: number;
    revenueCents: number;
  }[];
  compare: Period & { totals: ProductTotals };
}

interface FunnelStep {
  key: string;
  label: string;
  count: number;
  fromPrevious: number;
  fromFirst: number;
}

export interface Funnel extends Period {
  timeZone: string;
  steps: FunnelStep[];
  compare: Period & { steps: FunnelStep[] };
}

type Keyed = { key: string; visits: number; visitors: number }[];
interface TrafficTotals {
  visits: number;
  visitors: number;
  pageViews: number;
}

export interface Traffic extends Period {
  timeZone: string;
  totals: TrafficTotals;
  series: ({ day: string } & TrafficTotals)[];
  sources: Keyed;
  domains: Keyed;
  utmSources: Keyed;
  utmMediums: Keyed;
  utmCampaigns: Keyed;
  pages: { path: string; pageViews: number; visits: number }[];
  entryPages: { path: string; visits: number; visitors: number }[];
  devices: Keyed;
  compare: Period & { totals: TrafficTotals };
}
