/**
 * A site's design: its theme (on the website row), its styles (changes from the theme's defaults),
 * custom CSS, logo, site icon and social-sharing image. Reading and changing it for the owner
 * API, and what a published page needs of it (cached per content version: any change bumps it).
 */
import { recordVersion } from "../history/service.js";
import { createHash } from "node:crypto";
import {
  AA_TEXT_CONTRAST,
  contrastRatio,
  type Design,
  formatContrast,
  LOGO_ALT_MAX_LENGTH,
  TEXT_CONTRAST_PAIRS,
} from "@atelier/owner-api";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { siteDesigns, websites } from "../../db/schema.js";
import { throwFieldErrors } from "../../http/errors.js";
import { THEME_NAMES, type ThemeInfo, readThemeInfo } from "../../render/themes.js";
import { mediaByIds } from "../content/service.js";
import { mediaUrl } from "../media/storage.js";
import type { Website } from "../sites/service.js";
import { customCssProblem } from "./css-guard.js";
import { FONTS, facesFor, fontFaceCss, preloadsFor } from "./fonts.js";
import { ICON_SIZES, iconUrl } from "./icons.js";
import { screenshotUrl } from "./screenshots.js";
import {
  type StyleOverrides,
  type Styles,
  applyStylePatch,
  effectiveStyles,
  overridesFor,
} from "./styles.js";
import { changedTokens, rootBlock } from "./tokens.js";

type DesignRow = typeof siteDesigns.$inferSelect;

export const DESIGN_MSG = {
  THEME: "Choose one of the themes in the gallery.",
  MEDIA: "Choose an image from this site's media library.",
  LOGO_HEIGHT: "The logo height must be between 24 and 200 px.",
  LOGO_ALT: `The logo's alternative text can be at most ${LOGO_ALT_MAX_LENGTH} characters.`,
} as const;

let catalog: ThemeInfo[] | undefined;
/** The built-in themes, read once from their theme.json files. */
export function themeCatalog(): ThemeInfo[] {
  catalog ??= THEME_NAMES.map((name) => readThemeInfo(name));
  return catalog;
}

/** The theme a site shows: its own, else the first made for its website type (as the renderer picks). */
function themeOf(site: Pick<Website, "theme" | "websiteType">): ThemeInfo {
  const all = themeCatalog();
  return (
    all.find((t) => t.name === site.theme) ??
    all.find((t) => t.websiteTypes.includes(site.websiteType)) ??
    all.find((t) => t.name === "classic")!
  );
}

const EMPTY: Omit<DesignRow, "websiteId" | "updatedAt"> = {
  styles: {},
  customCss: "",
  logoMediaId: null,
  logoAlt: "",
  logoMaxHeight: 48,
  siteIconMediaId: null,
  socialImageMediaId: null,
};

async function rowOf(db: Db, websiteId: string) {
  const [row] = await db.select().from(siteDesigns).where(eq(siteDesigns.websiteId, websiteId));
  return row ?? { ...EMPTY, websiteId, updatedAt: new Date(0) };
}

/** The site's media of these ids (another site's ids are simply not found). */
const mediaOf = (db: Db, websiteId: string, ids: (string | null)[]) =>
  mediaByIds(
    db,
    websiteId,
    ids.filter((x): x is string => Boolean(x)),
  );

const cssHash = (css: string) => createHash("sha256").update(css).digest("hex").slice(0, 12);

/** Where a site's custom CSS is served (its content hash in the name). */
export const customCssUrl = (css: string) => `/assets/site-css/custom.${cssHash(css)}.css`;

/** Text below WCAG AA (AA_TEXT_CONTRAST, 4.5:1) against its background: the Styles screen's badges check the same pairs. */
function contrastWarnings(s: Styles): { field: string; message: string }[] {
  return (
    TEXT_CONTRAST_PAIRS
      // Stored colours passed the style check, so each ratio is a number.
      .map((p) => ({ ...p, ratio: contrastRatio(s.colors[p.fg], s.colors[p.bg])! }))
      .filter((p) => p.ratio < AA_TEXT_CONTRAST)
      .map((p) => ({
        field: `styles.colors.${p.fg}`,
        message: `${p.label} has a contrast of ${formatContrast(p.ratio)}, below the ${AA_TEXT_CONTRAST}:1 that WCAG AA asks for.`,
      }))
  );
}

/** What the site's emails take from its design: the effective colours and fonts, and the logo. */
export async function emailDesignOf(
  db: Db,
  site: Pick<Website, "id" | "theme" | "websiteType">,
): Promise<{ styles: Styles; logo: { path: string; alt: string; maxHeight: number } | null }> {
  const row = await rowOf(db, site.id);
  const styles = effectiveStyles(themeOf(site).styles, row.styles as StyleOverrides);
  const logo = row.logoMediaId
    ? (await mediaOf(db, site.id, [row.logoMediaId])).get(row.logoMediaId)
    : undefined;
  return {
    styles,
    logo: logo
      ? { path: mediaUrl(logo.id, logo.filename), alt: row.logoAlt, maxHeight: row.logoMaxHeight }
      : null,
  };
}

/** The design as the owner API answers it (GET and PATCH). */
export async function getDesign(
  db: Db,
  site: Pick<Website, "id" | "theme" | "websiteType">,
): Promise<Design> {
  const row = await rowOf(db, site.id);
  const theme = themeOf(site);
  const overrides = row.styles as StyleOverrides;
  const styles = effectiveStyles(theme.styles, overrides);
  const found = await mediaOf(db, site.id, [row.logoMediaId, row.siteIconMediaId, row.socialImageMediaId]);
  const image = (id: string | null) => {
    const m = id ? found.get(id) : undefined;
    return m ? { mediaId: m.id, url: mediaUrl(m.id, m.filename) } : null;
  };
  const logo = image(row.logoMediaId);
  return {
    theme: theme.name,
    themes: themeCatalog().map((t) => ({
      id: t.name,
      name: t.title,
      description: t.description,
      screenshotUrl: screenshotUrl(t.name),
      websiteTypes: t.websiteTypes,
    })),
    styles,
    overrides,
    defaults: theme.styles,
    warnings: contrastWarnings(styles),
    customCss: row.customCss,
    customCssUrl: row.customCss ? customCssUrl(row.customCss) : null,
    logo: logo ? { ...logo, alt: row.logoAlt, maxHeight: row.logoMaxHeight } : null,
    siteIcon: image(row.siteIconMediaId),
    socialImage: image(row.socialImageMediaId),
    fonts: FONTS.map((f) => ({ id: f.id, name: f.name, category: f.category })),
  };
}

export interface DesignPatch {
  theme?: string;
  styles?: Record<string, unknown> | null;
  customCss?: string | null;
  logoMediaId?: string | null;
  logoAlt?: string | null;
  logoMaxHeight?: number | null;
  siteIconMediaId?: string | null;
  socialImageMediaId?: string | null;
}

/**
 * Changes any part of a site's design in one transaction. Every field is checked first; one bad
 * field refuses the whole change (400 with a message per field) and nothing is saved.
 */
export async function updateDesign(db: Db, site: Website, patch: DesignPatch): Promise<Design> {
  const fields: Record<string, string> = {};
  const row = await rowOf(db, site.id);
  const next = { ...row };

  if (patch.theme !== undefined && !themeCatalog().some((t) => t.name === patch.theme))
    fields.theme = DESIGN_MSG.THEME;
  if (patch.styles === null) next.styles = {};
  else if (patch.styles !== undefined) {
    const applied = applyStylePatch(overridesFor(row.styles as StyleOverrides), patch.styles);
    Object.assign(fields, applied.fields);
    next.styles = applied.styles as Record<string, unknown>;
  }
  if (patch.customCss !== undefined) {
    const css = patch.customCss ?? "";
    const problem = customCssProblem(css);
    if (problem) fields.customCss = problem;
    next.customCss = css;
  }
  if (patch.logoAlt !== undefined) {
    const alt = (patch.logoAlt ?? "").trim();
    if (alt.length > LOGO_ALT_MAX_LENGTH) fields.logoAlt = DESIGN_MSG.LOGO_ALT;
    next.logoAlt = alt;
  }
  if (patch.logoMaxHeight !== undefined) {
    const h = patch.logoMaxHeight ?? EMPTY.logoMaxHeight;
    if (!Number.isInteger(h) || h < 24 || h > 200) fields.logoMaxHeight = DESIGN_MSG.LOGO_HEIGHT;
    next.logoMaxHeight = h;
  }
  const images = ["logoMediaId", "siteIconMediaId", "socialImageMediaId"] as const;
  const asked = images.filter((k) => typeof patch[k] === "string").map((k) => patch[k] as string);
  const found = await mediaOf(db, site.id, asked);
  for (const k of images) {
    const v = patch[k];
    if (v === undefined) continue;
    if (v !== null && !found.has(v)) fields[k] = DESIGN_MSG.MEDIA;
    next[k] = v;
  }

  throwFieldErrors(fields);

  await db.transaction(async (tx) => {
    const values = {
      styles: next.styles,
      customCss: next.customCss,
      logoMediaId: next.logoMediaId,
      logoAlt: next.logoAlt,
      logoMaxHeight: next.logoMaxHeight,
      siteIconMediaId: next.siteIconMediaId,
      socialImageMediaId: next.socialImageMediaId,
      updatedAt: new Date(),
    };
    await tx
      .insert(siteDesigns)
      .values({ websiteId: site.id, ...values })
      .onConflictDoUpdate({ target: siteDesigns.websiteId, set: values });
    if (patch.theme !== undefined && patch.theme !== site.theme)
      await tx
        .update(websites)
        .set({ theme: patch.theme, updatedAt: new Date() })
        .where(eq(websites.id, site.id));
    await recordVersion(tx, site.id, { type: "design", id: site.id }, "save");
  });
  return getDesign(db, { ...site, theme: patch.theme ?? site.theme });
}

/**
 * The CSS a change of styles would give, without saving it: the `@font-face` rules of its fonts
 * and its `:root` block, for the editing frame's live preview. The same rules as a change.
 */
export async function previewStyles(
  db: Db,
  site: Website,
  patch: Record<string, unknown> | null,
): Promise<{ styles: Styles; css: string }> {
  const row = await rowOf(db, site.id);
  const theme = themeOf(site);
  const { styles: overrides, fields } = patch
    ? applyStylePatch(overridesFor(row.styles as StyleOverrides), patch)
    : { styles: {}, fields: {} };
  throwFieldErrors(fields);
  const styles = effectiveStyles(theme.styles, overrides);
  const faces = facesFor(styles.fonts, theme.headingWeight, theme.headingItalic);
  return { styles, css: fontFaceCss(faces) + rootBlock(changedTokens(styles, theme.styles)) };
}

/** What a published page needs of its site's design. */
export interface DesignView {
  /** `:root{…}` of the site's styles that differ from the theme's, or "". */
  rootCss: string;
  /** `@font-face` rules of the self-hosted families the site shows. */
  fontFaceCss: string;
  fontPreloads: string[];
  customCssUrl?: string;
  logo?: { url: string; alt: string; maxHeight: number; width: number; height: number };
  icons?: { icon16: string; icon32: string; appleTouch: string; icon192: string };
  socialImage?: string;
}

async function loadView(db: Db, site: Website): Promise<DesignView> {
  const row = await rowOf(db, site.id);
  const theme = themeOf(site);
  const styles = effectiveStyles(theme.styles, row.styles as StyleOverrides);
  const faces = facesFor(styles.fonts, theme.headingWeight, theme.headingItalic);
  const found = await mediaOf(db, site.id, [row.logoMediaId, row.siteIconMediaId, row.socialImageMediaId]);
  const logo = row.logoMediaId ? found.get(row.logoMediaId) : undefined;
  const icon = row.siteIconMediaId ? found.get(row.siteIconMediaId) : undefined;
  const social = row.socialImageMediaId ? found.get(row.socialImageMediaId) : undefined;
  const [s16, s32, s180, s192] = ICON_SIZES;
  return {
    rootCss: rootBlock(changedTokens(styles, theme.styles)),
    fontFaceCss: fontFaceCss(faces, "optional"),
    fontPreloads: preloadsFor(faces, styles.fonts, theme.headingWeight),
    customCssUrl: row.customCss ? customCssUrl(row.customCss) : undefined,
    logo: logo && {
      url: mediaUrl(logo.id, logo.filename),
      alt: row.logoAlt,
      maxHeight: row.logoMaxHeight,
      width: logo.width,
      height: logo.height,
    },
    icons: icon && {
      icon16: iconUrl(icon.id, s16),
      icon32: iconUrl(icon.id, s32),
      appleTouch: iconUrl(icon.id, s180),
      icon192: iconUrl(icon.id, s192),
    },
    socialImage: social && `${mediaUrl(social.id, social.filename)}?format=1500w`,
  };
}

/** Views by site, valid for one content version (a design change bumps it). */
const views = new Map<string, { version: number; view: Promise<DesignView> }>();

/** The design view of a site at a content version; undefined version reads afresh (editing, no cache). */
export function designView(db: Db, site: Website, version: number | undefined): Promise<DesignView> {
  if (version === undefined) return loadView(db, site);
  const hit = views.get(site.id);
  if (hit && hit.version === version) return hit.view;
  const view = loadView(db, site);
  if (hit && hit.version > version) return view;
  views.set(site.id, { version, view });
  view.catch(() => views.delete(site.id));
  return view;
}

/** The custom CSS of a site (served as its own stylesheet). */
export async function customCssOf(db: Db, websiteId: string): Promise<string> {
  return (await rowOf(db, websiteId)).customCss;
}
