/**
 * `jsont pull` and `jsont push`: a site's own templates (developer mode) as files, so theme
 * developers work in their own editor. Both talk to the site's owner API with an API key of the
 * site (scope templates.read to pull, templates.write to push).
 *
 *   jsont pull --site URL --key KEY [--all] DIR   writes each overridden template (every one with
 *                                                 --all) to DIR/<name>.jsont
 *   jsont push --site URL --key KEY DIR           checks every DIR/*.jsont locally, then uploads
 *                                                 those that differ from the site's
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Template, type TemplateSummary, apiErrorOf, readJson } from "@atelier/owner-api";
import { parse } from "../index.js";

interface SyncOptions {
  site: string;
  key: string;
  dir: string;
  all: boolean;
}

interface SyncIo {
  out(line: string): void;
  err(line: string): void;
}

const EXT = ".jsont";
const PULL_BATCH = 6;
const NAME = /^[a-z0-9][a-z0-9.-]{0,99}$/;

export const SYNC_USAGE = `  jsont pull --site URL --key API_KEY [--all] DIR
  jsont push --site URL --key API_KEY DIR`;

/** Parses `--site URL --key KEY [--all] DIR`; the key may come from ATELIER_API_KEY instead. */
export function parseSyncArgs(args: string[], env: Record<string, string | undefined>): SyncOptions | string {
  const opts: Partial<SyncOptions> = { all: false };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--all") opts.all = true;
    else if (a === "--site" || a === "--key") {
      const v = args[++i];
      if (v === undefined) return `missing value for ${a}`;
      opts[a === "--site" ? "site" : "key"] = v;
    } else if (a.startsWith("--site=")) opts.site = a.slice(7);
    else if (a.startsWith("--key=")) opts.key = a.slice(6);
    else if (a.startsWith("--")) return `unknown option '${a}'`;
    else positional.push(a);
  }
  opts.key ??= env.ATELIER_API_KEY;
  if (!opts.site) return "--site is required (the site's address, e.g. https://shop.example.com)";
  if (!/^https?:\/\//i.test(opts.site))
    return `--site must be an http:// or https:// address, got '${opts.site}'`;
  if (!opts.key) return "--key is required (an API key of the site; or set ATELIER_API_KEY)";
  if (positional.length !== 1) return "give one folder for the templates";
  return { site: opts.site.replace(/\/+$/, ""), key: opts.key, dir: positional[0]!, all: opts.all ?? false };
}

class HttpError extends Error {}

/** The site's owner API, with the key. */
class SiteApi {
  private siteId: string | undefined;
  constructor(private readonly opts: SyncOptions) {}

  private async call<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    let res: Response;
    const url = `${this.opts.site}${path}`;
    try {
      res = await fetch(url, {
        method: init.method ?? "GET",
        headers: {
          authorization: `Bearer ${this.opts.key}`,
          accept: "application/json",
          ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      });
    } catch (e) {
      throw new HttpError(`cannot reach ${url}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const json = await readJson(res);
    if (!res.ok) {
      const error = apiErrorOf(json);
      const err = new HttpError(error?.message ?? `${url} answered ${res.status}`);
      Object.assign(err, { status: res.status, line: error?.line, column: error?.column });
      throw err;
    }
    return json as T;
  }

  /** The site's id, from its home page's JSON context. */
  async base(): Promise<string> {
    if (!this.siteId) {
      const home = await this.call<{ website?: { id?: string } }>("/?format=json");
      const id = home?.website?.id;
      if (!id) throw new HttpError(`${this.opts.site} does not look like an Atelier site`);
      this.siteId = id;
    }
    return `/api/owner/sites/${this.siteId}/templates`;
  }

  async list() {
    return (await this.call<{ templates: TemplateSummary[] }>(await this.base())).templates;
  }

  async get(name: string) {
    return this.call<Template>(`${await this.base()}/${name}`);
  }

  async put(name: string, source: string) {
    return this.call(`${await this.base()}/${name}`, { method: "PUT", body: { source } });
  }
}

/** Writes the site's templates to the folder; answers the exit code. */
export async function pull(opts: SyncOptions, io: SyncIo): Promise<number> {
  const api = new SiteApi(opts);
  try {
    const names = (await api.list()).filter((t) => opts.all || t.overridden).map((t) => t.name);
    mkdirSync(opts.dir, { recursive: true });
    // A few at a time: quicker than one by one, gentle on the server.
    for (let i = 0; i < names.length; i += PULL_BATCH) {
      const batch = names.slice(i, i + PULL_BATCH);
      const sources = await Promise.all(batch.map((name) => api.get(name)));
      batch.forEach((name, j) => {
        writeFileSync(join(opts.dir, `${name}${EXT}`), sources[j]!.source);
        io.out(`pulled ${name}${EXT}`);
      });
    }
    io.out(
      names.length
        ? `${names.length} template${names.length === 1 ? "" : "s"} in ${opts.dir}`
        : "the site has no templates of its own (use --all for every template of its theme)",
    );
    return 0;
  } catch (e) {
    io.err(e instanceof Error ? e.message : String(e));
    return 1;
  }
}

/**
 * Checks every template file of the folder locally (nothing is sent while one has a syntax
 * error), then uploads those whose source differs from the site's. Answers the exit code.
 */
export async function push(opts: SyncOptions, io: SyncIo): Promise<number> {
  let files: string[];
  try {
    files = readdirSync(opts.dir)
      .filter((f) => f.endsWith(EXT))
      .sort();
  } catch {
    io.err(`cannot read the folder ${opts.dir}`);
    return 1;
  }
  const sources = new Map<string, string>();
  let bad = 0;
  for (const file of files) {
    const name = file.slice(0, -EXT.length);
    const path = join(opts.dir, file);
    if (!NAME.test(name)) {
      io.err(`${path}: not a template name (lower-case letters, digits, dots and dashes)`);
      bad++;
      continue;
    }
    const source = readFileSync(path, "utf8");
    const { errors } = parse(source);
    for (const e of errors) io.err(`${path}:${e.line}:${e.column}: ${e.message}`);
    if (errors.length) bad++;
    else sources.set(name, source);
  }
  if (bad) {
    io.err(`nothing pushed: ${bad} file${bad === 1 ? " has" : "s have"} errors`);
    return 1;
  }
  const api = new SiteApi(opts);
  let pushed = 0;
  let failed = 0;
  try {
    const known = new Set((await api.list()).map((t) => t.name));
    for (const [name, source] of sources) {
      const path = join(opts.dir, `${name}${EXT}`);
      if (!known.has(name)) {
        io.err(`${path}: the site's theme has no template '${name}'`);
        failed++;
        continue;
      }
      const current = await api.get(name);
      if (current.source === source) continue;
      try {
        await api.put(name, source);
        io.out(`pushed ${name}${EXT}`);
        pushed++;
      } catch (e) {
        const { line, column } = e as { line?: number; column?: number };
        io.err(`${path}${line ? `:${line}:${column}` : ""}: ${e instanceof Error ? e.message : String(e)}`);
        failed++;
      }
    }
  } catch (e) {
    io.err(e instanceof Error ? e.message : String(e));
    return 1;
  }
  io.out(
    `${pushed} pushed, ${sources.size - pushed - failed} unchanged${failed ? `, ${failed} failed` : ""}`,
  );
  return failed ? 1 : 0;
}
