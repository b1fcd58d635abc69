/**
 * Starts the real server once for the browser tests: a fresh embedded database (or
 * E2E_DATABASE_URL) with the demo site, on a free port.
 */
import path from "node:path";
import type { TestProject } from "vitest/node";
import { type BenchServer, root, startServer } from "../bench/server.js";

let server: BenchServer | undefined;

export async function setup(project: TestProject) {
  server = await startServer({
    args: [path.join(root, "scripts/start.mjs")],
    env: { LOG_LEVEL: "warn", DATABASE_URL: process.env.E2E_DATABASE_URL ?? "" },
    host: "localhost",
    stdout: "inherit",
    name: "e2e",
  });
  project.provide("baseUrl", `http://localhost:${server.port}`);
}

export async function teardown() {
  await server?.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
