/**
 * The setup guide of a site's overview (docs/starters.md): what is left before the site is
 * ready, each step computed from the site's data (never from clicks), and whether the owner
 * closed the guide.
 */
import { and, count, eq, gt } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { BillingStatus, RecordType, SiteStatus, WebsiteType } from "../../db/enums.js";
import {
  collections,
  contentItems,
  domains,
  shippingRules,
  siteDesigns,
  taxRules,
  websiteSettings,
  websites,
} from "../../db/schema.js";
import type { Website } from "../sites/service.js";

export interface SetupStep {
  id: string;
  title: string;
  done: boolean;
  /** The dashboard screen where the step is done (a path under /config). */
  href: string;
}

export interface SetupGuide {
  steps: SetupStep[];
  dismissed: boolean;
}

const rowsIn = async (query: Promise<{ n: number }[]>) => Number((await query)[0]?.n ?? 0) > 0;

/** The guide of one site; commerce steps only for stores. `cardPayments`: a card provider is connected. */
export async function setupGuide(db: Db, site: Website, cardPayments: boolean): Promise<SetupGuide> {
  const w = site.id;
  const at = (path: string) => `/sites/${w}${path ? `/${path}` : ""}`;
  const [design] = await db.select().from(siteDesigns).where(eq(siteDesigns.websiteId, w));
  const [settings] = await db
    .select({ dismissed: websiteSettings.setupGuideDismissed })
    .from(websiteSettings)
    .where(eq(websiteSettings.websiteId, w));
  const [realProduct, shipping, tax, domain, ownPage] = await Promise.all([
    rowsIn(
      db
        .select({ n: count() })
        .from(contentItems)
        .where(
          and(
            eq(contentItems.websiteId, w),
            eq(contentItems.recordType, RecordType.STORE_ITEM),
            eq(contentItems.isSample, false),
          ),
        ),
    ),
    rowsIn(db.select({ n: count() }).from(shippingRules).where(eq(shippingRules.websiteId, w))),
    rowsIn(db.select({ n: count() }).from(taxRules).where(eq(taxRules.websiteId, w))),
    // A domain counts once it is verified: until then it serves nothing of the site.
    rowsIn(
      db
        .select({ n: count() })
        .from(domains)
        .where(and(eq(domains.websiteId, w), eq(domains.status, "verified"))),
    ),
    // The site's first pages are written with the site, in its transaction (same created time).
    rowsIn(
      db
        .select({ n: count() })
        .from(collections)
        .innerJoin(websites, eq(websites.id, collections.websiteId))
        .where(and(eq(collections.websiteId, w), gt(collections.createdAt, websites.createdAt))),
    ),
  ]);
  const store = site.websiteType === WebsiteType.COMMERCE;
  const live =
    site.siteStatus === SiteStatus.PAID ||
    site.siteStatus === SiteStatus.COMPED ||
    site.siteStatus === SiteStatus.INTERNAL ||
    site.billingStatus === BillingStatus.SUBSCRIBED;
  const steps: (SetupStep | false)[] = [
    {
      id: "title-logo",
      title: "Give the site its title and logo",
      done: Boolean(site.title.trim() && design?.logoMediaId),
      href: at("design/identity"),
    },
    store && {
      id: "first-product",
      title: "Add your first product",
      done: realProduct,
      href: at("products"),
    },
    store && {
      id: "shipping-tax",
      title: "Set up shipping and tax",
      done: shipping && tax,
      href: at(shipping ? "store/tax" : "store/shipping"),
    },
    store && {
      id: "payments",
      title: "Set up card payments",
      done: cardPayments,
      href: at("store"),
    },
    { id: "domain", title: "Connect a domain", done: domain, href: at("settings/domains") },
    { id: "own-page", title: "Add a page of your own", done: ownPage, href: at("pages") },
    {
      id: "publish",
      title: "Publish the site: choose a plan",
      done: live,
      href: at("settings/billing/billing/upgrade"),
    },
  ];
  return { steps: steps.filter((s): s is SetupStep => Boolean(s)), dismissed: settings?.dismissed ?? false };
}

/** Closes or reopens the guide. */
export async function setSetupGuideDismissed(db: Db, websiteId: string, dismissed: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(websiteSettings)
      .set({ setupGuideDismissed: dismissed })
      .where(eq(websiteSettings.websiteId, websiteId));
  });
}
