/**
 * @atelier/jsont: the JSON-T template engine (parse → compile → render).
 *
 *   import { compile, render } from "@atelier/jsont";
 *   const t = compile("{.section item}<h1>{title|html}</h1>{.end}");
 *   const { output, errors } = t.render(json, { locale: "en-US", partials, injects });
 *
 * The module-level functions use a shared default engine that holds every built-in
 * formatter and predicate; `registerFormatters`/`registerPredicates` add more to it, and
 * `createEngine` makes an independent one.
 */
import type { TemplateAst, TemplateError } from "./ast.js";
import {
  type CompiledTemplate,
  Engine,
  type EngineOptions,
  type RenderOptions,
  type RenderResult,
} from "./engine.js";
import { builtinFormatters } from "./formatters/index.js";
import { builtinPredicates } from "./predicates/index.js";
import type { FormatterTable, PredicateTable } from "./types.js";

export type * from "./ast.js";
export { formatError, pathText } from "./ast.js";
export type { CompiledTemplate, EngineOptions, RenderOptions, RenderResult } from "./engine.js";
export { CACHE_CAPACITY, Engine } from "./engine.js";
/** Loads a locale's CLDR data; the i18n and CLDR money formatters print nothing until it is loaded. */
export { isLocaleLoaded, loadLocale } from "./i18n/cldr.js";
export { MAX_PARTIAL_DEPTH } from "./context.js";
export type * from "./types.js";
export { printTemplate } from "./print.js";
export { escapeAttr, escapeHtml } from "./util/html.js";
/** The gallery option set (SPEC §3, §9): its choices and numeric ranges, for code that stores galleries. */
export {
  DEFAULT_SLIDER_ASPECT_RATIO,
  GALLERY_ACTIVE_ALIGNMENTS,
  GALLERY_CHOICES,
  GALLERY_DESIGNS,
  GALLERY_LIGHTBOX_THEMES,
  GALLERY_META_POSITIONS,
  GALLERY_NUMBER_OPTIONS,
} from "./content/gallery.js";
export type { GalleryChoice } from "./content/gallery.js";
export { parseJson, stringifyJson } from "./util/json.js";
export { isTruthy, JsonNumber, toDisplayString } from "./util/values.js";

/** Every built-in formatter (core, content, commerce, i18n). */
export const defaultFormatters: FormatterTable = builtinFormatters;
/** Every built-in predicate, keyed with the trailing `?`. */
export const defaultPredicates: PredicateTable = builtinPredicates;

const defaultEngine = new Engine();

/** The shared engine behind the module-level functions. */
export function getDefaultEngine(): Engine {
  return defaultEngine;
}

/** A new engine with its own tables and cache. */
export function createEngine(options?: EngineOptions): Engine {
  return new Engine(options);
}

/** Adds formatters to the default engine. */
export function registerFormatters(table: FormatterTable): void {
  defaultEngine.registerFormatters(table);
}

/** Adds predicates (keyed with the trailing `?`) to the default engine. */
export function registerPredicates(table: PredicateTable): void {
  defaultEngine.registerPredicates(table);
}

/** Parses a template: the syntax tree and every syntax error (never throws). */
export function parse(source: string): { ast: TemplateAst; errors: TemplateError[] } {
  return defaultEngine.parse(source);
}

/** Compiles a template once (cached by source, 100 templates). */
export function compile(source: string): CompiledTemplate {
  return defaultEngine.compile(source);
}

/** Compiles (cached) and renders a template against a JSON value. */
export function render(source: string, json: unknown, options?: RenderOptions): RenderResult {
  return defaultEngine.render(source, json, options);
}
