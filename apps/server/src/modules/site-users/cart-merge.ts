/**
 * The visitor's cart at sign-in and sign-out. The cart module keeps carts by the token in the
 * visitor's cart cookie; a site user's carts also carry `site_user_id`. At sign-in the anonymous
 * cart (the cookie's) and the user's saved carts become one cart of the user; at sign-out the
 * cart stays with the user and the visitor may keep a copy (`cloneCart`).
 */
import { and, desc, eq, inArray, ne } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { cartEntries, carts } from "../../db/schema.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { type CartEntryRow, type CartRow, findCart } from "../cart/service.js";

/** The most of one line a cart holds (SPEC §5 quantity limit). */
const MAX_LINE_QUANTITY = 9999;

/** Lines with the same product, variant, options and answers are one line. */
function lineKey(e: CartEntryRow): string {
  return JSON.stringify([e.itemId, e.sku, e.options ?? {}, e.additionalFields ?? null]);
}

/** Moves the lines of `from` into `into` (adding quantities of equal lines) and deletes `from`. */
async function mergeInto(tx: Tx, into: CartRow, from: CartRow[], now: Date): Promise<void> {
  if (!from.length) return;
  const existing = await tx.select().from(cartEntries).where(eq(cartEntries.cartId, into.id));
  const byKey = new Map(existing.map((e) => [lineKey(e), e]));
  const moving = await tx
    .select()
    .from(cartEntries)
    .where(
      inArray(
        cartEntries.cartId,
        from.map((c) => c.id),
      ),
    )
    .orderBy(cartEntries.createdAt);
  for (const e of moving) {
    const same = byKey.get(lineKey(e));
    if (same) {
      same.quantity = Math.min(MAX_LINE_QUANTITY, same.quantity + e.quantity);
      await tx.update(cartEntries).set({ quantity: same.quantity }).where(eq(cartEntries.id, same.id));
      await tx.delete(cartEntries).where(eq(cartEntries.id, e.id));
    } else {
      await tx.update(cartEntries).set({ cartId: into.id }).where(eq(cartEntries.id, e.id));
      byKey.set(lineKey(e), { ...e, cartId: into.id });
    }
  }
  const codes = [...new Set([...into.couponCodes, ...from.flatMap((c) => c.couponCodes)])];
  await tx.update(carts).set({ couponCodes: codes, updatedAt: now }).where(eq(carts.id, into.id));
  await tx.delete(carts).where(
    inArray(
      carts.id,
      from.map((c) => c.id),
    ),
  );
}

/**
 * At sign-in: the cookie's anonymous cart absorbs the user's saved open carts and becomes the
 * user's; without an anonymous cart the user's latest saved cart is re-issued to this browser.
 * Answers the new cart token to set in the cookie, if the cookie must change.
 */
export async function mergeCartAtSignIn(
  tx: Tx,
  websiteId: string,
  siteUserId: string,
  cookieToken: string | undefined,
  now: Date,
): Promise<{ token?: string }> {
  const current = await findCart(tx, websiteId, cookieToken, { lock: true });
  // Another user's cart left in this browser is not merged into this user's.
  const anonymous =
    current && (current.siteUserId === null || current.siteUserId === siteUserId) ? current : undefined;
  const saved = await tx
    .select()
    .from(carts)
    .where(
      and(
        eq(carts.websiteId, websiteId),
        eq(carts.siteUserId, siteUserId),
        eq(carts.isPurchased, false),
        anonymous ? ne(carts.id, anonymous.id) : undefined,
      ),
    )
    .orderBy(desc(carts.updatedAt))
    .for("update");
  if (anonymous) {
    await mergeInto(tx, anonymous, saved, now);
    await tx.update(carts).set({ siteUserId, updatedAt: now }).where(eq(carts.id, anonymous.id));
    return {};
  }
  const [latest, ...older] = saved;
  if (!latest) return current ? { token: "" } : {};
  await mergeInto(tx, latest, older, now);
  const token = newToken();
  await tx
    .update(carts)
    .set({ tokenHash: hashToken(token), updatedAt: now })
    .where(eq(carts.id, latest.id));
  return { token };
}

/**
 * At sign-out: the cart in this browser stays with the user. With `cloneCart` the visitor keeps
 * an anonymous copy of it (a new cart and token); otherwise the cookie is cleared. Answers the
 * token of the copy, "" to clear the cookie, or undefined to leave it alone.
 */
export async function releaseCartAtSignOut(
  tx: Tx,
  websiteId: string,
  siteUserId: string,
  cookieToken: string | undefined,
  cloneCart: boolean,
  now: Date,
): Promise<{ token?: string }> {
  const cart = await findCart(tx, websiteId, cookieToken, { lock: true });
  if (!cart) return cookieToken ? { token: "" } : {};
  if (cart.siteUserId !== null && cart.siteUserId !== siteUserId) return { token: "" };
  if (cart.siteUserId === null) {
    await tx.update(carts).set({ siteUserId, updatedAt: now }).where(eq(carts.id, cart.id));
  }
  if (!cloneCart) return { token: "" };
  const token = newToken();
  const copyId = newId();
  await tx.insert(carts).values({
    id: copyId,
    websiteId,
    tokenHash: hashToken(token),
    siteUserId: null,
    shippingLocation: cart.shippingLocation,
    selectedShippingOptionId: cart.selectedShippingOptionId,
    couponCodes: cart.couponCodes,
    createdAt: now,
    updatedAt: now,
  });
  const lines = await tx.select().from(cartEntries).where(eq(cartEntries.cartId, cart.id));
  if (lines.length) {
    await tx.insert(cartEntries).values(
      lines.map((e) => ({
        id: newId(),
        websiteId,
        cartId: copyId,
        itemId: e.itemId,
        variantId: e.variantId,
        sku: e.sku,
        quantity: e.quantity,
        additionalFields: e.additionalFields,
        options: e.options,
        createdAt: e.createdAt,
      })),
    );
  }
  return { token };
}
