/** Abandoned checkouts and recovery emails: the shapes of the owner API (issue 24). */

export interface RecoveryReminder {
  enabled: boolean;
  /** Minutes after the checkout was abandoned. */
  delayMinutes: number;
  subject: string;
  /** The email's text; {first_name}, {store_name} and {cart} are filled in. */
  body: string;
  /** A single-use coupon made for the cart: a percentage (1–100) or an amount in minor units. */
  discount: { kind: "percentage" | "amount"; value: number } | null;
}

export interface RecoverySettings {
  enabled: boolean;
  abandonedAfterMinutes: number;
  reminders: RecoveryReminder[];
}

export type AbandonedCheckoutStatus = "not_contacted" | "reminded" | "recovered" | "unsubscribed";

export interface AbandonedCheckout {
  id: string;
  email: string;
  items: {
    title: string;
    options: string;
    quantity: number;
    unitPriceCents: number;
    imageUrl: string | null;
  }[];
  subtotal: number;
  currency: string;
  abandonedAt: number | null;
  remindersSent: number;
  lastReminderAt: number | null;
  status: AbandonedCheckoutStatus;
  orderId: string | null;
  recoveredCents: number | null;
}

export interface AbandonedCheckoutPage {
  checkouts: AbandonedCheckout[];
  /** Orders from a recovery link, or by the same email within 7 days of a reminder (minor units). */
  recoveredRevenue30d: number;
  nextCursor: string | null;
}
