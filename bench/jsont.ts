/**
 * JSON-T render benchmark: our engine against the reference interpreter
 * (@squarespace/template-engine), side by side on the bench pages.
 *
 *   npm run bench:jsont                      (BENCH_SECONDS=S to change the time per run)
 *   npx tsx bench/jsont.ts [--seconds S] [FILE...]
 *
 * The reference is a yardstick only, never a project dependency: it is installed with npm
 * into a folder outside the repository (os.tmpdir()/atelier-jsont-ref) on first use.
 * Two measurements per page, each giving both engines about S seconds (default 3) after a
 * warm-up, interleaved in rounds of 50 ms per engine (ours then the reference, the order
 * alternating) so that a change in machine load weighs on both alike; the table gives the
 * rates over all rounds, their ratio, and the median of the rounds' ratios:
 *   render       both engines parse the template once and get the JSON parsed once
 *                (JSON.parse for the reference, the decimal-preserving parser for ours),
 *                then render it repeatedly: the engines' render speed.
 *   from source  every render starts from the template text and the JSON text (both parsed
 *                with JSON.parse), as a server answering a request does: ours goes through
 *                its compiled-template cache, the reference parses the template every time
 *                (it has no cache).
 * The reference gets a CLDR instance for the page's locale, as it needs for i18n output.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCase, loadCaseLocale, parseCaseFile } from "../packages/jsont/src/cli/cases.js";
import { cldrFor } from "../packages/jsont/src/i18n/cldr.js";
import { createEngine } from "../packages/jsont/src/index.js";

const REF_DIR = join(tmpdir(), "atelier-jsont-ref");
const REF_PKG = "@squarespace/template-engine";
const PAGES_DIR = fileURLToPath(new URL("../../shared/bench/jsont/", import.meta.url));
const DEFAULT_PAGES = ["page-store-200.html", "page-blog-50.html"].map((f) => join(PAGES_DIR, f));

interface RefCompiler {
  parse(source: string): { code: unknown; errors: unknown[] };
  execute(props: Record<string, unknown>): { ctx: { render(): string }; errors: unknown[] };
}

function loadReference(): { Compiler: new () => RefCompiler; version: string } {
  const pkgDir = join(REF_DIR, "node_modules", ...REF_PKG.split("/"));
  if (!existsSync(pkgDir)) {
    mkdirSync(REF_DIR, { recursive: true });
    const manifest = join(REF_DIR, "package.json");
    if (!existsSync(manifest)) writeFileSync(manifest, '{ "name": "atelier-jsont-ref", "private": true }\n');
    console.log(`installing ${REF_PKG} into ${REF_DIR} (outside the repository) ...`);
    execFileSync("npm", ["install", "--prefix", REF_DIR, "--no-audit", "--no-fund", "--no-save", REF_PKG], {
      stdio: "inherit",
    });
  }
  const require = createRequire(join(REF_DIR, "package.json"));
  const mod = require(REF_PKG) as { Compiler: new () => RefCompiler };
  const version = (JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { version: string })
    .version;
  return { Compiler: mod.Compiler, version };
}

/** Calls `fn` `count` times and returns the nanoseconds taken. */
function timeCalls(fn: () => void, count: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) fn();
  return Number(process.hrtime.bigint() - start);
}

/** Runs `fn` for about `ns` nanoseconds in growing batches; returns [calls, nanoseconds]. */
function runFor(fn: () => void, ns: number): [number, number] {
  let count = 0;
  let elapsed = 0;
  let batch = 1;
  while (elapsed < ns) {
    elapsed += timeCalls(fn, batch);
    count += batch;
    if (batch < 64) batch *= 2;
  }
  return [count, elapsed];
}

interface Race {
  /** Calls per second over all rounds. */
  ours: number;
  reference: number;
  /** ours / reference of each round. */
  ratios: number[];
}

/** Time each engine gets per round. */
const SLICE_NS = 50e6;

/**
 * Measures both engines side by side: after a warm-up of each, rounds of 50 ms per engine
 * (ours then the reference, the order alternating per round) until each engine had about
 * `seconds`, so that a change in machine load weighs on both alike. Rates are over all
 * rounds.
 */
function race(ours: () => void, reference: () => void, seconds: number): Race {
  const warm = 0.3e9;
  runFor(ours, warm);
  runFor(reference, warm);
  const rounds = Math.max(2, Math.round((seconds * 1e9) / SLICE_NS));
  const slice = (seconds * 1e9) / rounds;
  let ourCalls = 0;
  let ourNs = 0;
  let refCalls = 0;
  let refNs = 0;
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let a: [number, number];
    let b: [number, number];
    if (r % 2 === 0) {
      a = runFor(ours, slice);
      b = runFor(reference, slice);
    } else {
      b = runFor(reference, slice);
      a = runFor(ours, slice);
    }
    ourCalls += a[0];
    ourNs += a[1];
    refCalls += b[0];
    refNs += b[1];
    ratios.push(a[0] / a[1] / (b[0] / b[1]));
  }
  return { ours: ourCalls / (ourNs / 1e9), reference: refCalls / (refNs / 1e9), ratios };
}

async function main(argv: string[]): Promise<void> {
  let seconds = process.env.BENCH_SECONDS ? Number(process.env.BENCH_SECONDS) : 3;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--seconds") seconds = Number(argv[++i]);
    else files.push(resolve(process.env.INIT_CWD ?? process.cwd(), argv[i]));
  }
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error("--seconds must be a positive number");
  const pages = files.length ? files : DEFAULT_PAGES;

  const ref = loadReference();
  const ours = createEngine();
  console.log(`reference: ${REF_PKG}@${ref.version}; ${seconds}s per engine and page\n`);

  const rows: string[][] = [
    ["page", "mode", "ours (renders/s)", "reference (renders/s)", "ratio", "median round ratio"],
  ];
  const report = (name: string, mode: string, r: Race): void => {
    const ratio = `${(r.ours / r.reference).toFixed(1)}x`;
    const sorted = [...r.ratios].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    rows.push([name, mode, r.ours.toFixed(1), r.reference.toFixed(1), ratio, `${median.toFixed(1)}x`]);
    console.log(
      `${name} (${mode}): ours ${r.ours.toFixed(1)} renders/s, reference ${r.reference.toFixed(1)} renders/s, ${ratio} (median of ${r.ratios.length} rounds ${median.toFixed(1)}x)`,
    );
  };
  for (const file of pages) {
    const name = file.split("/").pop() ?? file;
    const c = loadCase(file);
    await loadCaseLocale(c);
    const raw = parseCaseFile(file, readFileSync(file, "utf8")).sections;
    const jsonText = raw.JSON?.trim() ? raw.JSON : "{}";
    // The reference gets plain JSON.parse data (it knows nothing of decimal-preserving numbers).
    const refJson = JSON.parse(jsonText);

    const template = ours.compile(c.template);
    const ourOutput = template.render(c.json, c.options).output;
    console.log(
      `${name}: our output ${ourOutput.trim() === c.expected.trim() ? "matches" : "DIFFERS FROM"} :OUTPUT`,
    );

    const compiler = new ref.Compiler();
    const { code } = compiler.parse(c.template);
    const refProps = {
      code,
      json: refJson,
      partials: c.options.partials,
      injects: c.options.injects,
      now: c.options.now,
      cldr: cldrFor(c.options.locale ?? "en-US"),
      enableExpr: true,
      enableInclude: true,
    };
    const refOutput = compiler.execute(refProps).ctx.render();
    console.log(
      `${name}: reference output ${refOutput.trim() === c.expected.trim() ? "matches" : "differs from"} :OUTPUT`,
    );

    report(
      name,
      "render",
      race(
        () => template.render(c.json, c.options),
        () => compiler.execute(refProps).ctx.render(),
        seconds,
      ),
    );
    report(
      name,
      "from source",
      race(
        () => ours.render(c.template, JSON.parse(jsonText), c.options),
        () => {
          const fresh = new ref.Compiler();
          fresh
            .execute({ ...refProps, code: fresh.parse(c.template).code, json: JSON.parse(jsonText) })
            .ctx.render();
        },
        seconds,
      ),
    );
  }
  console.log("");
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i])).join("  "));
}

await main(process.argv.slice(2));
