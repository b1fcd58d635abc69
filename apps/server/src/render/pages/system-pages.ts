/**
 * System pages (search, donations, membership, newsletter, popup, with the store pages of
 * commerce-pages.ts) and the access gate: lock screen, protected content, member-area access denied.
 */
import { PageType } from "../../db/enums.js";
import type { Collection } from "../../modules/content/service.js";
import { searchSite } from "../../modules/search/service.js";
import { Feature } from "@atelier/owner-api";
import { memberRule } from "../access.js";
import { resolveLayout } from "../blocks.js";
import { COMMERCE_ISLANDS, COMMERCE_PAGES } from "./commerce-pages.js";
import { type Ctx, type Json, type PageResult, type SystemPage, blockDeps, blocksOf } from "./shared.js";

/** System pages: path → page type, template and title (SPEC §2 page types). */
export const SYSTEM_PAGES: Record<string, SystemPage> = {
  ...COMMERCE_PAGES,
  search: { pageType: PageType.SEARCH, template: "search", title: "Search" },
  donate: { pageType: PageType.DONATE, template: "system", title: "Donate" },
  "donate/confirmed": {
    pageType: PageType.CONTRIBUTION_CONFIRMED,
    template: "system",
    title: "Thank you for your contribution",
  },
  "membership-confirmed": {
    pageType: PageType.MEMBERSHIP_CONFIRMED,
    template: "system",
    title: "Welcome, you are a member",
  },
  "newsletter/unsubscribe": {
    pageType: PageType.NEWSLETTER_UNSUBSCRIBE,
    template: "system",
    title: "Unsubscribe",
  },
  "popup-overlay": {
    pageType: PageType.POPUP_OVERLAY,
    template: "popup-overlay",
    title: "Stay in touch",
    cacheable: true,
  },
};

/** The island a system page hands over to, and its message. */
const SYSTEM_ISLANDS: Record<number, { island: string; message: string }> = {
  ...COMMERCE_ISLANDS,
  [PageType.DONATE]: { island: "donate", message: "Every contribution helps us keep making things slowly." },
  [PageType.CONTRIBUTION_CONFIRMED]: {
    island: "contribution-confirmed",
    message: "Thank you for your generosity. A receipt is on its way to your inbox.",
  },
  [PageType.MEMBERSHIP_CONFIRMED]: {
    island: "membership-confirmed",
    message: "Your membership is active: the members' pages are open to you now.",
  },
  [PageType.NEWSLETTER_UNSUBSCRIBE]: {
    island: "newsletter-unsubscribe",
    message: "Enter your email address to stop receiving our newsletter.",
  },
};

/** Lock screen (103), protected content (105) or member-area access denied (106), when they apply. */
export async function accessGate(ctx: Ctx, c: Collection): Promise<PageResult | undefined> {
  const { req, page } = ctx;
  if (c.passwordHash || memberRule(c).members) ctx.state.private = true;
  if (c.passwordHash && !req.visitor.isUnlocked(c) && !req.editing?.override) {
    return page(
      401,
      PageType.LOCK_SCREEN,
      "lock-screen",
      {
        pageTitle: "This page is password protected",
        lockScreen: {
          collectionId: c.id,
          title: c.title,
          redirect: req.path,
          failed: req.query.unlock === "failed",
        },
      },
      false,
    );
  }
  const rule = memberRule(c);
  if (!rule.members || !ctx.features.has(Feature.MEMBER_AREAS)) return undefined;
  const user = req.visitor.siteUserId;
  if (!user) {
    return page(
      401,
      PageType.PROTECTED_CONTENT,
      "protected-content",
      {
        pageTitle: "Members only",
        protectedContent: {
          title: c.title,
          loginUrl: `/account/login?redirect=${encodeURIComponent(req.path)}`,
        },
      },
      false,
    );
  }
  if (rule.allowed && !rule.allowed.includes(user)) {
    return page(
      403,
      PageType.MEMBER_AREA_ACCESS_DENIED,
      "access-denied",
      { pageTitle: "Access denied", accessDenied: { title: c.title } },
      false,
    );
  }
  return undefined;
}

export async function systemPage(ctx: Ctx, system: SystemPage): Promise<PageResult> {
  const { req, page, features } = ctx;
  if (system.pageType === PageType.DONATE || system.pageType === PageType.CONTRIBUTION_CONFIRMED) {
    if (!features.has(Feature.DONATION_BLOCK)) return ctx.notFound();
  }
  if (system.pageType === PageType.MEMBERSHIP_CONFIRMED && !features.has(Feature.MEMBER_AREAS))
    return ctx.notFound();
  if (system.pageType === PageType.SEARCH) {
    const q = (req.query.q ?? "").trim().slice(0, 200);
    const results = q ? await searchSite(ctx.db, ctx.site.id, q, { limit: 30, now: req.now }) : [];
    return page(
      200,
      system.pageType,
      system.template,
      {
        pageTitle: q ? `Search: ${q}` : "Search",
        search: { query: q, results, resultCount: results.length, searched: q.length > 0 },
        // SPEC §2: no automatic page-view hit on the search page.
        analytics: { pageViewHit: false },
      },
      false,
    );
  }
  if (system.pageType === PageType.POPUP_OVERLAY) {
    const formId = ctx.all.flatMap((c) => blocksOf(c.layout)).find((b) => b.type === "newsletter")?.formId;
    const layout = formId
      ? await resolveLayout(blockDeps(ctx), {
          rows: [
            {
              columns: [
                {
                  blocks: [
                    {
                      id: "popup-newsletter",
                      type: "newsletter",
                      formId,
                      title: "Letters from the studio",
                      description: "New work, events and the occasional recipe. Once a month, never more.",
                    },
                  ],
                },
              ],
            },
          ],
        })
      : { rows: [] };
    return page(200, system.pageType, system.template, { pageTitle: system.title, layout });
  }
  const island = SYSTEM_ISLANDS[system.pageType];
  const params: Json = {};
  for (const key of ["orderId", "cartToken", "email", "token"]) {
    const v = req.query[key];
    if (typeof v === "string" && v.length <= 200) params[key] = v;
  }
  return page(
    200,
    system.pageType,
    system.template,
    {
      pageTitle: system.title,
      systemPage: {
        title: system.title,
        message: island?.message ?? "",
        island: island?.island,
        props: params,
      },
    },
    Boolean(system.cacheable) && Object.keys(params).length === 0,
  );
}
