/**
 * A server process for a benchmark (and for the browser tests' global setup): started on a
 * free port with its own data folder, ready once `/healthz` answers, stopped with SIGTERM (as
 * an operator would) and its folder removed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../apps/server/test/server-process.js";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface BenchServer {
  base: string;
  port: number;
  proc: ChildProcess;
  dataDir: string;
  /** Milliseconds from spawning to the first healthy answer. */
  startMs: number;
  stop(): Promise<void>;
}

interface StartOptions {
  /** Node's arguments: the script and what precedes it (default: the compiled server build). */
  args: string[];
  /** Environment over the defaults (embedded database, errors-only logging, this port). */
  env?: Record<string, string>;
  /** The host name in PUBLIC_URL (default 127.0.0.1; `base` is always 127.0.0.1). */
  host?: string;
  /** How long to wait for `/healthz`, in milliseconds. */
  timeoutMs?: number;
  /** Where the server's standard output goes (default: nowhere). */
  stdout?: "ignore" | "inherit";
  /** What the data folder's name says it is for (default: bench). */
  name?: string;
}

export async function startServer(opts: StartOptions): Promise<BenchServer> {
  // The port is free when chosen, but a build before listening can take long enough for another
  // process to take it: a server that exits before it is healthy is started again on a new port.
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(opts, await freePort());
    if (started !== "exited") return started;
    if (attempt === 3) throw new Error("the server did not start");
  }
}

async function startOnce(opts: StartOptions, port: number): Promise<BenchServer | "exited"> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `atelier-${opts.name ?? "bench"}-`));
  const host = opts.host ?? "127.0.0.1";
  const began = performance.now();
  const proc = spawn(process.execPath, opts.args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      DATABASE_URL: "",
      PUBLIC_URL: `http://${host}:${port}`,
      // The clients connect from this machine and each names its own address (X-Forwarded-For).
      TRUST_PROXY: "loopback",
      ...opts.env,
    },
    stdio: ["ignore", opts.stdout ?? "ignore", "inherit"],
  });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const done = new Promise((r) => proc.on("exit", r));
      proc.kill("SIGTERM");
      await done;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 300_000);
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (proc.exitCode !== null) {
      await stop();
      return "exited";
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error("the server did not start");
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { base, port, proc, dataDir, startMs: performance.now() - began, stop };
}

/** Resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/** CPU time a process has used, in clock ticks (Linux). */
export function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until the processes are idle (under 5% of a core for a whole second), so that their
 * start-up work — migrations, the demo's image variants made in the background — is not measured.
 */
export async function waitIdle(pids: number[], maxMs = 180_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const before = pids.map(cpuTicks);
    await new Promise((r) => setTimeout(r, 1000));
    // Clock ticks are hundredths of a second: 5 ticks in a second is 5% of a core.
    if (pids.every((pid, i) => cpuTicks(pid) - before[i]! < 5)) return;
  }
}
