import { hostname } from "node:os";
import { eq } from "drizzle-orm";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  Browser,
  DEMO_OWNER,
  siteUserXsrf,
  type TestApp,
  demoApp,
  signedUpOwner,
} from "../../../test/harness.js";
import type { Db } from "../../db/client.js";
import {
  events,
  jobs,
  outboundEmails,
  productVariants,
  webhookDeliveries,
  webhookMessages,
  webhooks,
} from "../../db/schema.js";
import { setStock } from "../catalog/inventory.js";
import { Shopper, product } from "../checkout/test-helpers.js";
import { orderBody } from "../../../test/fixtures.js";
import { runDueJobs } from "../jobs/service.js";
import { GIVE_UP_AFTER_MS, RETRY_DELAYS_MS } from "./delivery.js";
import { Receiver } from "./receiver.test-helper.js";
import { MSG_TOO_MANY, pruneDeliveryLog } from "./service.js";

let t: TestApp;
let owner: Browser;
let siteId: string;
let variantId: string;
let receiver: Receiver;
/** The injected clock: real time moved forward by `offset`. */
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };
const db = () => t.database.db;
const base = () => `/api/owner/sites/${siteId}/webhooks`;
const deliver = () => runDueJobs(t.app.deps, "test");

beforeAll(async () => {
  ({ t, owner, siteId } = await demoApp({
    clock,
    env: { WEBHOOKS_ALLOW_HTTP: "true", WEBHOOKS_ALLOW_PRIVATE: "true" },
  }));
  const [v] = await db().select().from(productVariants).where(eq(productVariants.websiteId, siteId)).limit(1);
  variantId = v!.id;
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(async () => {
  await deliver();
  await db().delete(webhooks);
  receiver.received.length = 0;
  receiver.answers = [];
});

async function subscribe(topics = ["inventory.updated"], url = receiver.url) {
  const res = await owner.request({
    method: "POST",
    url: base(),
    payload: { url, topics, description: "ERP" },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { webhook: { id: string; active: boolean }; secret: string };
}
const changeStock = (qtyInStock: number) =>
  owner.request({
    method: "PATCH",
    url: `/api/owner/sites/${siteId}/variants/${variantId}/stock`,
    payload: { qtyInStock },
  });
/** Verifies a received call with the standardwebhooks package: answers its parsed body. */
const verified = (secret: string, r: { headers: Record<string, unknown>; body: string }) =>
  new StandardWebhook(secret).verify(r.body, r.headers as Record<string, string>) as {
    id: string;
    type: string;
    websiteId: string;
    data: Record<string, unknown>;
  };
const log = async (id: string) => (await owner.request({ url: `${base()}/${id}/deliveries` })).json();

describe("webhook subscriptions", () => {
  it("creates a subscription with a whsec_ secret shown once, lists it without the secret", async () => {
    const { webhook, secret } = await subscribe(["order.created", "inventory.updated"]);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook).toMatchObject({ active: true, topics: ["order.created", "inventory.updated"] });
    const list = await owner.request({ url: base() });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret.slice(6));
    expect(list.json().webhooks).toHaveLength(1);
    // Stored encrypted, not as shown.
    const [row] = await db().select().from(webhooks);
    expect(row!.secret).not.toContain(secret.slice(6, 20));
  });

  it("refuses unknown topics, no topics, and a 21st subscription", async () => {
    const bad = await owner.request({
      method: "POST",
      url: base(),
      payload: { url: receiver.url, topics: ["order.exploded"] },
    });
    expect(bad.statusCode).toBe(400);
    const none = await owner.request({
      method: "POST",
      url: base(),
      payload: { url: receiver.url, topics: [] },
    });
    expect(none.statusCode).toBe(400);
    for (let i = 0; i < 20; i++) await subscribe();
    const more = await owner.request({
      method: "POST",
      url: base(),
      payload: { url: receiver.url, topics: ["product.created"] },
    });
    expect(more.statusCode).toBe(409);
    expect(more.json().error.message).toBe(MSG_TOO_MANY);
    expect(await db().select().from(webhooks)).toHaveLength(20);
  });

  it("edits, pauses, resumes and deletes; another owner's site is not found", async () => {
    const { webhook } = await subscribe();
    const url = `${base()}/${webhook.id}`;
    const paused = await owner.request({
      method: "PATCH",
      url,
      payload: { active: false, description: "Paused" },
    });
    expect(paused.json().webhook).toMatchObject({ active: false, description: "Paused" });
    await changeStock(11);
    await deliver();
    expect(receiver.received).toHaveLength(0);
    const resumed = await owner.request({
      method: "PATCH",
      url,
      payload: { active: true, topics: ["product.updated"] },
    });
    expect(resumed.json().webhook).toMatchObject({ active: true, topics: ["product.updated"] });
    const eve = await signedUpOwner(t, "eve.webhooks@example.com");
    expect((await eve.request({ url })).statusCode).toBe(404);
    expect((await eve.request({ method: "DELETE", url })).statusCode).toBe(404);
    expect((await owner.request({ method: "DELETE", url })).statusCode).toBe(200);
    expect((await owner.request({ url })).statusCode).toBe(404);
  });
});

describe("webhook deliveries", () => {
  it("delivers a stock change signed by the Standard Webhooks scheme, with the variant as the API shows it", async () => {
    const { secret } = await subscribe();
    expect((await changeStock(42)).statusCode).toBe(200);
    expect(receiver.received).toHaveLength(0); // only after the commit, from the job queue
    await deliver();
    expect(receiver.received).toHaveLength(1);
    const body = verified(secret, receiver.received[0]!);
    expect(body).toMatchObject({
      type: "inventory.updated",
      websiteId: siteId,
      data: { id: variantId, qtyInStock: 42 },
    });
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(body.id);
    expect(body.id).toMatch(/^evt_/);
    // Another secret does not verify it.
    expect(() =>
      verified(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, receiver.received[0]!),
    ).toThrow();
  });

  it("queues an event for fan-out only when the site has an active subscription to its type", async () => {
    const fanOutJobs = async () =>
      (await db().select().from(jobs).where(eq(jobs.kind, "event:webhooks"))).length;
    const before = await fanOutJobs();
    expect((await changeStock(41)).statusCode).toBe(200);
    expect(await fanOutJobs()).toBe(before);
    await subscribe(["order.created"]);
    expect((await changeStock(40)).statusCode).toBe(200);
    expect(await fanOutJobs()).toBe(before);
    await subscribe(["inventory.updated"]);
    expect((await changeStock(39)).statusCode).toBe(200);
    expect(await fanOutJobs()).toBe(before + 1);
    // A paused subscription wants nothing.
    await db().update(webhooks).set({ active: false });
    expect((await changeStock(38)).statusCode).toBe(200);
    expect(await fanOutJobs()).toBe(before + 1);
  });

  it("retries a failing endpoint with growing delays: 500 three times then 200 is four calls with one webhook-id", async () => {
    const { webhook, secret } = await subscribe();
    receiver.answers = [500, 500, 500];
    await changeStock(7);
    await deliver();
    expect(receiver.received).toHaveLength(1);
    // Not before its delay…
    await deliver();
    expect(receiver.received).toHaveLength(1);
    for (const delay of RETRY_DELAYS_MS.slice(0, 3)) {
      offset += delay;
      await deliver();
    }
    expect(receiver.received).toHaveLength(4);
    const ids = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    for (const r of receiver.received) expect(verified(secret, r).type).toBe("inventory.updated");
    // The bodies are the same bytes every time.
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    const { deliveries } = await log(webhook.id);
    expect(deliveries.map((d: { attempt: number; status: number }) => [d.attempt, d.status])).toEqual([
      [4, 200],
      [3, 500],
      [2, 500],
      [1, 500],
    ]);
    expect(deliveries[1].responseExcerpt).toBe("down for maintenance");
    offset += 86_400_000;
    await deliver();
    expect(receiver.received).toHaveLength(4);
  });

  it("sends orders placed and fulfilled, and products created, updated and deleted, as the API shows them", async () => {
    const { secret } = await subscribe([
      "order.created",
      "order.updated",
      "product.created",
      "product.updated",
      "product.deleted",
      "inventory.updated",
    ]);
    const beanie = await product(db(), "wool-beanie");
    const shopper = await new Shopper(t).start();
    await shopper.add(beanie.itemId, beanie.variants[0]!.sku, 1);
    const placed = await shopper.order(orderBody({ email: "hook@example.com" }));
    expect(placed.statusCode, placed.body).toBe(201);
    await deliver();
    const bodies = () => receiver.received.map((r) => verified(secret, r));
    const created = bodies().find((b) => b.type === "order.created")!;
    expect(created.data).toMatchObject({ email: "hook@example.com", status: "paid" });
    // The stock the order took.
    expect(bodies().find((b) => b.type === "inventory.updated")!.data.id).toBe(beanie.variants[0]!.id);
    const orderId = created.data.id as string;
    const fulfil = await owner.request({
      method: "POST",
      url: `/api/owner/sites/${siteId}/orders/${orderId}/fulfil`,
      payload: { carrier: "Post", trackingNumber: "T1", notifyCustomer: false },
    });
    expect(fulfil.statusCode, fulfil.body).toBe(200);
    await deliver();
    const updated = bodies().find((b) => b.type === "order.updated")!;
    expect(updated).toMatchObject({ change: "fulfilled", data: { id: orderId, status: "fulfilled" } });

    const pages = (await owner.request({ url: `/api/owner/sites/${siteId}/pages` })).json().pages;
    const shopId = pages.find((p: { kind: string }) => p.kind === "products").id;
    const body = {
      collectionId: shopId,
      title: "Hook Mug",
      productType: 1,
      variants: [{ attributes: {}, priceCents: 1200, qtyInStock: 3 }],
    };
    const made = await owner.request({
      method: "POST",
      url: `/api/owner/sites/${siteId}/products`,
      payload: body,
    });
    expect(made.statusCode, made.body).toBe(201);
    const productId = made.json().product.id as string;
    await deliver();
    const put = await owner.request({
      method: "PUT",
      url: `/api/owner/sites/${siteId}/products/${productId}`,
      payload: {
        ...body,
        title: "Hook Mug II",
        variants: made.json().product.variants.map((v: object) => ({ ...v })),
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    await deliver();
    const gone = await owner.request({
      method: "DELETE",
      url: `/api/owner/sites/${siteId}/products/${productId}`,
    });
    expect(gone.statusCode).toBe(200);
    await deliver();
    const ofProduct = bodies().filter((b) => b.type.startsWith("product."));
    expect(ofProduct.map((b) => [b.type, b.data.title ?? null])).toEqual([
      ["product.created", "Hook Mug"],
      ["product.updated", "Hook Mug II"],
      ["product.deleted", null],
    ]);
    expect(ofProduct[2]!.data).toEqual({ id: productId, deleted: true });
  });

  it("sends a site user's sign-up", async () => {
    const { secret } = await subscribe(["site_user.created"]);
    const visitor = new Browser(t.app);
    await visitor.visit("/");
    await siteUserXsrf(visitor, "hooked@example.com");
    await deliver();
    expect(receiver.received).toHaveLength(1);
    expect(verified(secret, receiver.received[0]!)).toMatchObject({
      type: "site_user.created",
      data: { email: "hooked@example.com", firstName: "Ada", lastName: "Bell" },
    });
  });

  it("sends nothing for a rolled-back change", async () => {
    await subscribe();
    const before = await db().select().from(events);
    await expect(
      db().transaction(async (tx) => {
        await setStock(tx as unknown as Db, siteId, variantId, { qtyInStock: 3 });
        throw new Error("the rest of the change failed");
      }),
    ).rejects.toThrow("the rest of the change failed");
    await deliver();
    expect(receiver.received).toHaveLength(0);
    expect(await db().select().from(events)).toHaveLength(before.length);
  });

  it("signs with the old and the new secret for 24 hours after a rotation", async () => {
    const { webhook, secret: old } = await subscribe();
    const rotated = await owner.request({ method: "POST", url: `${base()}/${webhook.id}/rotate-secret` });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().secret as string;
    expect(fresh).not.toBe(old);
    await changeStock(8);
    await deliver();
    const sent = receiver.received[0]!;
    expect(String(sent.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verified(old, sent).type).toBe("inventory.updated");
    expect(verified(fresh, sent).type).toBe("inventory.updated");
    offset += 86_400_000 + 1000;
    await changeStock(9);
    await deliver();
    const later = receiver.received[1]!;
    expect(String(later.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verified(fresh, later).data.qtyInStock).toBe(9);
    expect(() => verified(old, later)).toThrow();
  });

  it("sends a test event and redelivers a logged one with the same webhook-id", async () => {
    const { webhook, secret } = await subscribe();
    const test = await owner.request({ method: "POST", url: `${base()}/${webhook.id}/test` });
    expect(test.statusCode).toBe(202);
    await deliver();
    expect(verified(secret, receiver.received[0]!)).toMatchObject({
      id: test.json().eventId,
      type: "webhook.test",
    });
    const [first] = (await log(webhook.id)).deliveries;
    const again = await owner.request({
      method: "POST",
      url: `${base()}/${webhook.id}/deliveries/${first.id}/redeliver`,
    });
    expect(again.statusCode).toBe(202);
    await deliver();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(test.json().eventId);
    expect((await log(webhook.id)).deliveries[0]).toMatchObject({
      attempt: 2,
      status: 200,
      type: "webhook.test",
    });
    const missing = await owner.request({
      method: "POST",
      url: `${base()}/${webhook.id}/deliveries/${"0".repeat(24)}/redeliver`,
    });
    expect(missing.statusCode).toBe(404);
  });

  it("keeps the delivery log 30 days", async () => {
    const { webhook } = await subscribe();
    await changeStock(21);
    await deliver();
    const kept = () =>
      db().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id));
    expect(await kept()).toHaveLength(1);
    // The housekeeping task, run as if 29 and then 31 days had passed (moving the app's clock would
    // also end the owner's session).
    const later = (days: number) => new Date(clock.now().getTime() + days * 86_400_000);
    await pruneDeliveryLog(db(), later(29));
    expect(await kept()).toHaveLength(1);
    await pruneDeliveryLog(db(), later(31));
    expect(await kept()).toHaveLength(0);
    expect(
      await db().select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhook.id)),
    ).toHaveLength(0);
  });

  it("pauses a subscription that failed for 3 days and emails the site's owners", async () => {
    const { webhook } = await subscribe();
    receiver.answers = Array(100).fill(503);
    await changeStock(5);
    await deliver();
    const start = offset;
    while (offset - start <= GIVE_UP_AFTER_MS) {
      offset += 10 * 3_600_000;
      await deliver();
    }
    const calls = receiver.received.length;
    expect(calls).toBeGreaterThanOrEqual(8);
    const [row] = await db().select().from(webhooks).where(eq(webhooks.id, webhook.id));
    expect(row).toMatchObject({ active: false, disabledReason: "Deliveries failed for 3 days." });
    const mail = await db().select().from(outboundEmails).where(eq(outboundEmails.websiteId, siteId));
    const paused = mail.filter((m) => m.subject.endsWith("was paused"));
    expect(paused.map((m) => m.toAddress)).toEqual([DEMO_OWNER.email]);
    expect(paused[0]!.textBody).toContain(receiver.url);
    offset += 10 * 3_600_000;
    await deliver();
    expect(receiver.received).toHaveLength(calls);
  });
});

describe("outbound addresses", () => {
  const refused = [
    "http://127.0.0.1/hooks",
    "https://10.0.0.1/hooks",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/hooks",
    "https://localhost/hooks",
    `https://${hostname()}/hooks`,
  ];
  let strict: TestApp;
  let strictOwner: Browser;
  let strictSite: string;

  beforeAll(async () => {
    ({ t: strict, owner: strictOwner, siteId: strictSite } = await demoApp({ clock }));
  });
  afterAll(() => strict.close());

  it.each(refused)("refuses %s when the subscription is made", async (url) => {
    const res = await strictOwner.request({
      method: "POST",
      url: `/api/owner/sites/${strictSite}/webhooks`,
      payload: { url, topics: ["order.created"] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.url).toMatch(/https:\/\/|private or local network/);
  });

  it("refuses them at send time too (an address that changed after creation), logging why", async () => {
    const created = await strictOwner.request({
      method: "POST",
      url: `/api/owner/sites/${strictSite}/webhooks`,
      payload: { url: "https://93.184.215.14/hooks", topics: ["order.created"] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().webhook.id as string;
    for (const url of refused.filter((u) => u.startsWith("https:"))) {
      // As if DNS now pointed the name there: the row's address is changed behind the API's back.
      await strict.database.db
        .update(webhooks)
        .set({ url: url.replace("/hooks", `:${new URL(receiver.url).port}/hooks`) })
        .where(eq(webhooks.id, id));
      const sent = await strictOwner.request({
        method: "POST",
        url: `/api/owner/sites/${strictSite}/webhooks/${id}/test`,
      });
      expect(sent.statusCode).toBe(202);
      await runDueJobs(strict.app.deps, "strict");
    }
    const { deliveries } = (
      await strictOwner.request({ url: `/api/owner/sites/${strictSite}/webhooks/${id}/deliveries` })
    ).json();
    expect(deliveries).toHaveLength(5);
    for (const d of deliveries) {
      expect(d.status).toBeNull();
      expect(d.responseExcerpt).toMatch(/private or local network/);
    }
    expect(receiver.received).toHaveLength(0);
  });
});
