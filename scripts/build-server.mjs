#!/usr/bin/env node
/**
 * Compiles the server (apps/server/src/main.ts and the workspace packages it imports) into one
 * JavaScript module, apps/server/build/main.js, which `npm start` runs with plain Node: no
 * TypeScript compiler at run time. Other packages stay in node_modules (imported as they are).
 * Built when missing or older than its sources, under a lock file, like the front ends.
 *
 * Modules find files beside their source (themes, migrations, the front ends' builds) from
 * `import.meta.url`; in the bundle each of them still sees its own source file's address.
 */
import { existsSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { newest, withBuildLock } from "./build-frontends.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const serverDir = path.join(root, "apps/server");
export const SERVER_BUILD = path.join(serverDir, "build/main.js");
const sources = ["apps/server/src", "packages/jsont/src", "packages/commerce/src", "packages/forms/src"];

function isStale() {
  const built = existsSync(SERVER_BUILD) ? statSync(SERVER_BUILD).mtimeMs : 0;
  const latest = Math.max(
    ...sources.map((s) => newest(path.join(root, s))),
    statSync(fileURLToPath(import.meta.url)).mtimeMs,
  );
  return built < latest;
}

/** esbuild plugin: workspace packages are bundled, every other package stays external. */
const workspaceOnly = {
  name: "workspace-only",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@atelier/") ? undefined : { path: args.path, external: true },
    );
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const { readFile } = await import("node:fs/promises");
      const text = await readFile(args.path, "utf8");
      const fromBuild = path.relative(path.dirname(SERVER_BUILD), args.path).split(path.sep).join("/");
      return {
        contents: text.replaceAll(
          "import.meta.url",
          `new URL(${JSON.stringify(fromBuild)}, import.meta.url).href`,
        ),
        loader: "ts",
      };
    });
  },
};

export async function buildServer({ force = false } = {}) {
  if (!force && !isStale()) return false;
  const esbuild = await import("esbuild");
  await withBuildLock(serverDir, async () => {
    if (!force && !isStale()) return;
    console.log("Building apps/server…");
    const began = new Date();
    await esbuild.build({
      entryPoints: [path.join(serverDir, "src/main.ts")],
      outfile: SERVER_BUILD,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      sourcemap: true,
      logLevel: "warning",
      plugins: [workspaceOnly],
    });
    // Dated when the build began: a source changed while it ran makes it stale.
    utimesSync(SERVER_BUILD, began, began);
  });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await buildServer({ force: process.argv.includes("--force") });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
