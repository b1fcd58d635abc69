/**
 * Once per test run: a migrated database every test file starts from, instead of each file
 * creating and migrating its own (most of a file's set-up time). On PGlite a dump of a migrated
 * data directory, loaded per file; on PostgreSQL (TEST_DATABASE_URL) a template database that
 * `CREATE DATABASE … TEMPLATE` copies per file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
// @ts-expect-error a plain ES module script without declarations
import { buildServer } from "../../../scripts/build-server.mjs";
import { openDatabase } from "../src/db/client.js";
import { createScratchDatabase } from "./scratch-database.js";
import { PG_TEMPLATE_ENV, PGLITE_TEMPLATE_ENV } from "./template-database.js";

export async function setup(): Promise<() => Promise<void>> {
  // The bundle the crash and process tests run as child servers (server-process.ts).
  await buildServer();
  const admin = process.env.TEST_DATABASE_URL;
  if (admin) {
    const template = await createScratchDatabase(admin, "atelier_tpl");
    const database = await openDatabase({ databaseUrl: template.url });
    await database.close();
    process.env[PG_TEMPLATE_ENV] = new URL(template.url).pathname.slice(1);
    return () => template.drop();
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-template-"));
  const database = await openDatabase({ dataDir: "memory://" });
  const dump = await database.dumpDataDir!();
  await database.close();
  const file = path.join(dir, "migrated.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env[PGLITE_TEMPLATE_ENV] = file;
  return async () => rmSync(dir, { recursive: true, force: true });
}
