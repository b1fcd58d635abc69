/**
 * npm run backup -- --site ID|ADDRESS --out FILE
 * npm run restore -- FILE [--owner EMAIL]
 * Uses DATA_DIR / DATABASE_URL / MEDIA_STORE (and S3_*) like `npm start`. The embedded database can be opened by one
 * process at a time: stop the server first, or use a PostgreSQL server.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../config.js";
import { openDatabase } from "../../db/client.js";
import { ApiError } from "../../http/errors.js";
import { createMediaStore } from "../../media/index.js";
import { backupSite, restoreSite } from "./backup.js";

const USAGE = `usage: npm run backup -- --site ID|ADDRESS --out FILE
       npm run restore -- FILE [--owner EMAIL]`;

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = parseArgs({
    args: rest,
    options: { site: { type: "string" }, out: { type: "string" }, owner: { type: "string" } },
    allowPositionals: true,
  });
  if (
    command === "backup" ? !values.site || !values.out : command !== "restore" || positionals.length !== 1
  ) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: path.join(config.dataDir, "pglite"),
  });
  const store = createMediaStore(config);
  try {
    if (command === "backup") {
      const m = await backupSite(database.db, store, values.site!, values.out!);
      const rows = m.tables.reduce((n, t) => n + t.rows, 0);
      console.log(
        `wrote ${values.out}: site ${m.site.identifier}, ${rows} rows, ${m.media.length} media files`,
      );
    } else {
      const r = await restoreSite(
        database.db,
        store,
        positionals[0]!,
        values.owner,
        config.archiveMaxBytes * 4,
      );
      const rows = Object.values(r.counts).reduce((n, c) => n + c, 0);
      console.log(`restored ${r.manifest.site.identifier} as a new site ${r.siteId}: ${rows} rows`);
      for (const s of r.skipped) console.log(`skipped: ${s}`);
    }
    return 0;
  } catch (err) {
    console.error(err instanceof ApiError || err instanceof Error ? err.message : String(err));
    return 1;
  } finally {
    await store.close();
    await database.close();
  }
}

process.exitCode = await main();
