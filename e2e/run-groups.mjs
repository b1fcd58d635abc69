#!/usr/bin/env node
/**
 * The browser tests in two groups at once (vitest.config.ts, E2E_GROUP): the files with a server
 * of their own beside the files sharing the demo server, each group its own Vitest, Chromium and
 * server. The shared group's output is shown as it comes, the other's after it, so neither is cut
 * into the other; fails if either group fails. With arguments (`npm run test:e2e -- cart`), one
 * Vitest runs the files they pick, whichever group they are in.
 */
import { spawn } from "node:child_process";

const vitestBin = new URL("../node_modules/vitest/vitest.mjs", import.meta.url).pathname;
const vitest = (group, stdio) =>
  spawn(process.execPath, [vitestBin, "run", "--config", "vitest.config.ts", ...process.argv.slice(2)], {
    env: group ? { ...process.env, E2E_GROUP: group } : process.env,
    stdio,
  });
/** Its exit status, once its output is all read ("close", not "exit"). */
const closed = (child) =>
  new Promise((resolve) => child.on("close", (code, signal) => resolve(code === 0 ? 0 : (code ?? signal))));

if (process.argv.length > 2) process.exit((await closed(vitest(undefined, "inherit"))) === 0 ? 0 : 1);

const own = vitest("own-server", ["ignore", "pipe", "pipe"]);
const ownDone = closed(own);
const held = [];
own.stdout.on("data", (b) => held.push(b));
own.stderr.on("data", (b) => held.push(b));
const shared = vitest("shared-server", "inherit");
const sharedDone = closed(shared);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    own.kill(signal);
    shared.kill(signal);
  });
}

const sharedResult = await sharedDone;
const ownResult = await ownDone;
process.stdout.write("\n== browser tests with a server of their own (run at the same time as the above)\n");
process.stdout.write(Buffer.concat(held));
if (sharedResult !== 0) console.error(`the shared-server browser tests failed (${sharedResult})`);
if (ownResult !== 0) console.error(`the own-server browser tests failed (${ownResult})`);
process.exit(sharedResult === 0 && ownResult === 0 ? 0 : 1);
