/**
 * An app of one browser test file's own, on its own embedded database, so the shared server's
 * demo is untouched: started before the file's tests (with Chromium), stopped after them.
 */
import { freePort } from "../apps/server/test/server-process.js";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../apps/server/src/app.js";
import { type Config, loadConfig } from "../apps/server/src/config.js";
import { type Database, openDatabase } from "../apps/server/src/db/client.js";
import type { Clock } from "../apps/server/src/lib/clock.js";
import { scaled, useBrowser } from "./browser.js";

interface OwnServer {
  app: FastifyInstance;
  database: Database;
  port: number;
}

/** Registers the file's server (filled in by its seed) and Chromium; the answer is ready once the tests run. */
export function useOwnServer(
  name: string,
  seed: (database: Database, config: Config, dataDir: string) => Promise<unknown>,
  env: Record<string, string> = {},
  /** The app's clock, for tests that move time. */
  clock?: Clock,
): OwnServer {
  const server = {} as OwnServer;
  let dataDir = "";
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), `atelier-e2e-${name}-`));
    // The port is chosen first so PUBLIC_URL, the address links in emails are made on, is the real one.
    const port = await freePort();
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      // Each test visitor names its own address (browser.ts, visitorPage), as if behind a local proxy.
      TRUST_PROXY: "loopback",
      ...env,
    });
    server.database = await openDatabase({ dataDir: "memory://" });
    server.app = await buildApp({ config, database: server.database, logger: false, clock });
    await seed(server.database, config, dataDir);
    await server.app.listen({ port, host: "127.0.0.1" });
    server.port = (server.app.server.address() as { port: number }).port;
  }, scaled(120_000));
  useBrowser();
  afterAll(async () => {
    await server.app?.close();
    await server.database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return server;
}
