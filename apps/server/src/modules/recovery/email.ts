/**
 * The recovery email: the owner's subject and text with their placeholders filled in, the cart's
 * items (images, options, quantities, prices), a signed link that restores the cart, an optional
 * single-use coupon made for the cart, and one-click unsubscribe (RFC 8058), in the shared layout.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { ProductType, formatMoney, tracksStock } from "@atelier/commerce";
import type { Db, Tx } from "../../db/client.js";
import type { Deps } from "../../http/deps.js";
import { newToken } from "../../lib/ids.js";
import type { CartEntryRow, CartRow } from "../cart/service.js";
import { productsByIds } from "../catalog/service.js";
import { serverSecret } from "../checkout/signing.js";
import { type EmailBlock, emailBrandOf, renderEmail, unsubscribeHeaders } from "../email/layout.js";
import { queueEmail } from "../email/service.js";
import { type Website, settingsOf, websiteById } from "../sites/service.js";
import { createCoupon } from "../store-settings/service.js";
import type { CheckoutRow } from "./service.js";
import { PLACEHOLDERS, type Reminder } from "./settings.js";

export interface CartViewLine {
  title: string;
  url: string;
  imageUrl: string | null;
  /** The chosen variant's options, e.g. "Size: M, Colour: Blue". */
  options: string;
  quantity: number;
  unitPriceCents: number;
  soldOut: boolean;
}

export interface CartView {
  lines: CartViewLine[];
  subtotalCents: number;
  currency: string;
  cartUpdatedAt: Date;
  site: Website;
}

/** The cart's lines as the catalog prices them now, with which are sold out. */
export async function cartViewOf(
  db: Db | Tx,
  websiteId: string,
  found: { cart: CartRow; entries: CartEntryRow[] },
): Promise<CartView> {
  const settings = await settingsOf(db as Db, websiteId);
  const site = await websiteById(db as Db, websiteId);
  if (!site) throw new Error(`no website ${websiteId}`);
  const products = await productsByIds(
    db as Db,
    websiteId,
    found.entries.map((e) => e.itemId),
  );
  const lines: CartViewLine[] = [];
  for (const e of found.entries) {
    const product = products.get(e.itemId);
    const variant = product?.variants.find((v) => v.id === e.variantId);
    if (!product || !variant || product.productType === ProductType.PAYWALL) continue;
    lines.push({
      title: product.title,
      url: product.url,
      imageUrl: product.imageUrl ?? null,
      options: Object.entries(variant.attributes)
        .map(([k, v]) => `${k}: ${v}`)
        .join(", "),
      quantity: e.quantity,
      unitPriceCents: variant.onSale ? variant.salePriceCents : variant.priceCents,
      soldOut: tracksStock(product.productType) && !variant.unlimited && variant.qtyInStock < 1,
    });
  }
  return {
    lines,
    subtotalCents: lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
    currency: settings.store.currency,
    cartUpdatedAt: found.cart.updatedAt,
    site,
  };
}

// ─── Signed links ────────────────────────────────────────────────────────────────────────────

async function sign(dataDir: string, message: string): Promise<string> {
  return createHmac("sha256", await serverSecret(dataDir))
    .update(message)
    .digest("base64url");
}

async function verified(dataDir: string, message: string, sig: string): Promise<boolean> {
  const expected = Buffer.from(await sign(dataDir, message));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `<checkout id>.<expiry, base 36 ms>.<HMAC>`: restores the cart until it expires. */
export async function restoreToken(dataDir: string, id: string, expires: Date): Promise<string> {
  const exp = expires.getTime().toString(36);
  return `${id}.${exp}.${await sign(dataDir, `recover:${id}:${exp}`)}`;
}

/** The checkout a restore token names, when its signature holds and it has not expired. */
export async function checkRestoreToken(
  dataDir: string,
  token: string,
  now: Date,
): Promise<{ id: string } | { expired: true } | undefined> {
  const [id, exp, sig] = token.split(".");
  if (!id || !exp || !sig || !(await verified(dataDir, `recover:${id}:${exp}`, sig))) return undefined;
  return Number.parseInt(exp, 36) > now.getTime() ? { id } : { expired: true };
}

/** `<checkout id>.<HMAC>`: unsubscribes the checkout's email (never expires). */
export async function unsubscribeToken(dataDir: string, id: string): Promise<string> {
  return `${id}.${await sign(dataDir, `unsubscribe:${id}`)}`;
}

export async function checkUnsubscribeToken(dataDir: string, token: string): Promise<string | undefined> {
  const [id, sig] = token.split(".");
  if (!id || !sig || !(await verified(dataDir, `unsubscribe:${id}`, sig))) return undefined;
  return id;
}

// ─── The email ───────────────────────────────────────────────────────────────────────────────

/** The owner's text with the shopper's first name and the store's name filled in. */
export function fillPlaceholders(
  text: string,
  values: { firstName: string; storeName: string; cart: string },
) {
  return text
    .replaceAll(PLACEHOLDERS.firstName, values.firstName)
    .replaceAll(PLACEHOLDERS.storeName, values.storeName)
    .replaceAll(PLACEHOLDERS.cart, values.cart);
}

/** A code no one guesses, for a coupon made for one cart. */
function couponCode(): string {
  return `BACK-${newToken(6)
    .replace(/[^A-Za-z0-9]/g, "")
    .toUpperCase()
    .slice(0, 8)}`;
}

/** Queues one reminder of a checkout (in `tx`); answers the code of the coupon made for it, if any. */
export async function queueReminder(
  deps: Pick<Deps, "config">,
  tx: Tx,
  opts: { row: CheckoutRow; reminder: Reminder; view: CartView; expires: Date; now: Date },
): Promise<string | undefined> {
  const { row, reminder, view, expires } = opts;
  const { config } = deps;
  const site = view.site;
  const money = (c: number) => formatMoney(c, view.currency);
  let code: string | undefined;
  if (reminder.discount) {
    code = couponCode();
    await createCoupon(tx, row.websiteId, {
      code,
      kind: reminder.discount.kind === "percentage" ? "percent" : "fixed",
      amount: reminder.discount.value,
      usageLimit: 1,
      endsAt: expires.getTime(),
    });
  }
  const origin = row.origin.replace(/\/+$/, "");
  const restoreUrl = `${origin}/cart/recover/${await restoreToken(config.dataDir, row.id, expires)}`;
  const unsubscribeUrl = `${origin}/cart/unsubscribe/${await unsubscribeToken(config.dataDir, row.id)}`;
  const firstName = row.firstName || "there";
  const values = { firstName, storeName: site.title, cart: "" };
  const subject = fillPlaceholders(reminder.subject, { ...values, cart: "your cart" });

  const items: EmailBlock = {
    type: "items",
    items: view.lines.map((l) => ({
      name: l.title,
      details: [l.options, l.soldOut ? "Sold out" : ""].filter(Boolean).join(" · ") || undefined,
      quantity: l.quantity,
      price: money(l.unitPriceCents * l.quantity),
      imageUrl: l.imageUrl,
      url: l.url,
    })),
  };
  const blocks: EmailBlock[] = [];
  const [before, ...rest] = reminder.body.split(PLACEHOLDERS.cart);
  const textOf = (s: string) => fillPlaceholders(s, values).trim();
  if (textOf(before ?? "")) blocks.push({ type: "text", text: textOf(before ?? "") });
  blocks.push(items, { type: "totals", rows: [["Subtotal", money(view.subtotalCents)]] });
  const after = textOf(rest.join(""));
  if (after) blocks.push({ type: "text", text: after });
  if (code && reminder.discount) {
    const off =
      reminder.discount.kind === "percentage"
        ? `${reminder.discount.value}%`
        : money(reminder.discount.value);
    blocks.push({
      type: "text",
      text: `Use the code ${code} at checkout for ${off} off. It works once, for this cart.`,
    });
  }
  blocks.push({ type: "button", text: "Return to your cart", url: restoreUrl });
  const brand = await emailBrandOf(tx as unknown as Db, site, origin);
  const { html, text } = renderEmail(brand, {
    preheader: subject,
    blocks,
    footer: [`You get this email because you started a checkout at ${site.title} with ${row.email}.`],
    unsubscribeUrl,
  });
  await queueEmail(tx, config, {
    websiteId: row.websiteId,
    to: row.email,
    subject,
    text,
    html,
    fromName: site.title,
    headers: unsubscribeHeaders(unsubscribeUrl),
  });
  return code;
}
