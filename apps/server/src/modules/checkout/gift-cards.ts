/**
 * Gift cards: buying one issues a code (emailed to the recipient); the code pays at checkout
 * against the order total and keeps what is left of its balance. Codes are stored only as
 * their SHA-256; the last four characters are kept to show which card paid.
 */
import { randomInt } from "node:crypto";
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { giftCards } from "../../db/schema.js";
import { hashToken, newId } from "../../lib/ids.js";

export type GiftCard = typeof giftCards.$inferSelect;

/** No 0/O, 1/I/L: codes are read from emails and typed by hand. */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** A new code: four groups of four (about 79 bits). */
function newGiftCardCode(): string {
  const chars = Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join("")).join("-");
}

/** Codes compare without case, spaces or dashes. */
function normalizeGiftCardCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, "");
}

function giftCardHash(code: string): string {
  return hashToken(`gift-card:${normalizeGiftCardCode(code)}`);
}

/** Looks like a gift-card code (so it is not reported as an unknown coupon by mistake). */
export function looksLikeGiftCardCode(code: string): boolean {
  return /^[A-Z0-9]{16}$/.test(normalizeGiftCardCode(code));
}

/** Gift cards of a website by the codes given (unknown codes are left out), locked when asked. */
export async function giftCardsByCodes(
  db: Db | Tx,
  websiteId: string,
  codes: readonly string[],
  opts: { lock?: boolean } = {},
): Promise<Map<string, GiftCard>> {
  // Answered by the codes as given.
  const byHash = new Map(codes.map((c) => [giftCardHash(c), c]));
  const out = new Map<string, GiftCard>();
  if (!byHash.size) return out;
  const q = db
    .select()
    .from(giftCards)
    .where(and(eq(giftCards.websiteId, websiteId), inArray(giftCards.codeHash, [...byHash.keys()])));
  const rows = opts.lock ? await q.for("update") : await q;
  for (const r of rows) out.set(byHash.get(r.codeHash)!, r);
  return out;
}

/** Takes an amount from a card's balance; false when the balance is no longer enough. */
export async function redeemGiftCard(tx: Tx, id: string, amountCents: number): Promise<boolean> {
  const done = await tx
    .update(giftCards)
    .set({ balanceCents: sql`${giftCards.balanceCents} - ${amountCents}` })
    .where(and(eq(giftCards.id, id), gte(giftCards.balanceCents, amountCents)))
    .returning({ id: giftCards.id });
  return done.length > 0;
}

/** Puts an amount back on a card (failed payment, cancelled or refunded order). */
export async function restoreGiftCard(tx: Tx, id: string, amountCents: number): Promise<void> {
  await tx
    .update(giftCards)
    .set({ balanceCents: sql`least(${giftCards.initialCents}, ${giftCards.balanceCents} + ${amountCents})` })
    .where(eq(giftCards.id, id));
}

/** Issues a new card; answers the code, which exists in clear only in this answer and the email. */
export async function issueGiftCard(
  tx: Tx,
  input: {
    websiteId: string;
    amountCents: number;
    currency: string;
    orderId: string;
    recipientEmail: string;
  },
): Promise<{ card: GiftCard; code: string }> {
  const code = newGiftCardCode();
  const normalized = normalizeGiftCardCode(code);
  const [card] = await tx
    .insert(giftCards)
    .values({
      id: newId(),
      websiteId: input.websiteId,
      codeHash: giftCardHash(code),
      codeLast4: normalized.slice(-4),
      initialCents: input.amountCents,
      balanceCents: input.amountCents,
      currency: input.currency,
      orderId: input.orderId,
      recipientEmail: input.recipientEmail,
    })
    .returning();
  return { card: card!, code };
}
