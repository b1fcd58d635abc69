/**
 * Runs the shared conformance cases of the i18n formatters and predicates through the
 * engine, loading each case's locale first. The cases live in the shared folder beside the
 * repository (never copied here).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCase, runCase, shortDiff } from "../cli/cases.js";
import { PLUGIN_CASES_DIR as pluginsDir, caseNames } from "../cli/shared-cases.js";
import { Engine } from "../engine.js";
import { DEFAULT_LOCALE, loadLocale } from "./cldr.js";

const i18nDir = join(pluginsDir, "i18n");

const ROOT_PATTERN =
  /^(f-(date|datetime|decimal|relative-time|humanize-duration|message(-plural)?|timesince|unit)|p-same-day)(-\d+)?\.html$/;

/**
 * Cases whose expected output was produced with older CLDR data than @phensley/cldr ships.
 * Everything else in them must match: spacing is compared after mapping the thin and narrow
 * no-break spaces of the newer patterns to plain spaces, and at most `lines` lines may differ
 * (the unit cases' changed unit patterns; the interval cases' zone, which the older data printed
 * after every time interval and neither reference engine prints by default now).
 */
const OLDER_DATA: Record<string, { reason: string; spaces?: boolean; lines?: number }> = {
  "f-datetime-interval-1.html": {
    reason: "interval patterns now use U+2009 / U+202F; no zone after a default time interval",
    spaces: true,
    lines: 1,
  },
  "f-message-datetime-interval-en-US.html": {
    reason: "interval patterns now use U+2009 / U+202F; no zone after a default time interval",
    spaces: true,
    lines: 1,
  },
  "f-message-datetime-interval-fr-FR.html": {
    reason: "interval patterns now use U+2009 / U+202F; no zone after a default time interval",
    spaces: true,
    lines: 1,
  },
  "f-unit-area-en-US.html": { reason: 'narrow square-kilometer is now "{0}km²", was "{0} km²"', lines: 1 },
  "f-message-units-fr-FR.html": { reason: 'French narrow gigabyte is now "{0}Go", was "{0} Go"', lines: 1 },
};

const plainSpaces = (s: string): string => s.replace(/[\u2009\u202f]/g, " ");

const list = (dir: string, keep: (name: string) => boolean): string[] =>
  caseNames(dir, keep).map((name) => join(dir, name));

const files = [
  ...list(pluginsDir, (name) => ROOT_PATTERN.test(name)),
  // f-foo.html exercises a commerce formatter.
  ...list(i18nDir, (name) => name !== "f-foo.html"),
];

describe.skipIf(files.length === 0)("i18n conformance cases", () => {
  const engine = new Engine();
  it.each(files.map((f) => [f.slice(pluginsDir.length + 1), f]))("%s", async (_name, file) => {
    const c = loadCase(file);
    await loadLocale(c.options.locale ?? DEFAULT_LOCALE);
    const outcome = runCase(engine, c);
    const older = OLDER_DATA[file.slice(file.lastIndexOf("/") + 1)];
    if (older !== undefined && !outcome.passed) {
      const detail = `${older.reason}\n${shortDiff(outcome.expected, outcome.actual)}`;
      const norm = older.spaces ? plainSpaces : (text: string) => text;
      const actualLines = norm(outcome.actual).split("\n");
      const differing = norm(outcome.expected)
        .split("\n")
        .filter((line, i) => line !== actualLines[i]);
      expect(differing.length, detail).toBeLessThanOrEqual(older.lines ?? 0);
      return;
    }
    expect(outcome.passed, `${file}\n${shortDiff(outcome.expected, outcome.actual)}`).toBe(true);
  });
});
