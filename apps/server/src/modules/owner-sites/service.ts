/**
 * An owner's websites: list, create from a built-in theme (website row, settings rows,
 * membership, a home page), rename, time zone, domains, and the site settings owners change
 * (comments, Disqus, liking, share buttons, cookie banner and policy, social links).
 */
import { recordVersion } from "../history/service.js";
import { recordNewSite } from "../activity/recording.js";
import { isValidEmail } from "@atelier/forms";
import { htmlToText } from "../../lib/sanitize-html.js";
import { isCartPillPosition } from "@atelier/commerce";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { BillingStatus, SiteStatus, WebsiteType } from "../../db/enums.js";
import { domains, memberships, storeSettings, websiteSettings, websites } from "../../db/schema.js";
import { ApiError, badRequest, notFound, throwFieldErrors } from "../../http/errors.js";
import { normalizeEmail } from "../../lib/email.js";
import { escapeHtml } from "../../lib/escape.js";
import { newId } from "../../lib/ids.js";
import type { Block, Row } from "../pages/blocks.js";
import { LIMIT_MESSAGES, urlWithinLimit } from "../pages/limits.js";
import { createPageIn, slugify } from "../pages/service.js";
import { type Website, siteBaseUrl } from "../sites/service.js";
import type { MediaStore } from "../../media/index.js";
import { applyStarter, writeArtwork } from "../starters/apply.js";
import { starterById } from "../starters/catalog.js";
import type { Member } from "./access.js";
import { permissionsOf } from "../members/permissions.js";
import { queueRollupRebuild } from "../analytics/rollups.js";

/** The built-in themes (apps/server/themes): any of them can start a site. */
export const BUILT_IN_THEMES = [
  {
    id: "commerce",
    name: "Commerce store",
    websiteType: WebsiteType.COMMERCE,
    description: "A shop with products, a home page and an about page.",
  },
  {
    id: "market",
    name: "Market",
    websiteType: WebsiteType.COMMERCE,
    description: "A bold modern store: confident type, a bright accent and a big product grid.",
  },
  {
    id: "classic",
    name: "Classic website",
    websiteType: WebsiteType.CLASSIC,
    description: "Pages, a blog and a contact page.",
  },
  {
    id: "harvest",
    name: "Harvest",
    websiteType: WebsiteType.CLASSIC,
    description: "Warm and editorial, for food, craft and lifestyle.",
  },
  {
    id: "studio",
    name: "Studio",
    websiteType: WebsiteType.CLASSIC,
    description: "A minimal portfolio: images first, quiet monochrome.",
  },
  {
    id: "cover",
    name: "Cover page",
    websiteType: WebsiteType.COVER_PAGE,
    description: "One striking page with a call to action.",
  },
] as const;
type ThemeId = (typeof BUILT_IN_THEMES)[number]["id"];

const websiteTypeName: Record<number, string> = {
  1: "classic",
  2: "cover page",
  3: "parking page",
  4: "commerce",
  5: "enterprise",
};

async function domainsOf(db: Db | Tx, websiteId: string) {
  return db
    .select({ host: domains.host, isPrimary: domains.isPrimary, status: domains.status })
    .from(domains)
    .where(eq(domains.websiteId, websiteId))
    .orderBy(asc(domains.createdAt));
}

/**
 * A site as the owner API shows it, with what the signed-in person is on it: `role` ("owner" or
 * "member"), their `roles` and the `permissions` these give (what the dashboard shows them).
 */
export async function siteJson(
  db: Db | Tx,
  site: Website,
  publicUrl: string,
  member: Member = { owner: true, roles: [] },
) {
  const list = await domainsOf(db, site.id);
  return {
    id: site.id,
    identifier: site.identifier,
    title: site.title,
    tagline: site.tagline,
    websiteType: site.websiteType,
    websiteTypeName: websiteTypeName[site.websiteType] ?? "classic",
    siteStatus: site.siteStatus,
    billingStatus: site.billingStatus,
    timeZone: site.timeZone,
    locale: site.locale,
    theme: site.theme,
    isDefault: site.isDefault,
    createdOn: site.createdAt.getTime(),
    contentVersion: site.contentVersion,
    domains: list,
    url: siteBaseUrl(site, publicUrl),
    role: member.owner ? "owner" : "member",
    roles: member.roles,
    permissions: permissionsOf(member),
  };
}

export async function listSites(db: Db, accountId: string, publicUrl: string) {
  const rows = await db
    .select({ website: websites, owner: memberships.owner, roles: memberships.roles })
    .from(memberships)
    .innerJoin(websites, eq(websites.id, memberships.websiteId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(asc(websites.createdAt));
  return Promise.all(rows.map((r) => siteJson(db, r.website, publicUrl, r)));
}

const TITLE_MAX = 100;

function checkTitle(title: string): string {
  const t = title.trim();
  if (!t) throw badRequest("Please give the site a title.", { title: "Required" });
  if (t.length > TITLE_MAX)
    throw badRequest(`A site title can be at most ${TITLE_MAX} characters.`, { title: "Too long" });
  return t;
}

const IDENTIFIER = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

let blockSeq = 0;
function blockId(): string {
  blockSeq = (blockSeq + 1) % 1296;
  return `b-${newId().slice(0, 12)}${blockSeq.toString(36)}`;
}
const text = (html: string): Block => ({ id: blockId(), type: "text", html });
const button = (label: string, href: string): Block => ({
  id: blockId(),
  type: "button",
  label,
  href,
  style: "primary",
  align: "left",
});
const row = (...columns: Block[][]): Row => ({
  columns: columns.map((blocks) => ({ span: Math.floor(12 / columns.length), blocks })),
});

interface NewSite {
  title: string;
  /** A starter (modules/starters) brings its theme, pages and sample content. */
  starter?: string;
  /** Any built-in theme; a starter's own theme unless given, else classic. */
  theme?: ThemeId;
  identifier?: string;
  timeZone?: string;
}

/** What creating a site needs besides the database: where the starter's artwork goes, and the time. */
interface CreateDeps {
  media: MediaStore;
  now: Date;
}

/** A new website from a built-in theme, with its settings, the owner's membership and starter pages. */
export async function createSite(
  db: Db,
  account: { id: string; email: string },
  input: NewSite,
  publicUrl: string,
  /** Needed for a starter (its artwork and dates); a bare theme needs nothing more. */
  deps?: CreateDeps,
) {
  const title = checkTitle(input.title);
  const starter = input.starter === undefined ? undefined : starterById(input.starter);
  if (input.starter !== undefined && !starter)
    throw badRequest("Choose one of the starters.", { starter: "Unknown starter" });
  if (starter && !deps) throw new Error("createSite: a starter needs the media store and the time");
  const theme = BUILT_IN_THEMES.find((t) => t.id === (input.theme ?? starter?.theme ?? "classic"));
  if (!theme) throw badRequest("Choose one of the built-in themes.", { theme: "Unknown theme" });
  const websiteType = starter?.websiteType ?? theme.websiteType;
  if (input.timeZone !== undefined) checkTimeZone(input.timeZone);
  const wanted = input.identifier?.trim().toLowerCase();
  if (wanted !== undefined && !IDENTIFIER.test(wanted))
    throw badRequest("A site address can use lowercase letters, digits and hyphens (at most 63).", {
      identifier: "Invalid",
    });
  const site = await db.transaction(async (tx) => {
    let identifier = wanted ?? slugify(title).slice(0, 50).replace(/-+$/, "");
    const taken = async (id: string) =>
      (await tx.select({ id: websites.id }).from(websites).where(eq(websites.identifier, id))).length > 0;
    if (await taken(identifier)) {
      if (wanted) throw new ApiError(409, "conflict", "That site address is taken.", { identifier: "Taken" });
      let n = 2;
      while (await taken(`${identifier}-${n}`)) n++;
      identifier = `${identifier}-${n}`;
    }
    const id = newId();
    const [row0] = await tx
      .insert(websites)
      .values({
        id,
        identifier,
        title,
        tagline: starter?.tagline ?? "",
        websiteType,
        siteStatus: SiteStatus.TRIAL,
        billingStatus: BillingStatus.TRIAL,
        timeZone: input.timeZone ?? "America/New_York",
        theme: theme.id,
        featureSetId: websiteType === WebsiteType.COMMERCE ? "commerce-advanced" : "business",
      })
      .returning();
    await tx.insert(websiteSettings).values({ websiteId: id, contactEmail: account.email });
    await tx.insert(storeSettings).values({ websiteId: id });
    await tx.insert(memberships).values({ accountId: account.id, websiteId: id, owner: true });
    const art = starter ? await applyStarter(tx, id, starter, account.email, deps!.now) : [];
    if (!starter) await starterPages(tx, id, websiteType, title);
    await recordNewSite(tx, id);
    return { row: row0!, art };
  });
  if (deps) await writeArtwork(deps.media, site.row.id, site.art);
  return siteJson(db, site.row, publicUrl);
}

async function starterPages(tx: Tx, websiteId: string, websiteType: number, title: string) {
  const t = escapeHtml(title);
  if (websiteType === WebsiteType.COVER_PAGE) {
    await createPageIn(tx, websiteId, {
      kind: "page",
      title: "Home",
      isHome: true,
      layout: {
        rows: [row([text(`<h1>${t}</h1><p>Something wonderful is on its way.</p>`)])],
      },
    });
    return;
  }
  if (websiteType === WebsiteType.COMMERCE) {
    const shop = await createPageIn(tx, websiteId, { kind: "products", title: "Shop", description: "" });
    await createPageIn(tx, websiteId, {
      kind: "page",
      title: "Home",
      isHome: true,
      layout: {
        rows: [
          row([text(`<h1>${t}</h1><p>Welcome to our shop.</p>`), button("Shop now", "/shop")]),
          row([
            { id: blockId(), type: "summary", collectionId: shop.id, title: "New in the shop", limit: 4 },
          ]),
        ],
      },
    });
    await createPageIn(tx, websiteId, {
      kind: "page",
      title: "About",
      layout: { rows: [row([text("<h2>About us</h2><p>Tell your visitors who you are.</p>")])] },
    });
    return;
  }
  await createPageIn(tx, websiteId, {
    kind: "page",
    title: "Home",
    isHome: true,
    layout: { rows: [row([text(`<h1>${t}</h1><p>Welcome. Start by telling visitors what you do.</p>`)])] },
  });
  await createPageIn(tx, websiteId, {
    kind: "page",
    title: "About",
    layout: { rows: [row([text("<h2>About</h2><p>Tell your visitors who you are.</p>")])] },
  });
  await createPageIn(tx, websiteId, { kind: "blog", title: "Blog" });
}

let zones: Set<string> | undefined;
function checkTimeZone(zone: string): string {
  zones ??= new Set(Intl.supportedValuesOf("timeZone"));
  if (!zones.has(zone) && zone !== "UTC")
    throw badRequest("Choose a time zone from the list, for example America/New_York.", {
      timeZone: "Unknown time zone",
    });
  return zone;
}

export const LOCALES = [
  "en-US",
  "en-GB",
  "en-CA",
  "en-AU",
  "en-NZ",
  "fr-CA",
  "fr-FR",
  "de-DE",
  "es-ES",
  "it-IT",
  "ja-JP",
];

interface SitePatch {
  title?: string;
  tagline?: string;
  timeZone?: string;
  locale?: string;
}

export async function updateSite(db: Db, site: Website, patch: SitePatch, publicUrl: string) {
  const set: Partial<typeof websites.$inferInsert> = {};
  if (patch.title !== undefined) set.title = checkTitle(patch.title);
  if (patch.tagline !== undefined) {
    if (patch.tagline.length > 300)
      throw badRequest("A tagline can be at most 300 characters.", { tagline: "Too long" });
    set.tagline = htmlToText(patch.tagline);
  }
  if (patch.timeZone !== undefined) set.timeZone = checkTimeZone(patch.timeZone);
  if (patch.locale !== undefined) {
    if (!LOCALES.includes(patch.locale))
      throw badRequest("Choose a language from the list.", { locale: "Unknown" });
    set.locale = patch.locale;
  }
  if (!Object.keys(set).length) return siteJson(db, site, publicUrl);
  const row = await db.transaction(async (tx) => {
    const [r] = await tx
      .update(websites)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(websites.id, site.id))
      .returning();
    await recordVersion(tx, site.id, { type: "settings", id: site.id }, "save");
    // Analytics rollups are kept per local day: a new time zone moves every day's boundaries.
    if (set.timeZone && set.timeZone !== site.timeZone) await queueRollupRebuild(tx, site.id);
    return r!;
  });
  return siteJson(db, row, publicUrl);
}

// ─── Site settings ──────────────────────────────────────────────────────────────────────────

export const SHARE_SERVICES = [
  "facebook",
  "twitter",
  "pinterest",
  "linkedin",
  "tumblr",
  "reddit",
  "email",
] as const;
export const SOCIAL_SERVICES = [
  "instagram",
  "facebook",
  "twitter",
  "pinterest",
  "linkedin",
  "youtube",
  "vimeo",
  "tiktok",
  "tumblr",
  "github",
  "email",
] as const;

function settingsJson(s: typeof websiteSettings.$inferSelect) {
  return {
    commentsEnabled: s.commentsEnabled,
    disqusShortName: s.disqusShortName ?? "",
    simpleLikingEnabled: s.simpleLikingEnabled,
    shareButtonOptions: Object.fromEntries(SHARE_SERVICES.map((k) => [k, Boolean(s.shareButtonOptions[k])])),
    cookieBannerEnabled: s.cookieBannerEnabled,
    restrictiveCookiePolicy: s.restrictiveCookiePolicy,
    restrictiveCookiePolicyAbsolute: s.restrictiveCookiePolicyAbsolute,
    socialLinks: s.socialLinks,
    contactEmail: s.contactEmail ?? "",
    useCLDRMoneyFormat: s.useCldrMoneyFormat,
    cartPillPosition: s.cartPillPosition,
    adPixelId: s.adPixelId ?? "",
    hideFromSearchEngines: s.hideFromSearchEngines,
  };
}

async function settingsRow(db: Db | Tx, websiteId: string) {
  const [row] = await db.select().from(websiteSettings).where(eq(websiteSettings.websiteId, websiteId));
  if (row) return row;
  const [created] = await db.insert(websiteSettings).values({ websiteId }).onConflictDoNothing().returning();
  return (
    created ?? (await db.select().from(websiteSettings).where(eq(websiteSettings.websiteId, websiteId)))[0]!
  );
}

export async function siteSettings(db: Db, websiteId: string) {
  return settingsJson(await settingsRow(db, websiteId));
}

interface SettingsPatch {
  commentsEnabled?: boolean;
  disqusShortName?: string;
  simpleLikingEnabled?: boolean;
  shareButtonOptions?: Record<string, boolean>;
  cookieBannerEnabled?: boolean;
  restrictiveCookiePolicy?: boolean;
  restrictiveCookiePolicyAbsolute?: boolean;
  socialLinks?: { service: string; profileUrl: string; userName?: string }[];
  contactEmail?: string;
  useCLDRMoneyFormat?: boolean;
  cartPillPosition?: string;
  adPixelId?: string;
  hideFromSearchEngines?: boolean;
}

export async function updateSiteSettings(db: Db, websiteId: string, patch: SettingsPatch) {
  const set: Partial<typeof websiteSettings.$inferInsert> = {};
  const fields: Record<string, string> = {};
  for (const k of [
    "commentsEnabled",
    "simpleLikingEnabled",
    "cookieBannerEnabled",
    "restrictiveCookiePolicy",
    "restrictiveCookiePolicyAbsolute",
    "hideFromSearchEngines",
  ] as const) {
    if (patch[k] !== undefined) set[k] = patch[k];
  }
  if (patch.useCLDRMoneyFormat !== undefined) set.useCldrMoneyFormat = patch.useCLDRMoneyFormat;
  if (patch.cartPillPosition !== undefined) {
    if (!isCartPillPosition(patch.cartPillPosition))
      fields.cartPillPosition = "Choose one of the nine places for the cart pill.";
    else set.cartPillPosition = patch.cartPillPosition;
  }
  if (patch.adPixelId !== undefined) {
    const v = patch.adPixelId.trim();
    if (v && !/^[0-9]{5,20}$/.test(v))
      fields.adPixelId = "A pixel id is the number Meta shows for your pixel (5 to 20 digits).";
    else set.adPixelId = v || null;
  }
  if (patch.disqusShortName !== undefined) {
    const v = patch.disqusShortName.trim().toLowerCase();
    if (v && !/^[a-z0-9][a-z0-9-]{0,63}$/.test(v))
      fields.disqusShortName = "A Disqus short name uses letters, digits and hyphens.";
    else set.disqusShortName = v || null;
  }
  if (patch.shareButtonOptions !== undefined) {
    const unknown = Object.keys(patch.shareButtonOptions).filter(
      (k) => !(SHARE_SERVICES as readonly string[]).includes(k),
    );
    if (unknown.length) fields.shareButtonOptions = `Unknown share service ${unknown[0]}.`;
    else
      set.shareButtonOptions = Object.fromEntries(
        SHARE_SERVICES.map((k) => [k, Boolean(patch.shareButtonOptions![k])]),
      );
  }
  if (patch.socialLinks !== undefined) {
    const out: { service: string; profileUrl: string; userName?: string }[] = [];
    for (const [i, l] of patch.socialLinks.entries()) {
      const url = l.profileUrl.trim();
      if (!(SOCIAL_SERVICES as readonly string[]).includes(l.service))
        fields[`socialLinks.${i}.service`] = "Unknown service";
      else if (!urlWithinLimit(url)) fields[`socialLinks.${i}.profileUrl`] = LIMIT_MESSAGES.url;
      else if (
        l.service === "email"
          ? !isValidEmail(url.replace(/^mailto:/, ""))
          : !/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(url)
      )
        fields[`socialLinks.${i}.profileUrl`] =
          l.service === "email"
            ? "Enter an email address."
            : "Enter the full address of your profile, starting with https://.";
      else
        out.push({
          service: l.service,
          profileUrl: url,
          ...(l.userName?.trim() ? { userName: l.userName.trim() } : {}),
        });
    }
    set.socialLinks = out;
  }
  if (patch.contactEmail !== undefined) {
    const e = normalizeEmail(patch.contactEmail);
    if (e && !isValidEmail(e)) fields.contactEmail = "Email is invalid";
    else set.contactEmail = e || null;
  }
  throwFieldErrors(fields);
  return db.transaction(async (tx) => {
    await settingsRow(tx, websiteId);
    if (Object.keys(set).length) {
      await tx
        .update(websiteSettings)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(websiteSettings.websiteId, websiteId));
      await recordVersion(tx, websiteId, { type: "settings", id: websiteId }, "save");
    }
    return settingsJson(await settingsRow(tx, websiteId));
  });
}
