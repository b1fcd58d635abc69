/**
 * Built-in themes: JSON-T templates under apps/server/themes. `base/` holds the templates every
 * theme shares; each theme folder (classic, cover, commerce) overrides any of them by file name
 * and adds its stylesheet. A page renders the theme's `site` template with the page's template
 * available as the partial `main`.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Engine, type TemplateError, createEngine, defaultFormatters } from "@atelier/jsont";
import { WebsiteType } from "../db/enums.js";
import { HashedAssets, contentHash } from "../http/hashed-assets.js";
import type { Styles } from "../modules/design/styles.js";
import { allTokens, rootBlock } from "../modules/design/tokens.js";

export const THEMES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../themes");
export const THEME_NAMES = ["commerce", "classic", "cover", "market", "studio", "harvest"] as const;
/**
 * The header a theme.json may ask for (`masthead`): the usual one row, or the site title over a
 * centred menu, whose rules (`base/css/masthead/centred.css`) only that theme's stylesheet has.
 */
const MASTHEADS = ["row", "centred"] as const;
export type Masthead = (typeof MASTHEADS)[number];

export interface ThemeInfo {
  name: string;
  title: string;
  description: string;
  /** Theme settings templates read as `theme.*`. */
  settings: Record<string, unknown>;
  /** The website types (SPEC numbers) the theme is made for. */
  websiteTypes: number[];
  /** The theme's default styles (the design style model), which a site's styles override. */
  styles: Styles;
  /** The weight of its headings (which font files a page needs). */
  headingWeight: number;
  /** Whether it sets headings (or the site title) in italic: the italic face is loaded too. */
  headingItalic: boolean;
  /** Its header: the usual one row, or the centred masthead. */
  masthead: Masthead;
}

export interface Theme extends ThemeInfo {
  templates: Record<string, string>;
  css: string;
  cssHash: string;
  cssUrl: string;
  engine: Engine;
}

interface RenderedPage {
  html: string;
  errors: TemplateError[];
}

function readTemplates(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir)) {
    if (file.endsWith(".jsont"))
      out[file.slice(0, -".jsont".length)] = readFileSync(path.join(dir, file), "utf8");
  }
  return out;
}

const readIf = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");
const require = createRequire(import.meta.url);

/**
 * A stylesheet with the files its `url()`s name (fonts, images: relative to the stylesheet, or a
 * package path such as `@fontsource/inter/files/…woff2`) served under content-hashed names.
 * Addresses that are absolute, data: or unknown stay as they are.
 */
export function withHashedUrls(css: string, dir: string, assets: HashedAssets): string {
  return css.replace(/url\(\s*(["']?)([^"')]+)\1\s*\)/g, (whole, _q: string, ref: string) => {
    if (/^([a-z]+:|\/|#)/i.test(ref)) return whole;
    const clean = ref.split(/[?#]/)[0]!;
    if (!HashedAssets.typeOf(clean)) return whole;
    let file = path.resolve(dir, clean);
    if (!existsSync(file) && clean.startsWith("@")) {
      try {
        file = require.resolve(clean);
      } catch {
        return whole;
      }
    }
    if (!existsSync(file)) return whole;
    return `url("${assets.add(path.basename(file), readFileSync(file))}")`;
  });
}

function readStylesheet(file: string, assets: HashedAssets): string {
  return withHashedUrls(readIf(file), path.dirname(file), assets);
}

/**
 * The shared stylesheet: `base/css/*.css` (one file per subject) in name order, a blank line
 * between, then the rules of the theme's masthead when it is not the usual one-row header.
 */
function readBaseStylesheet(dir: string, masthead: Masthead, assets: HashedAssets): string {
  const cssDir = path.join(dir, "base", "css");
  const files = readdirSync(cssDir)
    .filter((file) => file.endsWith(".css"))
    .sort();
  if (masthead !== "row") files.push(path.join("masthead", `${masthead}.css`));
  return files.map((file) => readStylesheet(path.join(cssDir, file), assets)).join("\n");
}

/**
 * The engine's audio-player formatter ends its markup with a loader script of the original
 * platform; pages here play audio with the audio-player island instead, so the script is cut.
 */
const audioPlayer = defaultFormatters["audio-player"]!;
const serverFormatters = {
  "audio-player": ((args, vars, ctx) => {
    audioPlayer(args, vars, ctx);
    const v = vars[0]!;
    if (typeof v.value === "string") v.value = v.value.replace(/<script\b[\s\S]*?<\/script>\s*/gi, "");
  }) as typeof audioPlayer,
};

/** A theme's description from its theme.json (no templates compiled). */
export function readThemeInfo(name: string, dir = THEMES_DIR): ThemeInfo {
  const meta = JSON.parse(readFileSync(path.join(dir, name, "theme.json"), "utf8")) as {
    title: string;
    description: string;
    websiteTypes?: number[];
    settings?: Record<string, unknown>;
    styles: Styles;
    headingWeight?: number;
    headingItalic?: boolean;
    masthead?: string;
  };
  const masthead = MASTHEADS.find((m) => m === (meta.masthead ?? "row"));
  if (!masthead) throw new Error(`theme ${name}: masthead must be one of ${MASTHEADS.join(", ")}`);
  const columns = meta.settings?.productGridColumns;
  const wholeFrom1To6 =
    typeof columns === "number" && Number.isInteger(columns) && columns >= 1 && columns <= 6;
  if (columns !== undefined && !wholeFrom1To6)
    throw new Error(`theme ${name}: settings.productGridColumns must be a whole number from 1 to 6`);
  return {
    name,
    title: meta.title,
    description: meta.description,
    settings: meta.settings ?? {},
    websiteTypes: meta.websiteTypes ?? [],
    styles: meta.styles,
    headingWeight: meta.headingWeight ?? 600,
    headingItalic: meta.headingItalic ?? false,
    masthead,
  };
}

export function loadTheme(name: string, dir = THEMES_DIR, assets = new HashedAssets()): Theme {
  const themeDir = path.join(dir, name);
  const info = readThemeInfo(name, dir);
  const templates = { ...readTemplates(path.join(dir, "base")), ...readTemplates(themeDir) };
  if (!templates.site) throw new Error(`theme ${name} has no site template`);
  // The theme's default styles as tokens, between the shared styles and the theme's own rules.
  const defaults = rootBlock({
    ...allTokens(info.styles),
    "--heading-weight": String(info.headingWeight),
    ...(info.settings.productGridColumns
      ? { "--grid-columns": String(info.settings.productGridColumns) }
      : {}),
  });
  const css = `${readBaseStylesheet(dir, info.masthead, assets)}\n${defaults}\n${readStylesheet(path.join(themeDir, "theme.css"), assets)}`;
  const cssHash = contentHash(css);
  return {
    ...info,
    templates,
    css,
    cssHash,
    cssUrl: `/assets/themes/${name}.${cssHash}.css`,
    engine: newThemeEngine(),
  };
}

/** An engine with the server's formatters, as themes render with (`capacity` compiled templates). */
export function newThemeEngine(capacity?: number): Engine {
  return createEngine({ formatters: serverFormatters, cacheCapacity: capacity });
}

/**
 * A site's own templates (developer mode overrides, or an owner's drafts in the editing frame),
 * compiled with their own engine so that they never push the theme's templates out of its cache.
 */
export interface SiteTemplates {
  overrides: Record<string, string>;
  engine: Engine;
  /** Partial sets by theme and page template, built once. */
  partialSets: Map<string, Record<string, string>>;
}

export class Themes {
  private readonly themes = new Map<string, Theme>();
  private readonly partialSets = new Map<string, Record<string, string>>();

  constructor(
    dir = THEMES_DIR,
    readonly assets = new HashedAssets(),
  ) {
    for (const name of THEME_NAMES) this.themes.set(name, loadTheme(name, dir, assets));
  }

  get(name: string): Theme | undefined {
    return this.themes.get(name);
  }

  list(): Theme[] {
    return [...this.themes.values()];
  }

  /** The theme a website uses: its own setting, else the one made for its website type. */
  forSite(site: { theme: string; websiteType: number }): Theme {
    const chosen = this.themes.get(site.theme);
    if (chosen) return chosen;
    const byType =
      site.websiteType === WebsiteType.COVER_PAGE
        ? "cover"
        : site.websiteType === WebsiteType.COMMERCE
          ? "commerce"
          : "classic";
    return this.themes.get(byType)!;
  }

  /**
   * Renders a page: the theme's `site` template with `main` bound to the page's template; the
   * site's own templates, when given, replace the theme's of the same names.
   */
  render(
    theme: Theme,
    template: string,
    context: Record<string, unknown>,
    opts: { locale?: string; now?: number },
    site?: SiteTemplates,
  ): RenderedPage {
    const key = `${theme.name}\n${template}`;
    const sets = site?.partialSets ?? this.partialSets;
    let partials = sets.get(key);
    if (!partials) {
      const templates = site ? { ...theme.templates, ...site.overrides } : theme.templates;
      const main = templates[template] ?? templates["not-found"] ?? "";
      partials = { ...templates, main };
      sets.set(key, partials);
    }
    const engine = site?.engine ?? theme.engine;
    const { output, errors } = engine.render(partials.site!, context, {
      partials,
      locale: opts.locale ?? "en-US",
      now: opts.now,
    });
    return { html: output, errors };
  }
}
