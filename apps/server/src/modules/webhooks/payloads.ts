/**
 * The `data` of a webhook: the entity as the API returns it, read once, right after the change
 * commits, when the event is fanned out to its subscriptions. Every attempt then sends those
 * exact bytes, so a retry three days later still says what happened then (an `order.updated`
 * for a payment never turns into a refund on retry).
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { customerSubscriptions, formSubmissions, productVariants, siteUsers } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { getProduct } from "../catalog/admin.js";
import { variantStockJson } from "../catalog/inventory.js";
import type { DomainEvent } from "../events/service.js";
import { submissionJson } from "../forms/service.js";
import { orderDetail } from "../orders/service.js";
import { checkoutById } from "../recovery/service.js";
import { productNames, subscriptionJson } from "../subscriptions/service.js";

type Reader = (db: Db, websiteId: string, id: string) => Promise<object | undefined>;

/** undefined when the entity is gone (another module's 404). */
async function orMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 404) return undefined;
    throw err;
  }
}

const readOrder: Reader = (db, websiteId, id) =>
  orMissing(async () => {
    const { analytics: _internal, ...order } = (await orderDetail(db, websiteId, id)).order;
    return order;
  });

const readProduct: Reader = (db, websiteId, id) => orMissing(() => getProduct(db, websiteId, id));

const readVariant: Reader = async (db, websiteId, id) => {
  const [v] = await db
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.websiteId, websiteId), eq(productVariants.id, id)));
  return v && { ...variantStockJson(v), productId: v.itemId };
};

const readSubmission: Reader = async (db, websiteId, id) => {
  const [s] = await db
    .select()
    .from(formSubmissions)
    .where(and(eq(formSubmissions.websiteId, websiteId), eq(formSubmissions.id, id)));
  return s && { ...submissionJson(s), formId: s.formId };
};

const readSiteUser: Reader = async (db, websiteId, id) => {
  const [u] = await db
    .select()
    .from(siteUsers)
    .where(and(eq(siteUsers.websiteId, websiteId), eq(siteUsers.id, id)));
  return (
    u && {
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      createdOn: u.createdAt.getTime(),
    }
  );
};

const readSubscription: Reader = async (db, websiteId, id) => {
  const [s] = await db
    .select()
    .from(customerSubscriptions)
    .where(and(eq(customerSubscriptions.websiteId, websiteId), eq(customerSubscriptions.id, id)));
  if (!s) return undefined;
  return subscriptionJson(s, (await productNames(db, [s.itemId])).get(s.itemId));
};

const readCheckout: Reader = (db, websiteId, id) => checkoutById(db, websiteId, id);

const READERS: Partial<Record<string, Reader>> = {
  checkout: readCheckout,
  order: readOrder,
  product: readProduct,
  variant: readVariant,
  form_submission: readSubmission,
  site_user: readSiteUser,
  subscription: readSubscription,
};

/** The entity of an event as the API answers it; `{ id, deleted: true }` when it no longer exists. */
export async function eventData(db: Db, event: DomainEvent): Promise<object> {
  const id = event.entityId ?? "";
  const read = READERS[event.entityType];
  const data = read && event.websiteId ? await read(db, event.websiteId, id) : undefined;
  return data ?? { id, deleted: true };
}

/** The body every attempt of an event sends, in the order of the Standard Webhooks examples. */
export function webhookBody(event: DomainEvent, data: object): string {
  const change = typeof event.payload.change === "string" ? { change: event.payload.change } : {};
  return JSON.stringify({
    id: event.publicId,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    websiteId: event.websiteId,
    ...change,
    data,
  });
}
