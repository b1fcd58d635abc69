/**
 * Published-page throughput: the home page, `/shop`, a product and a blog post, cold (rendered on every request, page
 * cache off) and warm (from the page cache), with compression on (requests accept Brotli, as
 * browsers do), against the runtime's ceiling — a minimal Node `http` server sending the same
 * headers and compressed bytes from memory (bench/ceiling-server.mjs) — and against the same
 * server sending the same compressed bytes as a static file (@fastify/static, precompressed,
 * the storefront's asset route). One run, one machine:
 *
 *   npm run bench:pages                 (BENCH_SECONDS=S per measurement, default 8;
 *                                        BENCH_CONNECTIONS=N, default 10;
 *                                        BENCH_ROUNDS=R turns of ceiling and warm, default 3)
 *
 * Warm pages are answered in front of Fastify (render/warm-pages.ts); the ceiling and the warm
 * page take turns. Two server processes are started on fresh embedded databases with the demo site, one with
 * the page cache (PAGE_CACHE unset) and one without (PAGE_CACHE=false); autocannon drives them
 * from this process, one measurement at a time. Servers run the compiled build, as `npm start`
 * does. Requests carry a crumb cookie, as a visitor's second page view does. The static file is
 * the warm page's exact bytes (and their Brotli form), written into the storefront's dist folder
 * for the run and removed afterwards.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import zlib from "node:zlib";
import path from "node:path";
// @ts-expect-error autocannon ships no type declarations
import autocannon from "autocannon";
// @ts-expect-error a plain ES module script without declarations
import { SERVER_BUILD, buildServer } from "../scripts/build-server.mjs";

import { cpuTicks, root, startServer, waitIdle } from "./server.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const CRUMB = "benchcrumbbenchcrumb00";
const PAGES = [
  { name: "home", path: "/" },
  { name: "shop", path: "/shop" },
  { name: "product", path: "/shop/p/stoneware-mug" },
  { name: "blog post", path: "/blog/a-week-at-the-wheel" },
];

const startPagesServer = (env: Record<string, string>) =>
  startServer({ args: [SERVER_BUILD as string], env, host: "127.0.0.1" });

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
  errors: number;
  /** The server's CPU time per request, in microseconds (when measured). */
  cpuUs: number;
}

const HEADERS = { cookie: `crumb=${CRUMB}`, "accept-encoding": "br, gzip" };

/** One answer as it comes over the wire: status, headers and the body still compressed. */
function raw(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: HEADERS }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject);
  });
}

/** The ceiling server for one page's answer. */
async function startCeiling(
  body: Buffer,
  headers: http.IncomingHttpHeaders,
): Promise<{ base: string; pid: number; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-ceiling-"));
  const port = 49500 + Math.floor(Math.random() * 400);
  const keep = Object.fromEntries(
    Object.entries(headers).filter(
      ([k]) => !["date", "connection", "keep-alive", "transfer-encoding"].includes(k),
    ),
  );
  writeFileSync(path.join(dataDir, "body"), body);
  writeFileSync(path.join(dataDir, "headers.json"), JSON.stringify(keep));
  const proc = spawn(
    process.execPath,
    [
      path.join(root, "bench/ceiling-server.mjs"),
      String(port),
      path.join(dataDir, "body"),
      path.join(dataDir, "headers.json"),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise((resolve) => proc.stdout!.once("data", resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    pid: proc.pid!,
    stop: async () => {
      const done = new Promise((r) => proc.on("exit", r));
      proc.kill("SIGTERM");
      await done;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Measures `url`; with `pid`, also that process's CPU time per request (from /proc, 10 ms ticks). */
async function measure(url: string, pid?: number): Promise<Measure> {
  // A short warm-up, then the measurement.
  await autocannon({ url, connections, duration: 1, headers: HEADERS });
  const ticks = pid ? cpuTicks(pid) : 0;
  const r = await autocannon({ url, connections, duration: seconds, headers: HEADERS });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bytes: r.throughput.average,
    errors: r.errors + r.non2xx,
    cpuUs: pid ? ((cpuTicks(pid) - ticks) * 10_000) / r.requests.total : Number.NaN,
  };
}

function mean(ms: Measure[]): Measure {
  const avg = (k: keyof Measure) => ms.reduce((n, m) => n + m[k], 0) / ms.length;
  return {
    rps: avg("rps"),
    p50: avg("p50"),
    p99: avg("p99"),
    bytes: avg("bytes"),
    errors: avg("errors"),
    cpuUs: avg("cpuUs"),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

async function main() {
  await buildServer();
  // The static file is served from the storefront's build: build it when it is missing.
  if (!existsSync(path.join(root, "apps/storefront/dist/.vite/manifest.json"))) {
    const b = spawnSync("npm", ["run", "build", "-w", "apps/storefront"], { cwd: root, stdio: "inherit" });
    if (b.status !== 0) throw new Error("could not build the storefront");
  }
  console.log(
    `bench:pages: ${seconds}s per measurement, ${connections} connections, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
  );
  const warmServer = await startPagesServer({});
  const coldServer = await startPagesServer({ PAGE_CACHE: "false" });
  await waitIdle([warmServer.proc.pid!, coldServer.proc.pid!]);
  const staticDir = path.join(root, "apps/storefront/dist/bench");
  mkdirSync(staticDir, { recursive: true });
  const rows: string[] = [];
  try {
    for (const page of PAGES) {
      const page1 = await raw(warmServer.base + page.path);
      const res = await raw(warmServer.base + page.path);
      if (res.status !== 200) throw new Error(`${page.path} answered ${res.status}`);
      if (res.headers["content-encoding"] !== "br") throw new Error(`${page.path} was not compressed`);
      if (!page1.body.equals(res.body)) throw new Error(`${page.path} changes from one answer to the next`);
      const file = `${page.name.replace(/\W+/g, "-")}.html`;
      writeFileSync(path.join(staticDir, file), zlib.brotliDecompressSync(res.body));
      writeFileSync(path.join(staticDir, `${file}.br`), res.body);
      const staticUrl = `${warmServer.base}/assets/storefront/bench/${file}`;
      const check = await raw(staticUrl);
      if (!check.body.equals(res.body)) throw new Error("the static file does not hold the page's bytes");
      const ceilingServer = await startCeiling(res.body, res.headers);
      const ceilingCheck = await raw(ceilingServer.base + page.path);
      if (!ceilingCheck.body.equals(res.body))
        throw new Error("the ceiling server does not send the page's bytes");

      // The ceiling and the warm page take turns, ROUNDS times, so that a change in the machine's
      // load falls on both; the ratio is the median of the rounds' ratios.
      let ceiling: Measure;
      let warm: Measure;
      let ratio: number;
      let cpuRatio: number;
      try {
        const ceilings: Measure[] = [];
        const warms: Measure[] = [];
        for (let round = 0; round < rounds; round++) {
          ceilings.push(await measure(ceilingServer.base + page.path, ceilingServer.pid));
          warms.push(await measure(warmServer.base + page.path, warmServer.proc.pid));
        }
        ceiling = mean(ceilings);
        warm = mean(warms);
        const ratios = warms.map((w, i) => w.rps / ceilings[i]!.rps);
        ratio = median(ratios);
        // CPU time per request hardly depends on what else the machine runs: the steadier ratio.
        const cpuRatios = warms.map((w, i) => ceilings[i]!.cpuUs / w.cpuUs);
        cpuRatio = median(cpuRatios);
        console.log(
          `${page.path.padEnd(28)} warm / ceiling by round: ${ratios.map((r) => r.toFixed(2)).join(", ")}; by CPU per request: ${cpuRatios.map((r) => r.toFixed(2)).join(", ")}`,
        );
      } finally {
        await ceilingServer.stop();
      }
      const stat = await measure(staticUrl);
      const cold = await measure(coldServer.base + page.path);
      for (const [label, m] of [
        ["ceiling (node http)", ceiling],
        ["static file", stat],
        ["warm (page cache)", warm],
        ["cold (rendered)", cold],
      ] as const) {
        console.log(
          `${page.path.padEnd(28)} ${label.padEnd(20)} ${fmt(m.rps).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms${Number.isNaN(m.cpuUs) ? "" : `  ${fmt(m.cpuUs)} µs CPU/req`}${m.errors ? `  ${m.errors} errors` : ""}`,
        );
      }
      rows.push(
        `| \`${page.path}\` (${(res.body.length / 1024).toFixed(1)} KB br) | ${fmt(ceiling.rps)} | ${fmt(stat.rps)} | ${fmt(warm.rps)} | ${fmt(cold.rps)} | **${ratio.toFixed(2)}** | **${cpuRatio.toFixed(2)}** | ${(warm.rps / stat.rps).toFixed(2)} | ${(cold.rps / ceiling.rps).toFixed(3)} |`,
      );
    }
  } finally {
    rmSync(staticDir, { recursive: true, force: true });
    await Promise.all([warmServer.stop(), coldServer.stop()]);
  }
  console.log(
    `\nload average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")} at the end`,
  );
  console.log(
    "\n| page | ceiling req/s | static file req/s | warm req/s | cold req/s | warm / ceiling (median of rounds) | ceiling / warm CPU per request (median) | warm / static | cold / ceiling |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) console.log(r);
}

if (!existsSync(path.join(root, "scripts/start.mjs"))) throw new Error("run from the repository");
await main();
