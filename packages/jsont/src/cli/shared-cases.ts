/**
 * Where the test suites find the shared conformance cases (in the shared folder beside the
 * repository; they are never copied here) and which of them exercise a part of the engine.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The formatter and predicate cases (f-*.html, p-*.html), with the i18n ones in i18n/ below. */
export const PLUGIN_CASES_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../../shared/conformance/jsont/plugins/resources",
);

/** The names of the `.html` cases in `dir` that `keep` accepts, sorted; none when the folder is absent. */
export function caseNames(dir: string, keep: (name: string) => boolean): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith(".html") && keep(name))
        .sort()
    : [];
}

/** Matches the cases of these formatters and predicates: f-<stem>.html, p-<stem>-<n>.html. */
export function stemPattern(formatters: readonly string[], predicates: readonly string[]): RegExp {
  return new RegExp(`^(f-(${formatters.join("|")})|p-(${predicates.join("|")}))(-\\d+)?\\.html$`);
}
