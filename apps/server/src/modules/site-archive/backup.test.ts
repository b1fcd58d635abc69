import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type TestApp, createTestApp } from "../../../test/harness.js";
import { websites } from "../../db/schema.js";
import { backupSite, restoreSite } from "./backup.js";

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  dir = mkdtempSync(path.join(os.tmpdir(), "atelier-backup-"));
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("backs a site up to a file by its address and restores it as a new site", async () => {
  const out = path.join(dir, "demo.zip");
  const manifest = await backupSite(t.database.db, t.config.dataDir, "demo", out);
  expect(statSync(out).size).toBeGreaterThan(1000);
  expect(manifest.site.identifier).toBe("demo");
  const restored = await restoreSite(t.database.db, t.config.dataDir, out, "owner@atelier.test", 1e9);
  const [site] = await t.database.db.select().from(websites).where(eq(websites.id, restored.siteId));
  expect(site?.identifier).toBe("demo-2");
  expect(restored.counts.content_items).toBe(manifest.tables.find((x) => x.name === "content_items")!.rows);
});

it("says what is wrong with a missing site or owner", async () => {
  await expect(backupSite(t.database.db, t.config.dataDir, "nope", path.join(dir, "x.zip"))).rejects.toThrow(
    'No site with the id or address "nope".',
  );
  await expect(
    restoreSite(t.database.db, t.config.dataDir, path.join(dir, "demo.zip"), "nobody@example.com", 1e9),
  ).rejects.toThrow("No owner account with the email nobody@example.com.");
});
