/**
 * Published-page throughput: `/shop` and a blog post, cold (rendered on every request, page
 * cache off) and warm (from the page cache), with compression on (requests accept Brotli, as
 * browsers do), against the runtime's ceiling — a minimal Node `http` server sending the same
 * headers and compressed bytes from memory (bench/ceiling-server.mjs) — and against the same
 * server sending the same compressed bytes as a static file (@fastify/static, precompressed,
 * the storefront's asset route). One run, one machine:
 *
 *   npm run bench:pages                 (BENCH_SECONDS=S per measurement, default 8;
 *                                        BENCH_CONNECTIONS=N, default 10)
 *
 * Two server processes are started on fresh embedded databases with the demo site, one with
 * the page cache (PAGE_CACHE unset) and one without (PAGE_CACHE=false); autocannon drives them
 * from this process, one measurement at a time. Servers run the compiled build, as `npm start`
 * does. Requests carry a crumb cookie, as a visitor's second page view does. The static file is
 * the warm page's exact bytes (and their Brotli form), written into the storefront's dist folder
 * for the run and removed afterwards.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import zlib from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error autocannon ships no type declarations
import autocannon from "autocannon";
// @ts-expect-error a plain ES module script without declarations
import { SERVER_BUILD, buildServer } from "../scripts/build-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const CRUMB = "benchcrumbbenchcrumb00";
const PAGES = [
  { name: "shop", path: "/shop" },
  { name: "blog post", path: "/blog/a-week-at-the-wheel" },
];

interface Server {
  base: string;
  proc: ChildProcess;
  dataDir: string;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-"));
  const port = 45000 + Math.floor(Math.random() * 4000);
  const proc = spawn(process.execPath, [SERVER_BUILD as string], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      DATABASE_URL: "",
      PUBLIC_URL: `http://localhost:${port}`,
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (i > 1200 || proc.exitCode !== null) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, proc, dataDir };
}

async function stopServer(s: Server): Promise<void> {
  if (s.proc.exitCode === null) {
    const done = new Promise((r) => s.proc.on("exit", r));
    s.proc.kill("SIGTERM");
    await done;
  }
  rmSync(s.dataDir, { recursive: true, force: true });
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
  errors: number;
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
async function startCeiling(body: Buffer, headers: http.IncomingHttpHeaders): Promise<Server> {
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
  return { base: `http://127.0.0.1:${port}`, proc, dataDir };
}

async function measure(url: string): Promise<Measure> {
  // A short warm-up, then the measurement.
  await autocannon({ url, connections, duration: 1, headers: HEADERS });
  const r = await autocannon({ url, connections, duration: seconds, headers: HEADERS });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bytes: r.throughput.average,
    errors: r.errors + r.non2xx,
  };
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

async function main() {
  await buildServer();
  // The static file is served from the storefront's build: build it when it is missing.
  if (!existsSync(path.join(root, "apps/storefront/dist/.vite/manifest.json"))) {
    const b = spawnSync("npm", ["run", "build", "-w", "apps/storefront"], { cwd: root, stdio: "inherit" });
    if (b.status !== 0) throw new Error("could not build the storefront");
  }
  console.log(
    `bench:pages: ${seconds}s per measurement, ${connections} connections, ${os.cpus().length} CPUs`,
  );
  const warmServer = await startServer({});
  const coldServer = await startServer({ PAGE_CACHE: "false" });
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

      let ceiling: Measure;
      try {
        ceiling = await measure(ceilingServer.base + page.path);
      } finally {
        await stopServer(ceilingServer);
      }
      const stat = await measure(staticUrl);
      const warm = await measure(warmServer.base + page.path);
      const cold = await measure(coldServer.base + page.path);
      for (const [label, m] of [
        ["ceiling (node http)", ceiling],
        ["static file", stat],
        ["warm (page cache)", warm],
        ["cold (rendered)", cold],
      ] as const) {
        console.log(
          `${page.path.padEnd(28)} ${label.padEnd(20)} ${fmt(m.rps).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms${m.errors ? `  ${m.errors} errors` : ""}`,
        );
      }
      rows.push(
        `| \`${page.path}\` (${(res.body.length / 1024).toFixed(1)} KB br) | ${fmt(ceiling.rps)} | ${fmt(stat.rps)} | ${fmt(warm.rps)} | ${fmt(cold.rps)} | **${(warm.rps / ceiling.rps).toFixed(2)}** | ${(warm.rps / stat.rps).toFixed(2)} | ${(cold.rps / ceiling.rps).toFixed(3)} |`,
      );
    }
  } finally {
    rmSync(staticDir, { recursive: true, force: true });
    await Promise.all([stopServer(warmServer), stopServer(coldServer)]);
  }
  console.log(
    "\n| page | ceiling req/s | static file req/s | warm req/s | cold req/s | warm / ceiling | warm / static | cold / ceiling |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) console.log(r);
}

if (!existsSync(path.join(root, "scripts/start.mjs"))) throw new Error("run from the repository");
await main();
