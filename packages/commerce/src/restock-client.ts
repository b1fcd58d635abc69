/**
 * The owner's side of restock notifications (SPEC §7): the sign-up lists come in cursor pages
 * and are fetched in a loop until the last page; per-variant totals are summed; sending to an
 * empty list of variants answers a count of 0 without a request. Transport-free: the caller
 * passes the function that performs one call.
 */

export interface CursorPage {
  hasNextPage: boolean;
  nextPageCursor: string | null;
}

/** Most pages fetched in one loop (a guard against a server that never says "last page"). */
export const MAX_PAGES = 1000;

/**
 * Fetches every page: `fetchPage(undefined)` first, then each `nextPageCursor` while
 * `hasNextPage`. Answers the items of all pages, in order.
 */
export async function fetchAllPages<P extends CursorPage, T>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  itemsOf: (page: P) => readonly T[],
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await fetchPage(cursor);
    out.push(...itemsOf(page));
    if (!page.hasNextPage || !page.nextPageCursor || seen.has(page.nextPageCursor)) break;
    seen.add(page.nextPageCursor);
    cursor = page.nextPageCursor;
  }
  return out;
}

export interface RestockVariantRef {
  productId: string;
  variantId: string;
}

/**
 * The sign-ups waiting across several variants: each variant's list fetched page by page,
 * the counts summed.
 */
export async function totalSignUps(
  variants: readonly RestockVariantRef[],
  fetchPage: (
    ref: RestockVariantRef,
    cursor: string | undefined,
  ) => Promise<CursorPage & { signUps: unknown[] }>,
): Promise<number> {
  let total = 0;
  for (const ref of variants) {
    const all = await fetchAllPages(
      (cursor) => fetchPage(ref, cursor),
      (p) => p.signUps,
    );
    total += all.length;
  }
  return total;
}

/**
 * Sends the notifications of several variants: nothing is requested for an empty list (count
 * 0); otherwise one send-all call with the list.
 */
export async function sendRestockNotifications(
  variants: readonly RestockVariantRef[],
  sendAll: (sendRequests: RestockVariantRef[]) => Promise<{ count: number }>,
): Promise<{ count: number }> {
  if (variants.length === 0) return { count: 0 };
  return sendAll(variants.map((v) => ({ productId: v.productId, variantId: v.variantId })));
}
