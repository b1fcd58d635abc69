/**
 * Conformance runner.
 *
 *   npx tsx packages/jsont/src/cli/conformance.ts DIR|FILE...
 *     runs every case file (recursively in directories), prints each failing file with a
 *     short diff and ends with "N passed, M failed" (exit code 1 if any failed).
 *   npx tsx packages/jsont/src/cli/conformance.ts --bench N FILE...
 *     checks each file's output once, renders it N times and prints
 *     "<file> <renders per second> renders/s".
 *
 * Options: --quiet (only the summary), --errors (also print render errors of failures).
 */
import { getDefaultEngine } from "../index.js";
import {
  findCaseFiles,
  loadCase,
  loadCaseLocale,
  runCase,
  runCaseFileWithLocale,
  shortDiff,
} from "./cases.js";
import { formatError } from "../ast.js";

function usage(): never {
  console.error(
    "usage: conformance.ts [--quiet] [--errors] DIR|FILE...\n       conformance.ts --bench N FILE...",
  );
  process.exit(2);
}

async function bench(count: number, files: string[]): Promise<number> {
  const engine = getDefaultEngine();
  let failures = 0;
  for (const file of files) {
    const c = loadCase(file);
    await loadCaseLocale(c);
    const check = runCase(engine, c);
    if (!check.passed) {
      failures++;
      console.log(`${file}: output differs from :OUTPUT\n${shortDiff(check.expected, check.actual)}`);
    }
    const template = engine.compile(c.template);
    // Warm up (let the JIT settle), then measure.
    const warmUntil = performance.now() + 300;
    for (let i = 0; i < count || performance.now() < warmUntil; i++) {
      template.render(c.json, c.options);
      if (performance.now() >= warmUntil && i >= 20) break;
    }
    const start = process.hrtime.bigint();
    for (let i = 0; i < count; i++) template.render(c.json, c.options);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const rate = count / seconds;
    console.log(`${file} ${rate.toFixed(1)} renders/s`);
  }
  return failures ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0) usage();
  if (argv[0] === "--bench") {
    const count = Number(argv[1]);
    if (!Number.isInteger(count) || count <= 0 || argv.length < 3) usage();
    return bench(count, argv.slice(2));
  }
  let quiet = false;
  let showErrors = false;
  const paths: string[] = [];
  for (const a of argv) {
    if (a === "--quiet") quiet = true;
    else if (a === "--errors") showErrors = true;
    else paths.push(a);
  }
  if (paths.length === 0) usage();
  const engine = getDefaultEngine();
  let passed = 0;
  let failed = 0;
  for (const file of findCaseFiles(paths)) {
    const outcome = await runCaseFileWithLocale(engine, file);
    if (outcome.passed) {
      passed++;
      continue;
    }
    failed++;
    if (quiet) continue;
    console.log(`FAIL ${file}`);
    if (outcome.problem) console.log(`  ${outcome.problem}`);
    else console.log(shortDiff(outcome.expected, outcome.actual));
    if (showErrors && outcome.result) {
      for (const e of outcome.result.errors) console.log(`  error ${formatError(e)}`);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
