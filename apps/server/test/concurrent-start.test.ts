/**
 * Replicas starting together on one empty PostgreSQL database (the normal case of a deployment
 * with several processes): the migrations and the demo seed run once, under the startup lock;
 * every process comes up, none crashes, and there is exactly one demo site and one owner.
 * Runs on PostgreSQL only (TEST_DATABASE_URL); PGlite has a single process by design.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type ScratchDatabase, createScratchDatabase } from "./scratch-database.js";
import { SERVER_COMMAND, freePort } from "./server-process.js";

const admin = process.env.TEST_DATABASE_URL;
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const scratches: ScratchDatabase[] = [];
const running: ChildProcess[] = [];

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

async function emptyDatabase(): Promise<string> {
  const scratch = await createScratchDatabase(admin!, "atelier_start");
  scratches.push(scratch);
  return scratch.url;
}

function start(databaseUrl: string, port: number): { proc: ChildProcess; output: () => string } {
  let output = "";
  const proc = spawn(SERVER_COMMAND[0], SERVER_COMMAND.slice(1), {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout?.on("data", (d) => (output += d));
  proc.stderr?.on("data", (d) => (output += d));
  running.push(proc);
  return { proc, output: () => output };
}

async function healthy(port: number, proc: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (proc.exitCode !== null) throw new Error(`process on ${port} exited ${proc.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`process on ${port} did not become healthy:\n${output()}`);
}

afterAll(async () => {
  for (const p of running) p.kill("SIGKILL");
  for (const scratch of scratches) await scratch.drop();
});

describe.skipIf(!admin)("processes starting together on one empty database", () => {
  for (const count of [2, 4]) {
    it(`comes up ${count} times with one demo and one owner, no crash`, async () => {
      const url = await emptyDatabase();
      const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
      const procs = ports.map((port) => ({ port, ...start(url, port) }));
      await Promise.all(procs.map((p) => healthy(p.port, p.proc, p.output)));
      for (const p of procs) expect(p.proc.exitCode, p.output()).toBeNull();
      const sites = await query(url, "select identifier from websites");
      expect(sites.rows.map((r) => r.identifier)).toEqual(["demo"]);
      const owners = await query(url, "select email from accounts");
      expect(owners.rows.map((r) => r.email)).toEqual(["owner@atelier.test"]);
      const migrations = await query(url, "select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(migrations.rows[0].n).toBeGreaterThan(0);
      // Every process serves the one demo.
      for (const p of procs) expect((await fetch(`http://127.0.0.1:${p.port}/shop`)).status).toBe(200);
      for (const p of procs) p.proc.kill("SIGTERM");
    }, 120_000);
  }
});
