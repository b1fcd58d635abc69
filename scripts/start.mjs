#!/usr/bin/env node
/**
 * `npm start`: builds the front ends and the server when their build is missing or older than
 * their sources, then runs the compiled server with plain Node (embedded database and the demo
 * site unless DATABASE_URL says otherwise).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildFrontends } from "./build-frontends.mjs";
import { SERVER_BUILD, buildServer } from "./build-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

try {
  buildFrontends();
  await buildServer();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const server = spawn(process.execPath, ["--enable-source-maps", SERVER_BUILD], {
  cwd: root,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
