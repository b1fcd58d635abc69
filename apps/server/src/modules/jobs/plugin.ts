/**
 * Runs background jobs and periodic housekeeping in every listening server process. Tests that
 * never listen call `runDueJobs` themselves, so nothing runs behind their back.
 */
import { hostname } from "node:os";
import type { FastifyPluginAsync } from "fastify";
import type { Deps } from "../../http/deps.js";
import { newId } from "../../lib/ids.js";
import { pruneJobs, runDueJobs, scheduleRecurringJobs } from "./service.js";

const JOB_POLL_MS = 1000;
const HOUSEKEEPING_EVERY_MS = 10 * 60_000;

type Housekeeping = (deps: Deps) => Promise<void>;
const housekeeping = new Map<string, Housekeeping>();

/** Modules add idempotent clean-ups (expired keys, old counters) that run every few minutes. */
export function registerHousekeeping(name: string, task: Housekeeping): void {
  housekeeping.set(name, task);
}

registerHousekeeping("jobs", (deps) =>
  pruneJobs(deps.db, new Date(deps.clock.now().getTime() - 7 * 86400_000)),
);

export async function runHousekeeping(deps: Deps, log?: { error(obj: unknown, msg: string): void }) {
  for (const [name, task] of housekeeping) {
    try {
      await task(deps);
    } catch (err) {
      log?.error({ err, task: name }, "housekeeping failed");
    }
  }
}

export const jobsPlugin: FastifyPluginAsync = async (app) => {
  const worker = `${hostname()}:${process.pid}:${newId().slice(0, 6)}`;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let lastHousekeeping = 0;
  let stopped = false;

  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      try {
        await scheduleRecurringJobs(app.deps.db, app.deps.clock);
        await runDueJobs(app.deps, worker);
        if (Date.now() - lastHousekeeping >= HOUSEKEEPING_EVERY_MS) {
          lastHousekeeping = Date.now();
          await runHousekeeping(app.deps, app.log);
        }
      } catch (err) {
        app.log.error({ err }, "job runner failed");
      } finally {
        running = undefined;
      }
    })();
  };

  app.addHook("onListen", async () => {
    timer = setInterval(tick, JOB_POLL_MS);
    timer.unref();
  });
  app.addHook("onClose", async () => {
    stopped = true;
    if (timer) clearInterval(timer);
    await running;
  });
};
