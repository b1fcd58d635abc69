/**
 * Helpers for tests that run the real server as a child process (`src/main.ts` through tsx).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { type AddressInfo, createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
// @ts-expect-error a plain ES module script without declarations
import { SERVER_BUILD } from "../../../scripts/build-server.mjs";
import { type ScratchDatabase, createScratchDatabase } from "./scratch-database.js";
import { postgresTemplateName } from "./template-database.js";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A port free on 127.0.0.1 right now (the system's pick), so test files running side by side never
 * start two servers on one port.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * How a child server is run: the compiled bundle `npm start` runs (built by global-setup.ts, or
 * rebuilt here when a source is newer), which starts with less work than compiling the TypeScript
 * with tsx in every child.
 */
export const SERVER_COMMAND: [string, ...string[]] = [
  process.execPath,
  "--enable-source-maps",
  SERVER_BUILD as string,
];

/** Starts the server on 127.0.0.1:`port` with its data in `dataDir`; `env` adds or overrides variables. */
export function startServer(port: number, dataDir: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(SERVER_COMMAND[0], SERVER_COMMAND.slice(1), {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      // The test's clients connect from this machine and name their own address (X-Forwarded-For).
      TRUST_PROXY: "loopback",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Waits until `base`/healthz answers OK (up to three minutes: a first start migrates and seeds, slowly on a busy machine). */
export async function waitHealthy(base: string): Promise<void> {
  for (let i = 0; i < 1800; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("server did not become healthy");
}

/** Resolves with the process's exit code once it has exited (at once if it already has). */
export const exited = (p: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    p.exitCode !== null || p.signalCode !== null
      ? resolve(p.exitCode)
      : p.on("exit", (code) => resolve(code)),
  );

/**
 * The database for the child servers of one test file: on the PostgreSQL suite (TEST_DATABASE_URL)
 * a scratch copy of the run's migrated template, made before the file's tests and dropped after
 * them, so a crash test covers PostgreSQL there; otherwise "" (the embedded database in the data
 * directory). Read it when a test starts a child: `DATABASE_URL: childDatabase()`.
 */
export function useChildDatabase(prefix: string): () => string {
  const admin = process.env.TEST_DATABASE_URL;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    if (admin) scratch = await createScratchDatabase(admin, prefix, {}, postgresTemplateName());
  });
  afterAll(async () => {
    await scratch?.drop();
  });
  return () => scratch?.url ?? "";
}
