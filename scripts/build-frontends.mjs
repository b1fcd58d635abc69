#!/usr/bin/env node
/**
 * Builds the front ends (apps with a vite.config.ts) whose build is missing or older than their
 * sources. `--force` rebuilds them all. Used by `npm start` and `npm run build`.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { precompressDir } from "./precompress.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const frontends = ["apps/storefront", "apps/dashboard"];
/** Shared packages the front ends bundle: a change there makes their builds stale too. */
const sharedSources = ["packages/commerce/src", "packages/forms/src", "packages/jsont/src"];

export function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** A lock older than this belongs to a build that died: it is taken over. */
const STALE_LOCK_MS = 5 * 60_000;

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `work` (synchronous, or returning a promise) holding the app's build lock (a file created exclusively), so processes started
 * together never build into the same folder at once; a process that waited finds the build done.
 */
export function withBuildLock(dir, work) {
  const lock = path.join(dir, ".build.lock");
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      break;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
      } catch {}
      sleep(200);
    }
  }
  let result;
  try {
    result = work();
  } catch (err) {
    rmSync(lock, { force: true });
    throw err;
  }
  // Asynchronous work (a promise) holds the lock until it settles.
  if (typeof result?.finally === "function") return result.finally(() => rmSync(lock, { force: true }));
  rmSync(lock, { force: true });
  return result;
}

function isStale(dir) {
  const manifest = path.join(dir, "dist", ".vite", "manifest.json");
  const built = existsSync(manifest) ? statSync(manifest).mtimeMs : 0;
  const sources = Math.max(
    newest(path.join(dir, "src")),
    ...["vite.config.ts", "index.html"].map((f) =>
      existsSync(path.join(dir, f)) ? statSync(path.join(dir, f)).mtimeMs : 0,
    ),
    ...sharedSources.map((s) => newest(path.join(root, s))),
  );
  return built < sources;
}

export function buildFrontends({ force = false } = {}) {
  for (const app of frontends) {
    const dir = path.join(root, app);
    if (!existsSync(path.join(dir, "vite.config.ts"))) continue;
    if (!force && !isStale(dir)) continue;
    withBuildLock(dir, () => {
      // Another process may have built it while this one waited.
      if (!force && !isStale(dir)) return;
      console.log(`Building ${app}…`);
      const res = spawnSync("npm", ["run", "build", "-w", app], { cwd: root, stdio: "inherit" });
      if (res.status !== 0) throw new Error(`building ${app} failed`);
      precompressDir(path.join(dir, "dist"));
    });
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
