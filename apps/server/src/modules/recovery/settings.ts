/** The owner's recovery settings: defaults, validation and storage (one row per site). */
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { type StoredReminder, recoverySettings } from "../../db/schema.js";
import { throwFieldErrors } from "../../http/errors.js";

export type Reminder = StoredReminder;

export interface RecoverySettings {
  enabled: boolean;
  abandonedAfterMinutes: number;
  reminders: Reminder[];
}

/** The placeholders a reminder's subject and text may hold. */
export const PLACEHOLDERS = {
  firstName: "{first_name}",
  storeName: "{store_name}",
  cart: "{cart}",
} as const;

export const MAX_REMINDERS = 3;
/** The longest wait the settings accept: 30 days, the life of a cart. */
export const MAX_MINUTES = 30 * 24 * 60;
export const SUBJECT_MAX = 200;
export const BODY_MAX = 5000;
const MAX_AMOUNT_CENTS = 100_000_000;

export const DEFAULT_SETTINGS: RecoverySettings = {
  enabled: false,
  abandonedAfterMinutes: 60,
  reminders: [
    {
      enabled: true,
      delayMinutes: 60,
      subject: "You left something in your cart",
      body: "Hi {first_name},\n\nYou left these in your cart at {store_name}. We kept them for you:\n\n{cart}\n\nCome back whenever you are ready.",
      discount: null,
    },
    {
      enabled: true,
      delayMinutes: 24 * 60,
      subject: "Your cart at {store_name} is waiting",
      body: "Hi {first_name},\n\nYour cart is still here:\n\n{cart}\n\nOne click brings it back.",
      discount: null,
    },
    {
      enabled: true,
      delayMinutes: 72 * 60,
      subject: "Last reminder: your cart at {store_name}",
      body: "Hi {first_name},\n\nThis is our last reminder about your cart:\n\n{cart}\n\nWe hope to see you soon.",
      discount: null,
    },
  ],
};

type SettingsRow = typeof recoverySettings.$inferSelect;

function fromRow(row: SettingsRow | undefined): RecoverySettings {
  if (!row) return structuredClone(DEFAULT_SETTINGS);
  return { enabled: row.enabled, abandonedAfterMinutes: row.abandonedAfterMinutes, reminders: row.reminders };
}

export async function recoverySettingsOf(db: Db | Tx, websiteId: string): Promise<RecoverySettings> {
  const [row] = await db.select().from(recoverySettings).where(eq(recoverySettings.websiteId, websiteId));
  return fromRow(row);
}

const wholeIn = (v: unknown, min: number, max: number) =>
  typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;

/** Checks the settings an owner sends; a bad value answers 400 naming its field. */
export function checkSettings(input: RecoverySettings): RecoverySettings {
  const fields: Record<string, string> = {};
  if (!wholeIn(input.abandonedAfterMinutes, 1, MAX_MINUTES))
    fields.abandonedAfterMinutes = `Enter a whole number of minutes from 1 to ${MAX_MINUTES}.`;
  if (input.reminders.length > MAX_REMINDERS) fields.reminders = `At most ${MAX_REMINDERS} reminders.`;
  input.reminders.forEach((r, i) => {
    const at = `reminders.${i}`;
    if (!wholeIn(r.delayMinutes, 0, MAX_MINUTES))
      fields[`${at}.delayMinutes`] = `Enter a whole number of minutes from 0 to ${MAX_MINUTES}.`;
    if (!r.subject.trim()) fields[`${at}.subject`] = "Enter a subject.";
    else if (r.subject.length > SUBJECT_MAX) fields[`${at}.subject`] = `At most ${SUBJECT_MAX} characters.`;
    if (!r.body.trim()) fields[`${at}.body`] = "Enter the email's text.";
    else if (r.body.length > BODY_MAX) fields[`${at}.body`] = `At most ${BODY_MAX} characters.`;
    if (r.discount) {
      if (r.discount.kind === "percentage" && !wholeIn(r.discount.value, 1, 100))
        fields[`${at}.discount.value`] = "A percentage is a whole number from 1 to 100.";
      if (r.discount.kind === "amount" && !wholeIn(r.discount.value, 1, MAX_AMOUNT_CENTS))
        fields[`${at}.discount.value`] = "Enter the amount off.";
    }
  });
  throwFieldErrors(fields);
  return {
    enabled: input.enabled,
    abandonedAfterMinutes: input.abandonedAfterMinutes,
    reminders: input.reminders.map((r) => ({
      enabled: r.enabled,
      delayMinutes: r.delayMinutes,
      subject: r.subject.trim(),
      body: r.body.trim(),
      discount: r.discount ? { kind: r.discount.kind, value: r.discount.value } : null,
    })),
  };
}

/** Saves the settings (in the caller's transaction). */
export async function storeSettings(tx: Tx, websiteId: string, s: RecoverySettings, now: Date) {
  await tx
    .insert(recoverySettings)
    .values({ websiteId, ...s, updatedAt: now })
    .onConflictDoUpdate({ target: recoverySettings.websiteId, set: { ...s, updatedAt: now } });
}
