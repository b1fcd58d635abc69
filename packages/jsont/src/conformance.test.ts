/**
 * Runs the whole shared conformance suite and the two bench pages once for correctness.
 * Known failures are listed in conformance-known-failures.txt; any other failure fails.
 */
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findCaseFiles, runCaseFileWithLocale, shortDiff } from "./cli/cases.js";
import { getDefaultEngine } from "./index.js";

const SHARED = fileURLToPath(new URL("../../../../shared/", import.meta.url));
const SUITE = `${SHARED}conformance/jsont`;
const BENCH = `${SHARED}bench/jsont`;

function knownFailures(): Set<string> {
  const text = readFileSync(new URL("./conformance-known-failures.txt", import.meta.url), "utf8");
  return new Set(
    text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#")),
  );
}

describe("JSON-T conformance suite", () => {
  it("finds the shared suite", () => {
    expect(existsSync(SUITE)).toBe(true);
    expect(existsSync(BENCH)).toBe(true);
  });

  it("renders every case except the listed known failures", async () => {
    const engine = getDefaultEngine();
    const known = knownFailures();
    const files = findCaseFiles([SUITE, BENCH]);
    expect(files.length).toBeGreaterThan(300);
    const unexpected: string[] = [];
    const fixed: string[] = [];
    let failed = 0;
    for (const file of files) {
      const rel = relative(SHARED, file);
      const outcome = await runCaseFileWithLocale(engine, file);
      if (outcome.passed) {
        if (known.has(rel)) fixed.push(rel);
        continue;
      }
      failed++;
      if (!known.has(rel)) {
        unexpected.push(`${rel}\n${outcome.problem ?? shortDiff(outcome.expected, outcome.actual)}`);
      }
    }
    if (fixed.length)
      console.log(`now passing, remove from conformance-known-failures.txt:\n  ${fixed.join("\n  ")}`);
    console.log(`conformance: ${files.length - failed} passed, ${failed} failed (${known.size} known)`);
    expect(unexpected, `unexpected failures:\n${unexpected.join("\n\n")}`).toEqual([]);
  });

  it("passes every language case in resources/", async () => {
    const engine = getDefaultEngine();
    const failures: string[] = [];
    for (const f of findCaseFiles([`${SUITE}/resources`])) {
      const o = await runCaseFileWithLocale(engine, f);
      if (!o.passed) failures.push(o.path);
    }
    expect(failures).toEqual([]);
  });
});
