/**
 * The real server process: starts on an embedded database, seeds the demo once, finishes
 * in-flight requests on SIGTERM, closes the database cleanly and keeps every row.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exited, freePort, startServer, waitHealthy } from "./server-process.js";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-proc-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const start = (port: number) => startServer(port, dataDir);

// The embedded database's own process life (its files, closed cleanly). On the PostgreSQL suite the
// same start and shutdown are covered by concurrent-start.test.ts and the crash tests.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))("server process", () => {
  it("shuts down gracefully on SIGTERM and keeps its data", async () => {
    const port = await freePort();
    const first = start(port);
    await waitHealthy(`http://127.0.0.1:${port}`);
    const shop = (await (await fetch(`http://127.0.0.1:${port}/shop?format=json`)).json()) as {
      website: { id: string };
    };
    const inFlight = Array.from({ length: 10 }, () =>
      fetch(`http://127.0.0.1:${port}/shop`).then((r) => r.status),
    );
    await new Promise((r) => setTimeout(r, 5));
    first.kill("SIGTERM");
    const statuses = await Promise.all(inFlight.map((p) => p.catch(() => "refused")));
    // Requests the server had accepted were answered in full; later ones were refused cleanly
    // (503 while closing, or no connection), never cut off mid-answer.
    expect(statuses.filter((s) => s !== 200 && s !== 503 && s !== "refused")).toEqual([]);
    expect(await exited(first)).toBe(0);

    const second = start(port);
    await waitHealthy(`http://127.0.0.1:${port}`);
    const again = (await (await fetch(`http://127.0.0.1:${port}/shop?format=json`)).json()) as {
      website: { id: string };
    };
    expect(again.website.id).toBe(shop.website.id);
    second.kill("SIGINT");
    expect(await exited(second)).toBe(0);
  }, 240_000);
});
