/**
 * Start time and memory of the server run through `tsx` (TypeScript compiled at run time) and
 * run as the compiled build (apps/server/build/main.js, what `npm start` runs), side by side in
 * one run: time from spawn to the first healthy answer on a fresh embedded database with the
 * demo, then the resident memory after every demo page type was answered once.
 *
 *   npm run bench:start          (BENCH_ROUNDS=N starts of each, default 3)
 */
import path from "node:path";
// @ts-expect-error a plain ES module script without declarations
import { SERVER_BUILD, buildServer } from "../scripts/build-server.mjs";
import { root, rssMb, startServer } from "./server.js";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = ["/", "/shop", "/shop/p/linen-work-apron", "/blog", "/events", "/cart"];

async function once(args: string[]): Promise<{ startMs: number; rss: number }> {
  const server = await startServer({ args });
  try {
    for (const p of PAGES) await (await fetch(server.base + p)).arrayBuffer();
    return { startMs: server.startMs, rss: rssMb(server.proc.pid!) };
  } finally {
    await server.stop();
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
