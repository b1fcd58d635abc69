/** Webhooks: the event types an owner subscribes to and the shapes of the webhooks API. */

/** Every event type a subscription may name, in the order the dashboard lists them. */
export const WEBHOOK_TOPICS = [
  "order.created",
  "order.updated",
  "inventory.updated",
  "product.created",
  "product.updated",
  "product.deleted",
  "form.submitted",
  "site_user.created",
  "subscription.created",
  "subscription.updated",
  "checkout.abandoned",
] as const;

export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

/** At most this many subscriptions a site. */
export const MAX_WEBHOOKS = 20;
export const WEBHOOK_URL_MAX_LENGTH = 2000;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;

/** A subscription as the owner API answers it (never its secret). */
export interface Webhook {
  id: string;
  url: string;
  topics: WebhookTopic[];
  description: string;
  active: boolean;
  /** Why the server paused it (after 3 days of failed deliveries), or null. */
  disabledReason: string | null;
  createdOn: number;
  /** Until when the secret replaced by the last rotation still signs (epoch ms), or null. */
  previousSecretUntil: number | null;
}

/** POST …/webhooks and …/rotate-secret: the secret, `whsec_<base64>`, shown only in this answer. */
export interface WebhookWithSecret {
  webhook: Webhook;
  secret: string;
}

/** One attempt of the delivery log. */
export interface WebhookDelivery {
  id: string;
  /** The event's id, the `webhook-id` header of every attempt. */
  eventId: string;
  type: string;
  attempt: number;
  /** When it was sent (epoch ms). */
  at: number;
  /** The HTTP status answered, or null when no answer came. */
  status: number | null;
  latencyMs: number;
  /** The first 2 KB of the answer, or why there was none. */
  responseExcerpt: string;
}

export interface WebhookDeliveryPage {
  deliveries: WebhookDelivery[];
  nextCursor: string | null;
}
