/**
 * A real server process killed (SIGKILL) after the provider charged the card and before our
 * commit: the paid order is never lost. The test provider answers slowly
 * (ATELIER_TEST_PAYMENT_LATENCY_MS), so the process dies holding a charge it never recorded.
 * After a restart the reconciler settles it from the provider's ledger, the buyer sending the
 * same request again gets that same order, and there is exactly one charge.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FetchClient, firstSiteId, signInDemoOwner } from "../../../test/fetch-client.js";
import {
  exited,
  freePort,
  startServer,
  useChildDatabase,
  waitHealthy,
} from "../../../test/server-process.js";
import { systemClock } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import { TestPaymentProvider } from "../payments/test-provider.js";
import { address, card } from "../../../test/fixtures.js";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-crash-"));
const databaseUrl = useChildDatabase("atelier_crash");
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const start = (port: number) =>
  startServer(port, dataDir, {
    DATABASE_URL: databaseUrl(),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    STRIPE_SECRET_KEY: "",
    ATELIER_TEST_PAYMENT_LATENCY_MS: "4000",
  });

/** The charges in the provider's ledger, read as another process sharing its folder would. */
const charges = () =>
  new TestPaymentProvider({ dir: path.join(dataDir, "test-payments"), clock: systemClock }).charges();

describe("a server killed between the charge and the commit", () => {
  it("never loses the paid order and never charges twice", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = start(port);
    await waitHealthy(base);
    const buyer = new FetchClient(base);
    await buyer.call("/");
    const page = (await (await buyer.call("/shop/p/hand-thrown-vase?format=json")).json()) as {
      item: { id: string; structuredContent?: { variants?: { sku: string; qtyInStock: number }[] } };
    };
    const itemId = page.item.id;
    const sku = page.item.structuredContent?.variants?.[0]?.sku ?? "HANTHRVAS-01";
    const stockBefore = page.item.structuredContent?.variants?.[0]?.qtyInStock ?? 3;
    const added = await buyer.call("/api/commerce/shopping-cart/entries", "POST", {
      itemId,
      sku,
      quantity: 1,
    });
    expect(added.status).toBe(200);

    const body = {
      email: "crash@example.com",
      shippingAddress: address(),
      payment: card(),
      idempotencyKey: `crash-${newId()}`,
    };
    const inFlight = buyer.call("/api/commerce/orders", "POST", body).then(
      (r) => r.status,
      () => "connection lost",
    );
    // The provider has charged as soon as its ledger has the charge; its answer is still on its way.
    for (let i = 0; (await charges()).length === 0; i++) {
      if (i > 200) throw new Error("no charge was made");
      await new Promise((r) => setTimeout(r, 25));
    }
    first.kill("SIGKILL");
    await exited(first);
    expect(await inFlight).toBe("connection lost");
    expect(await charges()).toHaveLength(1);

    // Past the reconciler's grace period, a new process starts and settles the payment by itself.
    await new Promise((r) => setTimeout(r, 11_000));
    const second = start(port);
    try {
      await waitHealthy(base);
      const owner = new FetchClient(base);
      const login = await signInDemoOwner(owner);
      expect(login.status).toBe(200);
      const siteId = await firstSiteId(owner);
      let found: { id: string; status: string; orderNumber: number } | undefined;
      for (let i = 0; i < 100 && !found; i++) {
        const list = (await (
          await owner.call(`/api/owner/sites/${siteId}/orders?q=crash%40example.com`)
        ).json()) as {
          orders: { id: string; status: string; orderNumber: number }[];
        };
        found = list.orders.find((o) => o.status === "paid");
        if (!found) await new Promise((r) => setTimeout(r, 200));
      }
      expect(found).toBeDefined();

      // The buyer's browser sends the same request again: the same order, no new charge.
      const again = await buyer.call("/api/commerce/orders", "POST", body);
      expect(again.status).toBe(201);
      const order = ((await again.json()) as { order: { id: string; status: string } }).order;
      expect(order).toMatchObject({ id: found!.id, status: "paid" });
      expect(await charges()).toHaveLength(1);
      const after = (await (await buyer.call("/shop/p/hand-thrown-vase?format=json")).json()) as typeof page;
      expect(after.item.structuredContent?.variants?.[0]?.qtyInStock).toBe(stockBefore - 1);
    } finally {
      second.kill("SIGTERM");
      await exited(second);
    }
  }, 180_000);
});
