#!/usr/bin/env node
/**
 * Builds the front ends (apps with a vite.config.ts) whose build is missing or older than their
 * sources. `--force` rebuilds them all. Used by `npm start` and `npm run build`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const frontends = ["apps/storefront", "apps/dashboard"];
/** Shared packages the front ends bundle: a change there makes their builds stale too. */
const sharedSources = ["packages/commerce/src", "packages/forms/src", "packages/jsont/src"];

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

export function buildFrontends({ force = false } = {}) {
  for (const app of frontends) {
    const dir = path.join(root, app);
    if (!existsSync(path.join(dir, "vite.config.ts"))) continue;
    const manifest = path.join(dir, "dist", ".vite", "manifest.json");
    const built = existsSync(manifest) ? statSync(manifest).mtimeMs : 0;
    const sources = Math.max(
      newest(path.join(dir, "src")),
      ...["vite.config.ts", "index.html"].map((f) =>
        existsSync(path.join(dir, f)) ? statSync(path.join(dir, f)).mtimeMs : 0,
      ),
      ...sharedSources.map((s) => newest(path.join(root, s))),
    );
    if (!force && built >= sources) continue;
    console.log(`Building ${app}…`);
    const res = spawnSync("npm", ["run", "build", "-w", app], { cwd: root, stdio: "inherit" });
    if (res.status !== 0) throw new Error(`building ${app} failed`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildFrontends({ force: process.argv.includes("--force") });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
