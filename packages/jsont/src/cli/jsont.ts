/**
 * JSON-T command line tool for theme developers.
 *
 *   jsont render --template T --json J [--partials P] [--injects I] [--locale L] [--now MS]
 *       Renders template file T against JSON file J and prints the output, with the CLDR data
 *       of locale L (default en-US) loaded for the i18n formatters. P is a JSON file
 *       mapping partial names to template text, or a directory of partial files (named by
 *       file name, with and without extension). I is a JSON file mapping inject paths to
 *       JSON text or values. Errors go to stderr as "file:line:column: message"; the exit
 *       code is 1 when there were errors.
 *   jsont check --template T [--partials P]
 *       Reports syntax errors only.
 *   jsont pull|push --site URL --key API_KEY DIR
 *       A site's own templates as files (see sync.ts).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join } from "node:path";
import type { TemplateError } from "../ast.js";
import { DEFAULT_LOCALE, loadLocale } from "../i18n/cldr.js";
import { compile, parse, type RenderOptions } from "../index.js";
import { parseJson } from "../util/json.js";
import { SYNC_USAGE, parseSyncArgs, pull, push } from "./sync.js";

const USAGE = `usage:
  jsont render --template FILE --json FILE [--partials FILE|DIR] [--injects FILE] [--locale TAG] [--now MS]
  jsont check --template FILE [--partials FILE|DIR]
${SYNC_USAGE}`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    return fail(`cannot read ${what} ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function readJson(path: string, what: string): unknown {
  const text = readText(path, what);
  try {
    return parseJson(text);
  } catch (e) {
    return fail(`invalid JSON in ${what} ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function loadPartials(path: string): Record<string, string> {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    return fail(`cannot read partials ${path}`);
  }
  if (st.isDirectory()) {
    const out: Record<string, string> = {};
    for (const name of readdirSync(path).sort()) {
      const file = join(path, name);
      if (!statSync(file).isFile()) continue;
      const text = readText(file, "partial");
      out[name] = text;
      const bare = basename(name, extname(name));
      if (!(bare in out)) out[bare] = text;
    }
    return out;
  }
  const map = readJson(path, "partials");
  if (typeof map !== "object" || map === null || Array.isArray(map))
    fail(`partials ${path} must be a JSON object`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map as Record<string, unknown>)) {
    if (typeof v === "string") out[k] = v;
  }
  return out;
}

function parseArgs(argv: string[]): { command: string; opts: Record<string, string> } {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h") {
    process.stdout.write(`${USAGE}\n`);
    process.exit(command ? 0 : 2);
  }
  const opts: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith("--")) fail(`unexpected argument '${a}'\n${USAGE}`);
    const eq = a.indexOf("=");
    if (eq !== -1) {
      opts[a.slice(2, eq)] = a.slice(eq + 1);
    } else {
      const v = rest[i + 1];
      if (v === undefined) fail(`missing value for ${a}`);
      opts[a.slice(2)] = v;
      i++;
    }
  }
  return { command, opts };
}

function report(file: string, errors: readonly TemplateError[]): void {
  for (const e of errors)
    process.stderr.write(`${file}:${e.line}:${e.column}: ${e.kind} error: ${e.message}\n`);
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "pull" || argv[0] === "push") {
    const opts = parseSyncArgs(argv.slice(1), process.env);
    if (typeof opts === "string") fail(`${opts}\n${USAGE}`);
    const io = {
      out: (line: string) => process.stdout.write(`${line}\n`),
      err: (line: string) => process.stderr.write(`${line}\n`),
    };
    return argv[0] === "pull" ? pull(opts, io) : push(opts, io);
  }
  const { command, opts } = parseArgs(argv);
  const templatePath = opts.template ?? fail(`--template is required\n${USAGE}`);
  const source = readText(templatePath, "template");
  if (command === "check") {
    const { errors } = parse(source);
    report(templatePath, errors);
    if (opts.partials) {
      for (const [name, text] of Object.entries(loadPartials(opts.partials))) {
        report(`${opts.partials}[${name}]`, parse(text).errors);
      }
    }
    return errors.length ? 1 : 0;
  }
  if (command !== "render") fail(`unknown command '${command}'\n${USAGE}`);
  const json = opts.json !== undefined ? readJson(opts.json, "JSON") : {};
  const options: RenderOptions = {};
  if (opts.locale) options.locale = opts.locale;
  if (opts.now) {
    const now = Number(opts.now);
    if (!Number.isFinite(now)) fail(`--now must be epoch milliseconds, got '${opts.now}'`);
    options.now = now;
  }
  if (opts.partials) options.partials = loadPartials(opts.partials);
  if (opts.injects) {
    const injects = readJson(opts.injects, "injects");
    if (typeof injects !== "object" || injects === null)
      fail(`injects ${opts.injects} must be a JSON object`);
    options.injects = injects as Record<string, unknown>;
  }
  // The i18n formatters need the locale's CLDR data (an unknown locale formats as en-US).
  try {
    await loadLocale(options.locale ?? DEFAULT_LOCALE);
  } catch {
    await loadLocale(DEFAULT_LOCALE);
  }
  const { output, errors } = compile(source).render(json, options);
  process.stdout.write(output);
  report(templatePath, errors);
  return errors.length ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
