/**
 * Memory of one server process as the number of sites it serves grows: 1,000 small sites
 * (made with the product's own createSite: a home page, an about page and a blog or shop each)
 * are visited one after another (home and about, twice), and the process's resident memory
 * (VmRSS) and V8 heap are read every 100 sites, each right after a full garbage collection
 * (bench/gc-on-signal.mjs), so the heap is what the process holds on to. Run once with caches that hold every site (the
 * defaults: SITE_CACHE_ENTRIES=1000, PAGE_CACHE_ENTRIES=5000, which is what a process kept before
 * these settings) and once capped, so the two curves come from the same run and machine.
 *
 *   npm run bench:memory     BENCH_SITES=1000 (default)
 *                            BENCH_CAPPED="SITE_CACHE_ENTRIES=100 PAGE_CACHE_ENTRIES=200"
 *                            DATABASE_URL=postgres://… the server to use (default
 *                            postgres://postgres@127.0.0.1:5432); a temporary database is made
 *                            on it and dropped afterwards
 *
 * PostgreSQL keeps the database's own memory out of the server process (PGlite would grow the
 * process with its data). Requests go through the page cache as a visitor's would.
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { root, rssMb, startServer } from "./server.js";
import { openDatabase } from "../apps/server/src/db/client.js";
import * as t from "../apps/server/src/db/schema.js";
import { newId } from "../apps/server/src/lib/ids.js";
import { createSite } from "../apps/server/src/modules/owner-sites/service.js";
import { createScratchDatabase } from "../apps/server/test/scratch-database.js";

const SITES = Number(process.env.BENCH_SITES ?? 1000);
const CAPPED = process.env.BENCH_CAPPED ?? "SITE_CACHE_ENTRIES=100 PAGE_CACHE_ENTRIES=200";
const EVERY = Math.max(1, Math.round(SITES / 10));
const TOKEN = "bench-memory-token";

async function seedSites(url: string): Promise<string[]> {
  const database = await openDatabase({ databaseUrl: url });
  try {
    const account = { id: newId(), email: "bench@atelier.test" };
    await database.db
      .insert(t.accounts)
      .values({ ...account, passwordHash: "not-a-login", displayName: "Bench" });
    const identifiers: string[] = [];
    for (let i = 0; i < SITES; i++) {
      const theme = i % 2 ? "commerce" : "classic";
      const identifier = `bench-${i}`;
      await createSite(
        database.db,
        account,
        { title: `Bench Site ${i}`, theme, identifier },
        "http://localhost",
      );
      identifiers.push(identifier);
    }
    return identifiers;
  } finally {
    await database.close();
  }
}

const startMemoryServer = (databaseUrl: string, env: Record<string, string>) =>
  startServer({
    args: [
      "--expose-gc",
      "--import",
      path.join(root, "bench/gc-on-signal.mjs"),
      "--import",
      "tsx",
      path.join(root, "apps/server/src/main.ts"),
    ],
    env: {
      DATABASE_URL: databaseUrl,
      SEED_DEMO: "false",
      METRICS_TOKEN: TOKEN,
      ...env,
    },
    host: "localhost",
  });

async function metric(base: string, name: string): Promise<number> {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(" ").pop()) : Number.NaN;
}

/** GET with a Host header (fetch does not send one of its own choosing). */
function visit(base: string, host: string, p: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${p}`, { headers: { host } }, (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`${host}${p} answered ${res.statusCode}`)),
        );
      })
      .on("error", reject);
  });
}

async function run(label: string, databaseUrl: string, identifiers: string[], env: Record<string, string>) {
  const server = await startMemoryServer(databaseUrl, env);
  try {
    const pid = server.proc.pid!;
    console.log(`\n${label}`);
    console.log("   sites   RSS MB   heap used MB   cached pages");
    const row = async (n: number) => {
      server.proc.kill("SIGUSR2");
      await new Promise((r) => setTimeout(r, 500));
      console.log(
        `${String(n).padStart(8)} ${rssMb(pid).toFixed(0).padStart(8)} ${((await metric(server.base, "nodejs_heap_size_used_bytes")) / 2 ** 20).toFixed(0).padStart(14)} ${String(await metric(server.base, "atelier_page_cache_entries")).padStart(14)}`,
      );
    };
    await row(0);
    for (let i = 0; i < identifiers.length; i++) {
      const host = `${identifiers[i]}.localhost`;
      for (let k = 0; k < 2; k++) {
        await visit(server.base, host, "/");
        await visit(server.base, host, "/about");
      }
      if ((i + 1) % EVERY === 0) await row(i + 1);
    }
  } finally {
    await server.stop();
  }
}

function parseEnv(s: string): Record<string, string> {
  return Object.fromEntries(
    s
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => kv.split("=") as [string, string]),
  );
}

const admin = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const scratch = await createScratchDatabase(admin, "atelier_bench_mem");
try {
  const started = Date.now();
  const identifiers = await seedSites(scratch.url);
  console.log(`Seeded ${identifiers.length} sites in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  console.log(
    `Load average: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${os.cpus().length} CPUs.`,
  );
  await run("Caches that hold every site (defaults)", scratch.url, identifiers, {});
  await run(`Capped: ${CAPPED}`, scratch.url, identifiers, parseEnv(CAPPED));
} finally {
  await scratch.drop();
}
