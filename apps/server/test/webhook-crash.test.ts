/**
 * Webhooks survive a crash: the server process is killed (SIGKILL) right after a change commits,
 * while the endpoint is down; after a restart the event is delivered, signed, with its webhook-id.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { Receiver } from "../src/modules/webhooks/receiver.test-helper.js";
import { FetchClient, firstSiteId, signInDemoOwner } from "./fetch-client.js";
import { exited, freePort, startServer, useChildDatabase, waitHealthy } from "./server-process.js";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-hooks-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const databaseUrl = useChildDatabase("atelier_hooks");
const childEnv = () => ({
  WEBHOOKS_ALLOW_HTTP: "true",
  WEBHOOKS_ALLOW_PRIVATE: "true",
  DATABASE_URL: databaseUrl(),
});

describe("webhooks and a server crash", () => {
  it("delivers an event committed just before the process was killed, after the restart", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // The endpoint's port, known now, listened on only after the crash.
    const probe = await new Receiver().start();
    const hookUrl = probe.url;
    await probe.close();

    const first = startServer(port, dataDir, childEnv());
    await waitHealthy(base);
    const owner = new FetchClient(base);
    expect((await signInDemoOwner(owner)).status).toBe(200);
    const siteId = await firstSiteId(owner);
    const created = await owner.call(`/api/owner/sites/${siteId}/webhooks`, "POST", {
      url: hookUrl,
      topics: ["inventory.updated"],
    });
    expect(created.status).toBe(201);
    const { secret } = (await created.json()) as { secret: string };
    const products = (await (await owner.call(`/api/owner/sites/${siteId}/products`)).json()) as {
      products: { variants: { id: string }[] }[];
    };
    const variantId = products.products.find((p) => p.variants.length)!.variants[0]!.id;
    const changed = await owner.call(`/api/owner/sites/${siteId}/variants/${variantId}/stock`, "PATCH", {
      qtyInStock: 1234,
    });
    expect(changed.status).toBe(200);
    first.kill("SIGKILL");
    await exited(first);

    const receiver = await new Receiver().start(Number(new URL(hookUrl).port));
    try {
      expect(receiver.received).toHaveLength(0);
      const second = startServer(port, dataDir, childEnv());
      await waitHealthy(base);
      await expect
        .poll(() => receiver.received.length, { timeout: 90_000, interval: 250 })
        .toBeGreaterThan(0);
      const body = new Webhook(secret).verify(
        receiver.received[0]!.body,
        receiver.received[0]!.headers as Record<string, string>,
      ) as { id: string; type: string; data: { id: string; qtyInStock: number } };
      expect(body).toMatchObject({ type: "inventory.updated", data: { id: variantId, qtyInStock: 1234 } });
      expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([body.id]));
      second.kill("SIGTERM");
      expect(await exited(second)).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 300_000);
});
