/**
 * Starts the real server once for the browser tests: a fresh embedded database (or
 * E2E_DATABASE_URL) with the demo site, on a free port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
let server: ChildProcess | undefined;
let dataDir = "";

export async function setup(project: TestProject) {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-e2e-"));
  const port = 43000 + Math.floor(Math.random() * 2000);
  server = spawn(process.execPath, [path.join(root, "scripts/start.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
      PUBLIC_URL: `http://localhost:${port}`,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://localhost:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (i > 1200) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  project.provide("baseUrl", base);
}

export async function teardown() {
  if (server && server.exitCode === null) {
    const done = new Promise((r) => server!.on("exit", r));
    server.kill("SIGTERM");
    await done;
  }
  rmSync(dataDir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
