/**
 * Restock notifications (SPEC §3 restock sign-up, §5 restock form, §7 restock calls): visitors
 * sign up for a sold-out variant; owners list the sign-ups by variant with cursors and send the
 * notifications; when stock comes back a job emails everyone waiting. Emails go through the
 * outbox. Sign-ups are marked notified in the same transaction that queues their email, and
 * pending rows are claimed with SKIP LOCKED, so nobody is emailed twice by two processes.
 */
import { tracksStock } from "@atelier/commerce";
import type { SignUpGroup } from "@atelier/owner-api";
import { MSG_CAPTCHA_INCOMPLETE, isValidEmail } from "@atelier/forms";
import { and, asc, count, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { Config } from "../../config.js";
import type { Db, Tx } from "../../db/client.js";
import { productVariants, restockSignups, websites } from "../../db/schema.js";
import { ApiError, badRequest, notFound } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { normalizeEmail } from "../../lib/email.js";
import { escapeHtml } from "../../lib/escape.js";
import { newId } from "../../lib/ids.js";
import { cursorPage, decodeCursor, encodeCursor } from "../../lib/paging.js";
import { siteCaptcha, verifySiteCaptcha } from "../captcha/service.js";
import { type CatalogProduct, type Variant, productById, productsByIds } from "../catalog/service.js";
import { queueEmail } from "../email/service.js";
import { addToMailingList } from "../forms/service.js";
import { enqueueJob } from "../jobs/service.js";
import { settingsOf, siteBaseUrl } from "../sites/service.js";

export const MSG_EMAIL_BLANK = "Email cannot be blank";
export const MSG_EMAIL_INVALID = "Email is invalid";
export const MSG_RESTOCK_DISABLED = "Restock notifications are not available in this store.";
export const MSG_UNKNOWN_VARIANT = "Sorry, that item variant is unavailable. Please select another variant.";
export const MSG_STILL_SOLD_OUT = "That variant is still sold out: add stock before notifying.";
export const DEFAULT_SUCCESS_TEXT = "Thank you! We will email you when it is back in stock.";

/** Job kind: email the pending sign-ups of one variant if it is in stock. */
export const RESTOCK_JOB = "restock.notify";
/** Rows per page of the owner lists. */
export const RESTOCK_PAGE_SIZE = 50;
export const RESTOCK_PAGE_MAX = 200;
/** Emails sent per variant per run (the job re-enqueues itself when more are waiting). */
const RESTOCK_BATCH = 500;

// ─── Visitor sign-up ─────────────────────────────────────────────────────────────────────────

interface SignUpInput {
  productId: string;
  variantId: string;
  siteVisitorEmail?: string;
  isJoinMailingList?: boolean;
  captchaToken?: string;
}

/** The visitor's email, checked with the SPEC's messages. */
function checkSignUpEmail(input: unknown): string {
  const email = typeof input === "string" ? input.trim() : "";
  if (email === "") throw badRequest(MSG_EMAIL_BLANK, { siteVisitorEmail: MSG_EMAIL_BLANK });
  if (!isValidEmail(email)) throw badRequest(MSG_EMAIL_INVALID, { siteVisitorEmail: MSG_EMAIL_INVALID });
  return normalizeEmail(email);
}

function inStock(product: CatalogProduct, v: Variant): boolean {
  return !tracksStock(product.productType) || v.unlimited || v.qtyInStock > 0;
}

export async function signUp(
  db: Db,
  clock: Clock,
  websiteId: string,
  input: SignUpInput,
  remoteIp?: string,
): Promise<{ success: true; message: string }> {
  const email = checkSignUpEmail(input.siteVisitorEmail);
  const { store } = await settingsOf(db, websiteId);
  if (!store.restockNotificationsEnabled) throw badRequest(MSG_RESTOCK_DISABLED);
  if (await siteCaptcha(db, websiteId)) {
    const check = await verifySiteCaptcha(db, websiteId, input.captchaToken || undefined, remoteIp);
    if (!check.ok) throw badRequest(MSG_CAPTCHA_INCOMPLETE, { captchaToken: MSG_CAPTCHA_INCOMPLETE });
  }
  const product = await productById(db, websiteId, input.productId);
  const variant = product?.variants.find((v) => v.id === input.variantId);
  if (!product || !variant) throw badRequest(MSG_UNKNOWN_VARIANT);
  const now = clock.now();
  await db.transaction(async (tx) => {
    await tx
      .insert(restockSignups)
      .values({
        id: newId(),
        websiteId,
        itemId: product.id,
        variantId: variant.id,
        email,
        joinMailingList: input.isJoinMailingList === true,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: [restockSignups.variantId, restockSignups.email],
        // Signing up again after a notification waits for the next restock.
        set: { notifiedAt: null, joinMailingList: input.isJoinMailingList === true },
      });
    if (input.isJoinMailingList === true) await addToMailingList(tx, websiteId, email, "restock", now);
  });
  return { success: true, message: store.restockNotificationsSuccessText || DEFAULT_SUCCESS_TEXT };
}

// ─── Owner lists (cursor pages) ──────────────────────────────────────────────────────────────

/** A groups cursor: the last group's product and variant ids. */
const isGroupKeys = (parts: unknown[]): parts is [string, string] =>
  parts.length === 2 && parts.every((p) => typeof p === "string" && p.length <= 64);

/** A sign-ups cursor: the last sign-up's time (ISO) and id. */
const isSignUpKeys = (parts: unknown[]): parts is [string, string] =>
  isGroupKeys(parts) && !Number.isNaN(Date.parse(parts[0]));

/** What a restock list answers besides its rows. */
type PageInfo = { hasNextPage: boolean; nextPageCursor: string | null };

/** Variants with sign-ups waiting, by product then variant. */
export async function listGroups(
  db: Db,
  websiteId: string,
  cursor: string | undefined,
  limit = RESTOCK_PAGE_SIZE,
): Promise<{ signUpGroups: SignUpGroup[] } & PageInfo> {
  const after = decodeCursor(cursor, isGroupKeys);
  const s = restockSignups;
  const rows = await db
    .select({ itemId: s.itemId, variantId: s.variantId, n: count() })
    .from(s)
    .where(
      and(
        eq(s.websiteId, websiteId),
        isNull(s.notifiedAt),
        after
          ? or(gt(s.itemId, after[0]), and(eq(s.itemId, after[0]), gt(s.variantId, after[1])))
          : undefined,
      ),
    )
    .groupBy(s.itemId, s.variantId)
    .orderBy(asc(s.itemId), asc(s.variantId))
    .limit(limit + 1);
  const { page, last, hasNextPage } = cursorPage(rows, limit);
  const products = await productsByIds(
    db,
    websiteId,
    page.map((r) => r.itemId),
  );
  const signUpGroups: SignUpGroup[] = page.map((r) => {
    const product = products.get(r.itemId);
    const variant = product?.variants.find((v) => v.id === r.variantId);
    return {
      productId: r.itemId,
      variantId: r.variantId,
      productTitle: product?.title ?? "",
      productUrl: product?.url ?? "",
      sku: variant?.sku ?? "",
      attributes: variant?.attributes ?? {},
      signUpCount: Number(r.n),
      qtyInStock: variant?.qtyInStock ?? 0,
      unlimited: variant?.unlimited ?? false,
      inStock: Boolean(product && variant && inStock(product, variant)),
    };
  });
  return {
    signUpGroups,
    hasNextPage,
    nextPageCursor: hasNextPage && last ? encodeCursor([last.itemId, last.variantId]) : null,
  };
}

interface SignUpJson {
  id: string;
  productId: string;
  variantId: string;
  email: string;
  isJoinMailingList: boolean;
  createdOn: number;
}

/** The sign-ups waiting for one variant, oldest first. */
export async function listSignUps(
  db: Db,
  websiteId: string,
  productId: string,
  variantId: string,
  cursor: string | undefined,
  limit = RESTOCK_PAGE_SIZE,
): Promise<{ signUps: SignUpJson[] } & PageInfo> {
  const after = decodeCursor(cursor, isSignUpKeys);
  const s = restockSignups;
  const afterRow = after && { at: new Date(after[0]), id: after[1] };
  const rows = await db
    .select()
    .from(s)
    .where(
      and(
        eq(s.websiteId, websiteId),
        eq(s.itemId, productId),
        eq(s.variantId, variantId),
        isNull(s.notifiedAt),
        afterRow
          ? or(gt(s.createdAt, afterRow.at), and(eq(s.createdAt, afterRow.at), gt(s.id, afterRow.id)))
          : undefined,
      ),
    )
    .orderBy(asc(s.createdAt), asc(s.id))
    .limit(limit + 1);
  const { page, last, hasNextPage } = cursorPage(rows, limit);
  return {
    signUps: page.map((r) => ({
      id: r.id,
      productId: r.itemId,
      variantId: r.variantId,
      email: r.email,
      isJoinMailingList: r.joinMailingList,
      createdOn: r.createdAt.getTime(),
    })),
    hasNextPage,
    nextPageCursor: hasNextPage && last ? encodeCursor([last.createdAt.toISOString(), last.id]) : null,
  };
}

// ─── Sending ─────────────────────────────────────────────────────────────────────────────────

function variantLabel(v: Variant): string {
  const values = Object.values(v.attributes);
  return values.length ? ` (${values.join(", ")})` : "";
}

/** The notification email of one sign-up. */
function restockEmail(siteTitle: string, siteUrl: string, product: CatalogProduct, variant: Variant) {
  const name = `${product.title}${variantLabel(variant)}`;
  const link = `${siteUrl}${product.url}`;
  return {
    subject: `${product.title} is back in stock`,
    text:
      `Good news: ${name} is back in stock at ${siteTitle}.\n\n` +
      `Shop now: ${link}\n\n` +
      "You are receiving this email because you asked to be told when it was back in stock.",
    html:
      `<p>Good news: <strong>${escapeHtml(name)}</strong> is back in stock at ${escapeHtml(siteTitle)}.</p>` +
      `<p><a href="${escapeHtml(link)}">Shop now</a></p>` +
      "<p>You are receiving this email because you asked to be told when it was back in stock.</p>",
  };
}

/**
 * Emails the pending sign-ups of one variant (at most `limit`) inside the caller's transaction
 * and marks them notified. Answers how many were sent and whether more are waiting.
 */
async function notifyVariantTx(
  tx: Tx,
  config: Config,
  now: Date,
  websiteId: string,
  product: CatalogProduct,
  variant: Variant,
  limit = RESTOCK_BATCH,
): Promise<{ count: number; more: boolean }> {
  const s = restockSignups;
  const pending = await tx
    .select({ id: s.id, email: s.email })
    .from(s)
    .where(and(eq(s.websiteId, websiteId), eq(s.variantId, variant.id), isNull(s.notifiedAt)))
    .orderBy(asc(s.createdAt), asc(s.id))
    .limit(limit + 1)
    .for("update", { skipLocked: true });
  const { page: batch, hasNextPage: more } = cursorPage(pending, limit);
  if (!batch.length) return { count: 0, more: false };
  const [site] = await tx.select().from(websites).where(eq(websites.id, websiteId));
  if (!site) return { count: 0, more: false };
  const mail = restockEmail(site.title, siteBaseUrl(site, config.publicUrl), product, variant);
  for (const row of batch) {
    await queueEmail(tx, config, { websiteId, to: row.email, fromName: site.title, ...mail });
  }
  await tx
    .update(s)
    .set({ notifiedAt: now })
    .where(
      inArray(
        s.id,
        batch.map((r) => r.id),
      ),
    );
  return { count: batch.length, more };
}

interface SendRequest {
  productId: string;
  variantId: string;
}

/**
 * The owner's send: emails every pending sign-up of each requested variant, in one transaction.
 * Variants still sold out are refused (one alone) or skipped (in a list); an empty list sends
 * nothing.
 */
export async function sendNotifications(
  db: Db,
  clock: Clock,
  config: Config,
  websiteId: string,
  requests: readonly SendRequest[],
  opts: { single?: boolean } = {},
): Promise<{ count: number; skipped: SendRequest[] }> {
  if (requests.length === 0) return { count: 0, skipped: [] };
  const products = await productsByIds(
    db,
    websiteId,
    requests.map((r) => r.productId),
  );
  const targets: { product: CatalogProduct; variant: Variant }[] = [];
  const skipped: SendRequest[] = [];
  for (const r of requests) {
    const product = products.get(r.productId);
    const variant = product?.variants.find((v) => v.id === r.variantId);
    if (!product || !variant) {
      if (opts.single) throw notFound(MSG_UNKNOWN_VARIANT);
      skipped.push(r);
    } else if (!inStock(product, variant)) {
      if (opts.single) throw new ApiError(409, "sold_out", MSG_STILL_SOLD_OUT);
      skipped.push(r);
    } else if (!targets.some((t) => t.variant.id === variant.id)) {
      targets.push({ product, variant });
    }
  }
  const now = clock.now();
  const count = await db.transaction(async (tx) => {
    let total = 0;
    for (const { product, variant } of targets) {
      total += (await notifyVariantTx(tx, config, now, websiteId, product, variant, Number.MAX_SAFE_INTEGER))
        .count;
    }
    return total;
  });
  return { count, skipped };
}

/**
 * Enqueues the check of variants whose stock may have come back (call it where stock changes,
 * with the caller's transaction and clock).
 */
export async function enqueueRestockCheck(
  db: Db | Tx,
  websiteId: string,
  variantIds: readonly string[],
  now?: Date,
) {
  for (const variantId of new Set(variantIds)) {
    await enqueueJob(db, RESTOCK_JOB, { websiteId, variantId }, now ? { runAt: now } : {});
  }
}

/** The job: emails the pending sign-ups of a variant when it is back in stock. */
export async function runRestockJob(
  db: Db,
  clock: Clock,
  config: Config,
  payload: Record<string, unknown>,
): Promise<number> {
  const websiteId = String(payload.websiteId ?? "");
  const variantId = String(payload.variantId ?? "");
  const [row] = await db
    .select({ itemId: productVariants.itemId })
    .from(productVariants)
    .where(and(eq(productVariants.id, variantId), eq(productVariants.websiteId, websiteId)));
  if (!row) return 0;
  const product = await productById(db, websiteId, row.itemId);
  const variant = product?.variants.find((v) => v.id === variantId);
  if (!product || !variant || !inStock(product, variant)) return 0;
  const { count, more } = await db.transaction((tx) =>
    notifyVariantTx(tx, config, clock.now(), websiteId, product, variant),
  );
  if (more) await enqueueRestockCheck(db, websiteId, [variantId], clock.now());
  return count;
}

/**
 * Housekeeping sweep: variants with sign-ups waiting whose stock came back by any route (the
 * owner's inventory, a refund that restocked, a direct edit) get their notification job.
 */
export async function sweepRestocked(db: Db, now: Date): Promise<number> {
  const s = restockSignups;
  const v = productVariants;
  const rows = await db
    .selectDistinct({ websiteId: s.websiteId, variantId: s.variantId })
    .from(s)
    .innerJoin(v, eq(v.id, s.variantId))
    .where(and(isNull(s.notifiedAt), or(eq(v.unlimited, true), sql`${v.qtyInStock} > 0`)))
    .limit(1000);
  for (const r of rows) await enqueueRestockCheck(db, r.websiteId, [r.variantId], now);
  return rows.length;
}
