/**
 * Conformance case files: sections `:JSON`, `:TEMPLATE`, `:OUTPUT`, optional `:PARAMS`
 * (JSON with `locale` and `now`), `:PROPERTIES` (`key=value` or `key: value` lines:
 * `locale`, `level` (compatibility level), `maxPartialDepth`),
 * `:PARTIALS` and `:INJECT` (JSON maps) and `:COMMENTS`. A case passes when the rendered
 * output, trimmed, equals `:OUTPUT` trimmed. JSON is read with the decimal-preserving
 * parser so `1.0` prints as "1.0".
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Engine, RenderOptions, RenderResult } from "../engine.js";
import { loadLocale } from "../i18n/cldr.js";
import { parseJson } from "../util/json.js";

interface CaseFile {
  path: string;
  sections: Record<string, string>;
}

interface PreparedCase {
  path: string;
  template: string;
  json: unknown;
  expected: string;
  options: RenderOptions;
}

const SECTION_RE = /^:([A-Z]+)[ \t]*$/;

/** Splits a case file into its sections. */
export function parseCaseFile(path: string, text: string): CaseFile {
  const sections: Record<string, string> = {};
  const lines = text.split("\n");
  let name: string | null = null;
  let buf: string[] = [];
  const flush = (): void => {
    if (name !== null) sections[name] = buf.join("\n");
  };
  for (const line of lines) {
    const m = SECTION_RE.exec(line.replace(/\r$/, ""));
    if (m) {
      flush();
      name = m[1];
      buf = [];
    } else {
      buf.push(line);
    }
  }
  flush();
  return { path, sections };
}

function parseProperties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^\s*([^=:#\s]+)\s*[=:]\s*(.*?)\s*$/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

/** Turns a case file into what a render needs; throws on malformed JSON. */
function prepareCase(file: CaseFile): PreparedCase {
  const s = file.sections;
  if (s.TEMPLATE === undefined || s.OUTPUT === undefined) {
    throw new Error("case file needs :TEMPLATE and :OUTPUT sections");
  }
  const jsonText = s.JSON?.trim() ?? "";
  const json = jsonText ? parseJson(jsonText) : {};
  const options: RenderOptions = {};
  const props = s.PROPERTIES !== undefined ? parseProperties(s.PROPERTIES) : {};
  if (props.locale) options.locale = props.locale;
  if (props.level !== undefined && /^\d+$/.test(props.level)) options.compatLevel = Number(props.level);
  if (props.maxPartialDepth !== undefined && /^\d+$/.test(props.maxPartialDepth)) {
    options.maxPartialDepth = Number(props.maxPartialDepth);
  }
  if (s.PARAMS?.trim()) {
    const params = parseJson(s.PARAMS.trim()) as Record<string, unknown>;
    if (typeof params.locale === "string") options.locale = params.locale;
    if (params.now !== undefined) options.now = Number(params.now);
  }
  if (s.PARTIALS?.trim()) {
    options.partials = parseJson(s.PARTIALS.trim()) as Record<string, unknown>;
  }
  if (s.INJECT?.trim()) {
    options.injects = parseJson(s.INJECT.trim()) as Record<string, unknown>;
  }
  return { path: file.path, template: s.TEMPLATE, json, expected: s.OUTPUT, options };
}

/** Reads and prepares one case file. */
export function loadCase(path: string): PreparedCase {
  return prepareCase(parseCaseFile(path, readFileSync(path, "utf8")));
}

/** Every case file under the given files or directories (recursively), sorted. */
export function findCaseFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string): void => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name));
    } else if (st.isFile()) {
      out.push(p);
    }
  };
  for (const p of paths) walk(p);
  return out;
}

interface CaseOutcome {
  path: string;
  passed: boolean;
  expected: string;
  actual: string;
  result?: RenderResult;
  /** Set when the case file itself could not be read or prepared. */
  problem?: string;
}

/** Renders one case and compares trimmed outputs. */
export function runCase(engine: Engine, c: PreparedCase): CaseOutcome {
  const result = engine.render(c.template, c.json, c.options);
  const actual = result.output.trim();
  const expected = c.expected.trim();
  return { path: c.path, passed: actual === expected, expected, actual, result };
}

/** Loads the CLDR data of the case's locale (the default locale when it names none). */
export async function loadCaseLocale(c: PreparedCase): Promise<void> {
  try {
    await loadLocale(c.options.locale ?? "en-US");
  } catch {
    // An unknown locale formats with the default data, which is loaded here.
    await loadLocale("en-US");
  }
}

/** Loads and runs one case file, never throwing (locale data must already be loaded). */
export function runCaseFile(engine: Engine, path: string): CaseOutcome {
  let prepared: PreparedCase;
  try {
    prepared = loadCase(path);
  } catch (e) {
    const problem = e instanceof Error ? e.message : String(e);
    return { path, passed: false, expected: "", actual: "", problem };
  }
  return runPrepared(engine, prepared);
}

/** Loads one case file, loads its locale data, runs it; never throws. */
export async function runCaseFileWithLocale(engine: Engine, path: string): Promise<CaseOutcome> {
  let prepared: PreparedCase;
  try {
    prepared = loadCase(path);
    await loadCaseLocale(prepared);
  } catch (e) {
    const problem = e instanceof Error ? e.message : String(e);
    return { path, passed: false, expected: "", actual: "", problem };
  }
  return runPrepared(engine, prepared);
}

function runPrepared(engine: Engine, prepared: PreparedCase): CaseOutcome {
  try {
    return runCase(engine, prepared);
  } catch (e) {
    const problem = `render threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    return { path: prepared.path, passed: false, expected: prepared.expected.trim(), actual: "", problem };
  }
}

/** A short line diff: the first lines that differ, with a little context. */
export function shortDiff(expected: string, actual: string, maxLines = 6): string {
  const e = expected.split("\n");
  const a = actual.split("\n");
  let i = 0;
  while (i < e.length && i < a.length && e[i] === a[i]) i++;
  const out: string[] = [];
  const from = Math.max(0, i - 1);
  if (from > 0) out.push(`  @@ line ${from + 1}`);
  for (let k = from; k < i; k++) out.push(`    ${e[k]}`);
  let shown = 0;
  for (let k = i; k < e.length && shown < maxLines; k++, shown++) out.push(`  - ${e[k]}`);
  if (e.length - i > maxLines) out.push(`  - ... (${e.length - i - maxLines} more expected lines)`);
  shown = 0;
  for (let k = i; k < a.length && shown < maxLines; k++, shown++) out.push(`  + ${a[k]}`);
  if (a.length - i > maxLines) out.push(`  + ... (${a.length - i - maxLines} more actual lines)`);
  return out.join("\n");
}
