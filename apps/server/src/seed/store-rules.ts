/**
 * The demo store's checkout rules: shipping (flat, by weight, free above an amount), sales tax
 * for a few places, a couple of coupons, weights for the physical goods, and the files behind
 * the two digital products (kept under DATA_DIR/downloads, never public: they are reached only
 * through signed download links).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.js";
import * as t from "../db/schema.js";
import { newId } from "../lib/ids.js";
import type { MediaStore } from "../media/store.js";

/** Grams per unit, by product slug (every variant of the product). */
const WEIGHTS: Record<string, number> = {
  "linen-work-apron": 450,
  "everyday-linen-shirt": 350,
  "stoneware-mug": 400,
  "hand-thrown-vase": 1200,
  "walnut-serving-board": 1300,
  "merino-throw": 1300,
  "cotton-napkins": 300,
  "ceramic-planter": 1500,
  "beeswax-candle": 400,
  "wool-beanie": 120,
  "pour-over-set": 1800,
  "field-notes-journal": 250,
  "everyday-tote": 400,
  "single-origin-coffee": 380,
};

const FILES: Record<string, { filename: string; contentType: string; body: string }> = {
  "pottery-at-home-course": {
    filename: "pottery-at-home-course.txt",
    contentType: "text/plain; charset=utf-8",
    body: [
      "POTTERY AT HOME: A SIX-LESSON COURSE",
      "Atelier Demo",
      "",
      "Lesson 1. Wedging and centring: why the clay must be even before it meets the wheel.",
      "Lesson 2. Opening and pulling: the first cylinder, and how thin is thin enough.",
      "Lesson 3. Shaping: bowls, mugs and the pressure of the rib.",
      "Lesson 4. Trimming at leather hard: feet, rims and when to stop.",
      "Lesson 5. Handles and slabs: pulling a handle that feels right in the hand.",
      "Lesson 6. Glazing and firing with a community studio's kiln.",
      "",
      "The videos of each lesson are on the course page; this file is your workbook.",
    ].join("\n"),
  },
  "glaze-recipe-book": {
    filename: "glaze-recipe-book.txt",
    contentType: "text/plain; charset=utf-8",
    body: [
      "THE STUDIO GLAZE BOOK",
      "Atelier Demo",
      "",
      "Oatmeal satin (cone 6): custer feldspar 30, silica 20, whiting 18, kaolin 17, talc 10, zinc oxide 5; add rutile 3.",
      "Celadon (cone 6): nepheline syenite 35, silica 30, whiting 20, kaolin 15; add red iron oxide 1.",
      "Tenmoku (cone 6): custer feldspar 40, silica 25, whiting 15, kaolin 10, talc 10; add red iron oxide 10.",
      "",
      "Always test on a tile first, and wear a mask when you mix dry materials.",
    ].join("\n"),
  },
};

export async function seedStoreRules(tx: Tx, websiteId: string, store: MediaStore): Promise<void> {
  await tx.insert(t.shippingRules).values([
    {
      id: newId(),
      websiteId,
      name: "Standard (3–5 days)",
      kind: "flat",
      priceCents: 800,
      countries: ["US"],
      ordering: 0,
    },
    {
      id: newId(),
      websiteId,
      name: "Express (1–2 days)",
      kind: "flat",
      priceCents: 2500,
      countries: ["US"],
      ordering: 1,
    },
    {
      id: newId(),
      websiteId,
      name: "Free shipping on orders over $150",
      kind: "free",
      minSubtotalCents: 15000,
      countries: ["US"],
      ordering: 2,
    },
    {
      id: newId(),
      websiteId,
      name: "International (by weight)",
      kind: "weight",
      priceCents: 1500,
      perKgCents: 900,
      countries: ["CA", "GB", "IE", "FR", "DE", "NL", "BE", "DK", "SE", "NO", "AU", "NZ", "JP"],
      ordering: 3,
    },
  ]);
  await tx.insert(t.taxRules).values([
    {
      id: newId(),
      websiteId,
      name: "New York sales tax",
      country: "US",
      region: "NY",
      rateBasisPoints: 888,
      appliesToShipping: true,
    },
    {
      id: newId(),
      websiteId,
      name: "California sales tax",
      country: "US",
      region: "CA",
      rateBasisPoints: 725,
      appliesToShipping: false,
    },
    {
      id: newId(),
      websiteId,
      name: "New Jersey sales tax",
      country: "US",
      region: "NJ",
      rateBasisPoints: 663,
      appliesToShipping: true,
    },
    {
      id: newId(),
      websiteId,
      name: "GST",
      country: "CA",
      region: null,
      rateBasisPoints: 500,
      appliesToShipping: true,
    },
  ]);
  await tx.insert(t.coupons).values([
    { id: newId(), websiteId, code: "WELCOME10", kind: "percent", amount: 10 },
    { id: newId(), websiteId, code: "TAKE5", kind: "fixed", amount: 500, minSubtotalCents: 4000 },
    { id: newId(), websiteId, code: "FREESHIP", kind: "free_shipping", minSubtotalCents: 5000 },
  ]);

  const items = await tx
    .select({ id: t.contentItems.id, slug: t.contentItems.urlId, sc: t.contentItems.structuredContent })
    .from(t.contentItems)
    .where(
      and(
        eq(t.contentItems.websiteId, websiteId),
        inArray(t.contentItems.urlId, [...Object.keys(WEIGHTS), ...Object.keys(FILES)]),
      ),
    );
  for (const item of items) {
    const grams = WEIGHTS[item.slug];
    if (grams)
      await tx
        .update(t.productVariants)
        .set({ weightGrams: grams })
        .where(eq(t.productVariants.itemId, item.id));
    const file = FILES[item.slug];
    if (file) {
      const storagePath = `downloads/${websiteId}/${item.id}/${file.filename}`;
      await store.put(storagePath, file.body, file.contentType);
      await tx
        .update(t.contentItems)
        .set({
          structuredContent: {
            ...(item.sc ?? {}),
            digitalFile: {
              filename: file.filename,
              contentType: file.contentType,
              storagePath,
              byteSize: Buffer.byteLength(file.body),
            },
          },
        })
        .where(eq(t.contentItems.id, item.id));
    }
  }
}
