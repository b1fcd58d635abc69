import { buildApp } from "./app.js";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/client.js";
import { seedDemoIfEmpty } from "./seed/demo.js";
import { ensureSiteOwners } from "./modules/members/service.js";
import { systemClock } from "./lib/clock.js";
import path from "node:path";
import pino from "pino";

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: path.join(config.dataDir, "pglite"),
});
await database.withStartupLock(() => ensureSiteOwners(database.db));
// Log lines are written in batches of 4 KB (not one write per line, two per request), flushed every
// second and when the process exits.
const logDestination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
setInterval(() => logDestination.flush(), 1000).unref();
process.on("exit", () => {
  try {
    logDestination.flushSync();
  } catch {}
});
const app = await buildApp({ config, database, logger: { level: config.logLevel, stream: logDestination } });
if (config.seedDemo) {
  const seed = await database.withStartupLock(() =>
    seedDemoIfEmpty(database.db, config, systemClock, app.deps.media),
  );
  if (seed.seeded) app.log.info('seeded the demo site "Atelier Demo"');
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, "shutting down: finishing in-flight requests");
  try {
    // close() stops accepting connections and waits for in-flight requests to finish.
    await app.close();
    await database.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, "shutdown failed");
    process.exit(1);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

await app.listen({ port: config.port, host: config.host });
const where = config.publicUrl;
console.log(`
  Atelier is running at ${where}/  (database: ${database.kind === "pglite" ? `embedded, ${config.dataDir}` : "PostgreSQL"})
  Dashboard: ${where}/config   Owner login: ${config.demoOwnerEmail} / ${config.databaseUrl ? "(your DEMO_OWNER_PASSWORD)" : config.demoOwnerPassword}
`);
