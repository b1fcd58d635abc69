/**
 * Load through nginx on the cluster layout (`npm run cluster`: 3 processes by default, PostgreSQL,
 * s3rver): page views spread over 200 sites, and carts (add to cart, each request a new cart),
 * with autocannon, at most 60 s of load in all. The baseline, measured in the same run, is the
 * same page-view load sent straight to one process without nginx.
 *
 *   npm run cluster-load -w bench    (BENCH_PROCESSES=N, default 3; BENCH_SECONDS=S per
 *                                      measurement, default 12; BENCH_CONNECTIONS=C, default 32)
 *
 * Printed: requests per second, p50 and p99 latency, non-2xx answers, and each server process's
 * resident memory (RSS) once warm, and its peak (VmHWM) after the load.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
// @ts-expect-error autocannon ships no type declarations
import autocannon from "autocannon";
import { DEMO_OWNER } from "../apps/server/test/fixtures.js";
import { startCluster } from "../scripts/cluster.js";

const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 3);
const SECONDS = Math.min(Number(process.env.BENCH_SECONDS ?? 12), 18);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SITES = 200;
const CRUMB = "benchcrumbbenchcrumb00";

/** A GET of `/` with this Host (fetch does not let a caller set Host; node:http does). */
function get(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/", headers: { host } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
}

function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  total: number;
}

async function measure(
  name: string,
  url: string,
  requests: unknown[],
  headers: Record<string, string> = {},
): Promise<Result> {
  const opts = { url, connections: CONNECTIONS, headers: { cookie: `crumb=${CRUMB}`, ...headers }, requests };
  await autocannon({ ...opts, duration: 1 }); // warm-up, not counted
  const r = await autocannon({ ...opts, duration: SECONDS });
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors + r.timeouts,
    total: r.requests.total,
  };
}

const cluster = await startCluster({ processes: PROCESSES, logLevel: "error" });
try {
  // 199 more sites through the owner API (the demo is the 200th), each with its own host.
  const base = cluster.url;
  let cookies = `crumb=${CRUMB}`;
  const login = await fetch(`${base}/api/owner/session`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: cookies, "x-csrf-token": CRUMB },
    body: JSON.stringify(DEMO_OWNER),
  });
  if (login.status !== 200) throw new Error(`owner login: ${login.status}`);
  cookies += `; ${login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ")}`;
  const hosts = ["localhost"];
  for (let i = 1; i < SITES; i++) {
    const res = await fetch(`${base}/api/owner/sites`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: cookies, "x-csrf-token": CRUMB },
      body: JSON.stringify({ title: `Load ${i}`, theme: "classic", identifier: `load-${i}` }),
    });
    if (res.status !== 201) throw new Error(`create site ${i}: ${res.status} ${await res.text()}`);
    const { site } = (await res.json()) as { site: { identifier?: string } };
    hosts.push(`${site.identifier ?? `load-${i}`}.localhost`);
  }
  const shop = (await (await fetch(`${base}/shop/p/everyday-tote?format=json`)).json()) as {
    item: { id: string; structuredContent: { variants: { id: string; sku: string }[] } };
  };
  // Every process renders every site's home page once, so no measurement meets cold caches.
  for (const p of cluster.processes) {
    for (const host of hosts) {
      const status = await get(p.port, host);
      if (status !== 200) throw new Error(`warming ${host} on port ${p.port}: ${status}`);
    }
  }
  const before = cluster.processes.map((p) => memory(p.child.pid!));

  let n = 0;
  const pageViews = [
    {
      method: "GET",
      path: "/",
      // Each request a site's home page, round the 200 hosts.
      setupRequest: (req: { headers: Record<string, string> }) => {
        req.headers = { ...req.headers, host: hosts[n++ % hosts.length]! };
        return req;
      },
    },
  ];
  let buyer = 0;
  const carts = [
    {
      method: "POST",
      path: "/api/commerce/shopping-cart/entries",
      body: JSON.stringify({
        itemId: shop.item.id,
        sku: shop.item.structuredContent.variants[0]!.sku,
        quantity: 1,
      }),
      setupRequest: (req: { headers: Record<string, string> }) => {
        buyer++;
        req.headers = {
          ...req.headers,
          host: "localhost",
          "content-type": "application/json",
          "x-csrf-token": CRUMB,
          "x-forwarded-for": `10.${(buyer >> 16) & 255}.${(buyer >> 8) & 255}.${buyer & 255}`,
        };
        return req;
      },
    },
  ];

  console.log(
    `cluster load: ${PROCESSES} processes behind nginx, ${hosts.length} sites, ${CONNECTIONS} connections, ${SECONDS} s per measurement\n`,
  );
  const rows: Result[] = [];
  rows.push(
    await measure(
      "baseline: page views, one process, no nginx",
      `http://127.0.0.1:${cluster.processes[0]!.port}`,
      pageViews,
    ),
  );
  rows.push(await measure(`page views through nginx (${PROCESSES} processes)`, base, pageViews));
  rows.push(await measure(`carts through nginx (${PROCESSES} processes)`, base, carts));
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(46)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(5)} ms   non-2xx/errors ${r.non2xx}/${r.total}`,
    );
  }
  console.log(`\nspeed-up through nginx over one process: ${(rows[1]!.rps / rows[0]!.rps).toFixed(2)}×`);
  cluster.processes.forEach((p, i) => {
    const after = memory(p.child.pid!);
    console.log(
      `process ${i + 1} (pid ${p.child.pid}): RSS ${before[i]!.rss.toFixed(0)} MB warm, ${after.rss.toFixed(0)} MB after load, peak ${after.peak.toFixed(0)} MB`,
    );
  });
} finally {
  await cluster.stop();
}
