/** Where the test run's migrated template database is (set by global-setup.ts, read per file). */
import { readFileSync } from "node:fs";

export const PGLITE_TEMPLATE_ENV = "ATELIER_TEST_PGLITE_TEMPLATE";
export const PG_TEMPLATE_ENV = "ATELIER_TEST_PG_TEMPLATE";

let pgliteTemplate: Blob | undefined;

/** The migrated PGlite data directory to load, when the run made one. */
export function pgliteTemplateDump(): Blob | undefined {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  if (!file) return undefined;
  pgliteTemplate ??= new Blob([readFileSync(file)]);
  return pgliteTemplate;
}

/** The migrated PostgreSQL template database's name, when the run made one. */
export function postgresTemplateName(): string | undefined {
  return process.env[PG_TEMPLATE_ENV] || undefined;
}
