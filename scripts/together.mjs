#!/usr/bin/env node
/**
 * Runs the npm scripts named on the command line at the same time (`node scripts/together.mjs
 * typecheck build`) and fails if any of them fails: the type check is one core's work, the build
 * mostly another's, so `npm test` runs them side by side.
 */
import { spawn } from "node:child_process";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const runs = process.argv.slice(2).map(
  (script) =>
    new Promise((resolve) => {
      const child = spawn(npm, ["run", "--silent", script], { stdio: "inherit" });
      child.on("exit", (code, signal) => resolve({ script, ok: code === 0, why: signal ?? `exit ${code}` }));
    }),
);
const failed = (await Promise.all(runs)).filter((r) => !r.ok);
for (const r of failed) console.error(`npm run ${r.script} failed (${r.why})`);
process.exit(failed.length ? 1 : 0);
