/**
 * Limits shared by every process: two apps on one database (as two server processes would be)
 * together allow the owner-login limit once, not once each; the API-key API likewise.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { Browser, freshDatabase } from "./harness.js";

let apps: FastifyInstance[] = [];
let close: () => Promise<void>;
beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-limits-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", PUBLIC_URL: "http://localhost" });
  const { database, drop } = await freshDatabase();
  apps = [
    await buildApp({ config, database, logger: false }),
    await buildApp({ config, database, logger: false }),
  ];
  close = async () => {
    for (const a of apps) await a.close();
    await database.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => close());

describe("rate limits across processes", () => {
  it("counts owner logins from one address once across two processes (10 a minute)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const b = new Browser(apps[i % 2]!);
      await b.visit("/");
      const res = await b.request({
        method: "POST",
        url: "/api/owner/session",
        payload: { email: "nobody@example.com", password: "wrong password" },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("counts each API key across processes, apart from other routes", async () => {
    const call = (app: FastifyInstance) =>
      app.inject({ url: "/api/1/commerce/orders", headers: { authorization: "Bearer not-a-real-key" } });
    const answers: number[] = [];
    for (let i = 0; i < 122; i++) answers.push((await call(apps[i % 2]!)).statusCode);
    expect(answers.filter((s) => s === 429)).toHaveLength(2);
    expect(answers.slice(-2)).toEqual([429, 429]);
  });
});
