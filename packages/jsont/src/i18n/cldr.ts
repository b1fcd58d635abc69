/**
 * CLDR data for the i18n formatters, loaded per language on demand.
 *
 * `@phensley/cldr` ships one resource pack per language (`@phensley/cldr/packs/<lang>.json`,
 * covering every region and script of that language). Each pack is imported lazily through a
 * static `import()` per language, which Node (JSON import attributes) and Vite (one chunk per
 * pack) both understand, so nothing here touches the file system.
 *
 * Rendering is synchronous, so a locale must be loaded before a render that uses it:
 * `await loadLocale(locale)`; after that `cldrFor(locale)` answers synchronously.
 */
import { type CLDR, CLDRFramework } from "@phensley/cldr";
import type { RenderContext } from "../types.js";

type PackModule = { default: unknown };

/** Lazy loaders for every resource pack `@phensley/cldr` provides, by language. */
const PACKS: Record<string, () => Promise<PackModule>> = {
  af: () => import("@phensley/cldr/packs/af.json", { with: { type: "json" } }),
  ak: () => import("@phensley/cldr/packs/ak.json", { with: { type: "json" } }),
  am: () => import("@phensley/cldr/packs/am.json", { with: { type: "json" } }),
  ar: () => import("@phensley/cldr/packs/ar.json", { with: { type: "json" } }),
  as: () => import("@phensley/cldr/packs/as.json", { with: { type: "json" } }),
  az: () => import("@phensley/cldr/packs/az.json", { with: { type: "json" } }),
  ba: () => import("@phensley/cldr/packs/ba.json", { with: { type: "json" } }),
  be: () => import("@phensley/cldr/packs/be.json", { with: { type: "json" } }),
  bg: () => import("@phensley/cldr/packs/bg.json", { with: { type: "json" } }),
  bn: () => import("@phensley/cldr/packs/bn.json", { with: { type: "json" } }),
  bs: () => import("@phensley/cldr/packs/bs.json", { with: { type: "json" } }),
  ca: () => import("@phensley/cldr/packs/ca.json", { with: { type: "json" } }),
  chr: () => import("@phensley/cldr/packs/chr.json", { with: { type: "json" } }),
  cs: () => import("@phensley/cldr/packs/cs.json", { with: { type: "json" } }),
  cv: () => import("@phensley/cldr/packs/cv.json", { with: { type: "json" } }),
  cy: () => import("@phensley/cldr/packs/cy.json", { with: { type: "json" } }),
  da: () => import("@phensley/cldr/packs/da.json", { with: { type: "json" } }),
  de: () => import("@phensley/cldr/packs/de.json", { with: { type: "json" } }),
  dsb: () => import("@phensley/cldr/packs/dsb.json", { with: { type: "json" } }),
  el: () => import("@phensley/cldr/packs/el.json", { with: { type: "json" } }),
  en: () => import("@phensley/cldr/packs/en.json", { with: { type: "json" } }),
  es: () => import("@phensley/cldr/packs/es.json", { with: { type: "json" } }),
  et: () => import("@phensley/cldr/packs/et.json", { with: { type: "json" } }),
  eu: () => import("@phensley/cldr/packs/eu.json", { with: { type: "json" } }),
  fa: () => import("@phensley/cldr/packs/fa.json", { with: { type: "json" } }),
  fi: () => import("@phensley/cldr/packs/fi.json", { with: { type: "json" } }),
  fil: () => import("@phensley/cldr/packs/fil.json", { with: { type: "json" } }),
  fr: () => import("@phensley/cldr/packs/fr.json", { with: { type: "json" } }),
  ga: () => import("@phensley/cldr/packs/ga.json", { with: { type: "json" } }),
  gd: () => import("@phensley/cldr/packs/gd.json", { with: { type: "json" } }),
  gl: () => import("@phensley/cldr/packs/gl.json", { with: { type: "json" } }),
  gu: () => import("@phensley/cldr/packs/gu.json", { with: { type: "json" } }),
  ha: () => import("@phensley/cldr/packs/ha.json", { with: { type: "json" } }),
  he: () => import("@phensley/cldr/packs/he.json", { with: { type: "json" } }),
  hi: () => import("@phensley/cldr/packs/hi.json", { with: { type: "json" } }),
  hr: () => import("@phensley/cldr/packs/hr.json", { with: { type: "json" } }),
  hsb: () => import("@phensley/cldr/packs/hsb.json", { with: { type: "json" } }),
  ht: () => import("@phensley/cldr/packs/ht.json", { with: { type: "json" } }),
  hu: () => import("@phensley/cldr/packs/hu.json", { with: { type: "json" } }),
  hy: () => import("@phensley/cldr/packs/hy.json", { with: { type: "json" } }),
  id: () => import("@phensley/cldr/packs/id.json", { with: { type: "json" } }),
  ig: () => import("@phensley/cldr/packs/ig.json", { with: { type: "json" } }),
  is: () => import("@phensley/cldr/packs/is.json", { with: { type: "json" } }),
  it: () => import("@phensley/cldr/packs/it.json", { with: { type: "json" } }),
  ja: () => import("@phensley/cldr/packs/ja.json", { with: { type: "json" } }),
  jv: () => import("@phensley/cldr/packs/jv.json", { with: { type: "json" } }),
  ka: () => import("@phensley/cldr/packs/ka.json", { with: { type: "json" } }),
  kk: () => import("@phensley/cldr/packs/kk.json", { with: { type: "json" } }),
  km: () => import("@phensley/cldr/packs/km.json", { with: { type: "json" } }),
  kn: () => import("@phensley/cldr/packs/kn.json", { with: { type: "json" } }),
  ko: () => import("@phensley/cldr/packs/ko.json", { with: { type: "json" } }),
  kok: () => import("@phensley/cldr/packs/kok.json", { with: { type: "json" } }),
  ky: () => import("@phensley/cldr/packs/ky.json", { with: { type: "json" } }),
  lo: () => import("@phensley/cldr/packs/lo.json", { with: { type: "json" } }),
  lt: () => import("@phensley/cldr/packs/lt.json", { with: { type: "json" } }),
  lv: () => import("@phensley/cldr/packs/lv.json", { with: { type: "json" } }),
  mk: () => import("@phensley/cldr/packs/mk.json", { with: { type: "json" } }),
  ml: () => import("@phensley/cldr/packs/ml.json", { with: { type: "json" } }),
  mn: () => import("@phensley/cldr/packs/mn.json", { with: { type: "json" } }),
  mr: () => import("@phensley/cldr/packs/mr.json", { with: { type: "json" } }),
  ms: () => import("@phensley/cldr/packs/ms.json", { with: { type: "json" } }),
  my: () => import("@phensley/cldr/packs/my.json", { with: { type: "json" } }),
  nb: () => import("@phensley/cldr/packs/nb.json", { with: { type: "json" } }),
  ne: () => import("@phensley/cldr/packs/ne.json", { with: { type: "json" } }),
  nl: () => import("@phensley/cldr/packs/nl.json", { with: { type: "json" } }),
  nn: () => import("@phensley/cldr/packs/nn.json", { with: { type: "json" } }),
  no: () => import("@phensley/cldr/packs/no.json", { with: { type: "json" } }),
  or: () => import("@phensley/cldr/packs/or.json", { with: { type: "json" } }),
  pa: () => import("@phensley/cldr/packs/pa.json", { with: { type: "json" } }),
  pcm: () => import("@phensley/cldr/packs/pcm.json", { with: { type: "json" } }),
  pl: () => import("@phensley/cldr/packs/pl.json", { with: { type: "json" } }),
  ps: () => import("@phensley/cldr/packs/ps.json", { with: { type: "json" } }),
  pt: () => import("@phensley/cldr/packs/pt.json", { with: { type: "json" } }),
  qu: () => import("@phensley/cldr/packs/qu.json", { with: { type: "json" } }),
  rm: () => import("@phensley/cldr/packs/rm.json", { with: { type: "json" } }),
  ro: () => import("@phensley/cldr/packs/ro.json", { with: { type: "json" } }),
  ru: () => import("@phensley/cldr/packs/ru.json", { with: { type: "json" } }),
  sd: () => import("@phensley/cldr/packs/sd.json", { with: { type: "json" } }),
  shn: () => import("@phensley/cldr/packs/shn.json", { with: { type: "json" } }),
  si: () => import("@phensley/cldr/packs/si.json", { with: { type: "json" } }),
  sk: () => import("@phensley/cldr/packs/sk.json", { with: { type: "json" } }),
  sl: () => import("@phensley/cldr/packs/sl.json", { with: { type: "json" } }),
  so: () => import("@phensley/cldr/packs/so.json", { with: { type: "json" } }),
  sq: () => import("@phensley/cldr/packs/sq.json", { with: { type: "json" } }),
  sr: () => import("@phensley/cldr/packs/sr.json", { with: { type: "json" } }),
  sv: () => import("@phensley/cldr/packs/sv.json", { with: { type: "json" } }),
  sw: () => import("@phensley/cldr/packs/sw.json", { with: { type: "json" } }),
  ta: () => import("@phensley/cldr/packs/ta.json", { with: { type: "json" } }),
  te: () => import("@phensley/cldr/packs/te.json", { with: { type: "json" } }),
  th: () => import("@phensley/cldr/packs/th.json", { with: { type: "json" } }),
  ti: () => import("@phensley/cldr/packs/ti.json", { with: { type: "json" } }),
  tk: () => import("@phensley/cldr/packs/tk.json", { with: { type: "json" } }),
  tr: () => import("@phensley/cldr/packs/tr.json", { with: { type: "json" } }),
  uk: () => import("@phensley/cldr/packs/uk.json", { with: { type: "json" } }),
  ur: () => import("@phensley/cldr/packs/ur.json", { with: { type: "json" } }),
  uz: () => import("@phensley/cldr/packs/uz.json", { with: { type: "json" } }),
  vi: () => import("@phensley/cldr/packs/vi.json", { with: { type: "json" } }),
  yo: () => import("@phensley/cldr/packs/yo.json", { with: { type: "json" } }),
  yue: () => import("@phensley/cldr/packs/yue.json", { with: { type: "json" } }),
  zh: () => import("@phensley/cldr/packs/zh.json", { with: { type: "json" } }),
  zu: () => import("@phensley/cldr/packs/zu.json", { with: { type: "json" } }),
};

/** The locale used when a render names none, and the language used when a locale has no pack. */
export const DEFAULT_LOCALE = "en-US";
const FALLBACK_LANGUAGE = "en";

const packs = new Map<string, unknown>();
const pending = new Map<string, Promise<void>>();
const instances = new Map<string, CLDR>();

const framework = new CLDRFramework({
  loader: (language: string) => {
    const pack = packs.get(language);
    if (pack === undefined) throw new Error(`CLDR resource pack "${language}" is not loaded`);
    return pack;
  },
  packCacheSize: Object.keys(PACKS).length,
});

/** The language whose resource pack serves a locale ("fr-CA" → "fr"); "en" when none has a pack. */
function packLanguage(locale: string): string {
  let language = LANGUAGES.get(locale);
  if (language !== undefined) return language;
  try {
    language = CLDRFramework.resolveLocale(locale).tag.language();
    if (!Object.hasOwn(PACKS, language)) language = FALLBACK_LANGUAGE;
  } catch {
    language = FALLBACK_LANGUAGE;
  }
  if (LANGUAGES.size >= LANGUAGES_LIMIT) LANGUAGES.clear();
  LANGUAGES.set(locale, language);
  return language;
}

/** Pack languages by locale tag (resolving a tag is costly; renders ask for every value). */
const LANGUAGES = new Map<string, string>();
const LANGUAGES_LIMIT = 1000;

/** Languages that have a resource pack. */
export function availableLanguages(): string[] {
  return Object.keys(PACKS);
}

/**
 * Loads the CLDR data a locale needs (once per language; concurrent calls share the load).
 * Call it before rendering with that locale.
 */
export function loadLocale(locale: string = DEFAULT_LOCALE): Promise<void> {
  const language = packLanguage(locale);
  if (packs.has(language)) return Promise.resolve();
  let p = pending.get(language);
  if (p === undefined) {
    const load = PACKS[language];
    p = load().then(
      (mod) => {
        packs.set(language, mod.default);
        pending.delete(language);
      },
      (err: unknown) => {
        pending.delete(language);
        throw err;
      },
    );
    pending.set(language, p);
  }
  return p;
}

/** True when the data for a locale is loaded, so formatting with it works synchronously. */
export function isLocaleLoaded(locale: string): boolean {
  return packs.has(packLanguage(locale));
}

/** The locale asked for last and its instance (formatters ask on every value). */
let lastLocale: string | null = null;
let lastCldr: CLDR | undefined;

/** The CLDR API for a locale, or `undefined` when its pack is not loaded yet. */
export function cldrFor(locale: string): CLDR | undefined {
  if (locale === lastLocale) return lastCldr;
  const cached = instances.get(locale);
  if (cached !== undefined) {
    lastLocale = locale;
    lastCldr = cached;
    return cached;
  }
  const language = packLanguage(locale);
  if (!packs.has(language)) return undefined;
  let id = locale;
  if (language === FALLBACK_LANGUAGE && !locale.toLowerCase().startsWith(FALLBACK_LANGUAGE)) {
    // A locale whose language has no pack formats as the default locale.
    id = DEFAULT_LOCALE;
  }
  let cldr: CLDR;
  try {
    cldr = framework.get(id);
  } catch {
    cldr = framework.get(DEFAULT_LOCALE);
  }
  instances.set(locale, cldr);
  return cldr;
}

/**
 * The CLDR API for the render's locale. When its data is not loaded, an error is recorded
 * and `undefined` returned (the formatter then outputs nothing).
 */
export function contextCldr(ctx: RenderContext): CLDR | undefined {
  const locale = ctx.locale || DEFAULT_LOCALE;
  const cldr = cldrFor(locale);
  if (cldr === undefined) {
    ctx.error(
      `CLDR data for locale "${locale}" is not loaded; call loadLocale("${locale}") before rendering`,
    );
  }
  return cldr;
}
