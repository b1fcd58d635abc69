/**
 * Start time and memory of the server run through `tsx` (TypeScript compiled at run time) and
 * run as the compiled build (apps/server/build/main.js, what `npm start` runs), side by side in
 * one run: time from spawn to the first healthy answer on a fresh embedded database with the
 * demo, then the resident memory after every demo page type was answered once.
 *
 *   npm run bench:start          (BENCH_ROUNDS=N starts of each, default 3)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error a plain ES module script without declarations
import { SERVER_BUILD, buildServer } from "../scripts/build-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = ["/", "/shop", "/shop/p/linen-work-apron", "/blog", "/events", "/cart"];

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

async function once(args: string[]): Promise<{ startMs: number; rss: number }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-start-"));
  const port = 46000 + Math.floor(Math.random() * 3000);
  const began = performance.now();
  const proc: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      DATABASE_URL: "",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {}
      if (i > 3000 || proc.exitCode !== null) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 20));
    }
    const startMs = performance.now() - began;
    for (const p of PAGES) await (await fetch(base + p)).arrayBuffer();
    return { startMs, rss: rssMb(proc.pid!) };
  } finally {
    const done = new Promise((r) => proc.on("exit", r));
    proc.kill("SIGTERM");
    await done;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await buildServer();
const modes = [
  { name: "tsx (before)", args: ["--import", "tsx", path.join(root, "apps/server/src/main.ts")] },
  { name: "compiled (npm start)", args: ["--enable-source-maps", SERVER_BUILD as string] },
];
const results = new Map<string, { startMs: number; rss: number }[]>();
for (let r = 0; r < rounds; r++) {
  for (const m of modes) {
    const res = await once(m.args);
    results.set(m.name, [...(results.get(m.name) ?? []), res]);
    console.log(`${m.name.padEnd(22)} start ${Math.round(res.startMs)} ms  RSS ${res.rss.toFixed(0)} MB`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`\n| server | start to healthy (median of ${rounds}) | RSS after the demo's pages |`);
console.log("| --- | ---: | ---: |");
for (const [name, rs] of results) {
  console.log(
    `| ${name} | ${Math.round(median(rs.map((x) => x.startMs)))} ms | ${median(rs.map((x) => x.rss)).toFixed(0)} MB |`,
  );
}
