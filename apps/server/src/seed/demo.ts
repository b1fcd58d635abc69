import { count } from "drizzle-orm";
import type { Config } from "../config.js";
import type { Db, Tx } from "../db/client.js";
import { BillingStatus, RecordType, SiteStatus, WebsiteType } from "../db/enums.js";
import * as t from "../db/schema.js";
import { type Clock, DAY_MS } from "../lib/clock.js";
import { newId } from "../lib/ids.js";
import { hashPassword } from "../lib/passwords.js";
import { type MediaStore, createMediaStore } from "../media/index.js";
import { writeMediaFile } from "../modules/media/storage.js";
import { type Motif, artworkSvg } from "./art.js";
import { demoEvents, demoGallery, demoPosts, demoProducts, studio } from "./demo-content.js";
import { seedBillingCatalog } from "./billing-catalog.js";
import { seedStoreRules } from "./store-rules.js";

interface SeedResult {
  seeded: boolean;
  websiteId?: string;
}

let blockCounter = 0;
function block(type: string, props: Record<string, unknown>) {
  blockCounter += 1;
  return { id: `block-${blockCounter.toString(36)}-${newId().slice(0, 6)}`, type, ...props };
}
function row(...columns: Record<string, unknown>[][]) {
  return { columns: columns.map((blocks) => ({ span: Math.floor(12 / columns.length), blocks })) };
}

/** Whether the database holds anything of its users: a website or an owner account. */
async function isEmpty(db: Db | Tx): Promise<boolean> {
  const [{ n: sites }] = (await db.select({ n: count() }).from(t.websites)) as [{ n: number }];
  const [{ n: owners }] = (await db.select({ n: count() }).from(t.accounts)) as [{ n: number }];
  return Number(sites) === 0 && Number(owners) === 0;
}

/**
 * Seeds the demo site "Atelier Demo" into an empty database. A database that has any website
 * or owner account is never touched, so this is safe to call on every start.
 * Its artwork and files go to `store`, by default the media store the configuration names.
 */
export async function seedDemoIfEmpty(
  db: Db,
  config: Config,
  clock: Clock,
  store?: MediaStore,
): Promise<SeedResult> {
  if (!(await isEmpty(db))) return { seeded: false };
  const media = store ?? createMediaStore(config);
  try {
    return await seedDemo(db, config, clock, media);
  } finally {
    if (!store) await media.close();
  }
}

async function seedDemo(db: Db, config: Config, clock: Clock, media: MediaStore): Promise<SeedResult> {
  const passwordHash = await hashPassword(config.demoOwnerPassword);
  const now = clock.now().getTime();
  const websiteId = newId();
  const images: Art[] = [];

  const seeded = await db.transaction(async (tx) => {
    /** Generates an artwork, records its media row, and answers its id. */
    const image: ImageMaker = async (name, motif) => {
      const art = { id: newId(), name, ...artworkSvg(name, motif) };
      images.push(art);
      await insertMedia(tx, websiteId, [art]);
      return art.id;
    };
    // Another process may have seeded between our count and this transaction.
    if (!(await isEmpty(tx))) return false;
    await seedBillingCatalog(tx);
    await tx.insert(t.websites).values({
      id: websiteId,
      identifier: "demo",
      title: "Atelier Demo",
      tagline: "Ceramics, linen and good things for the home, made slowly in New York.",
      websiteType: WebsiteType.COMMERCE,
      siteStatus: SiteStatus.PAID,
      billingStatus: BillingStatus.SUBSCRIBED,
      theme: "commerce",
      isDefault: true,
      featureSetId: "commerce-advanced",
    });
    await tx.insert(t.websiteSettings).values({
      websiteId,
      commentsEnabled: true,
      simpleLikingEnabled: true,
      shareButtonOptions: { facebook: true, twitter: true, pinterest: true },
      socialLinks: [
        { service: "instagram", profileUrl: "https://instagram.com/atelier.demo", userName: "atelier.demo" },
        { service: "facebook", profileUrl: "https://facebook.com/atelier.demo", userName: "atelier.demo" },
        { service: "pinterest", profileUrl: "https://pinterest.com/atelier.demo", userName: "atelier.demo" },
      ],
      contactEmail: config.demoOwnerEmail,
    });
    await tx.insert(t.storeSettings).values({
      websiteId,
      currency: "USD",
      restockNotificationsEnabled: true,
      restockNotificationsSuccessText: "Thank you! We will email you when it is back in stock.",
    });
    const accountId = newId();
    await tx.insert(t.accounts).values({
      id: accountId,
      email: config.demoOwnerEmail.toLowerCase(),
      passwordHash,
      displayName: "Maya Chen",
    });
    await tx.insert(t.memberships).values({ accountId, websiteId, owner: true });
    await tx.insert(t.billingSubscriptions).values({
      id: newId(),
      websiteId,
      type: "website",
      planId: "commerce-advanced-monthly",
      nextChargeAt: new Date(now + 20 * DAY_MS),
      nextChargeAmountCents: 4900,
    });

    const forms = await seedForms(tx, websiteId, config.demoOwnerEmail);
    const collections = await seedCollections(tx, websiteId, forms, image);
    await seedProducts(tx, websiteId, collections.shop, image);
    await seedStoreRules(tx, websiteId, media);
    await seedPosts(tx, websiteId, collections.blog, now, image);
    await seedEvents(tx, websiteId, collections.events, now);
    await seedGallery(tx, websiteId, collections.gallery, image);
    return true;
  });
  if (!seeded) return { seeded: false };
  for (const img of images) await writeMediaFile(media, websiteId, img.id, fileName(img.name), img.svg);
  return { seeded: true, websiteId };
}

type Art = { id: string; name: string; svg: string; width: number; height: number };
type ImageMaker = (name: string, motif: Motif) => Promise<string>;

function fileName(name: string): string {
  return `${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}.svg`;
}

async function insertMedia(tx: Tx, websiteId: string, images: Art[]) {
  if (!images.length) return;
  await tx.insert(t.media).values(
    images.map((img) => ({
      id: img.id,
      websiteId,
      filename: fileName(img.name),
      contentType: "image/svg+xml",
      width: img.width,
      height: img.height,
      byteSize: Buffer.byteLength(img.svg),
      title: img.name,
      storagePath: `media/${websiteId}/${img.id}/${fileName(img.name)}`,
    })),
  );
}

async function seedForms(tx: Tx, websiteId: string, ownerEmail: string) {
  const contact = newId();
  const newsletter = newId();
  await tx.insert(t.forms).values([
    {
      id: contact,
      websiteId,
      name: "Contact",
      notifyEmail: ownerEmail,
      submissionMessage: "Thank you for getting in touch! We will reply within two working days.",
      fields: [
        { id: "name", type: "name", title: "Name", required: false },
        { id: "email", type: "email", title: "Email", required: true },
        { id: "phone", type: "phone", title: "Phone", required: false },
        {
          id: "subject",
          type: "select",
          title: "Subject",
          required: false,
          options: ["An order", "Workshops and classes", "Wholesale", "Something else"],
        },
        { id: "message", type: "textarea", title: "Message", required: true, maxLength: 2000 },
      ],
    },
    {
      id: newsletter,
      websiteId,
      name: "Newsletter",
      submissionMessage: "You are on the list. Thank you for signing up!",
      fields: [{ id: "email", type: "email", title: "Email Address", required: true }],
    },
  ]);
  return { contact, newsletter };
}

async function seedCollections(
  tx: Tx,
  websiteId: string,
  forms: { contact: string; newsletter: string },
  image: ImageMaker,
) {
  const ids = {
    home: newId(),
    shop: newId(),
    blog: newId(),
    events: newId(),
    gallery: newId(),
    contact: newId(),
  };
  const heroImage = await image("The studio in the morning", "landscape");
  const aboutImage = await image("Hands at the wheel", "vessel");
  await tx.insert(t.collections).values([
    {
      id: ids.home,
      websiteId,
      kind: "page",
      title: "Home",
      urlSlug: "home",
      isHome: true,
      ordering: 0,
      hiddenFromNav: true,
      seoDescription: "Atelier Demo: ceramics, linen and good things for the home, made slowly in New York.",
      layout: {
        rows: [
          row([block("image", { imageId: heroImage, alt: "The studio in the morning" })]),
          row([
            block("text", {
              html: "<h1>Made slowly, made to last.</h1><p>Ceramics, linen and good things for the home, thrown, sewn and finished by hand in our New York studio.</p>",
            }),
            block("button", { label: "Shop the collection", href: "/shop" }),
          ]),
          row([block("summary", { collectionId: ids.shop, title: "New in the shop", limit: 4 })]),
          row(
            [block("image", { imageId: aboutImage, alt: "Hands at the wheel" })],
            [
              block("text", {
                html: "<h2>About the studio</h2><p>Atelier is a small studio of four makers. We throw every mug and vase on the wheel, sew our aprons from stonewashed linen, and work with neighbours and family mills for everything else.</p><p>Come and visit at one of our open studio days, or join a workshop.</p>",
              }),
              block("button", { label: "See upcoming events", href: "/events" }),
            ],
          ),
          row([block("summary", { collectionId: ids.blog, title: "From the journal", limit: 3 })]),
          row([
            block("newsletter", {
              formId: forms.newsletter,
              title: "Letters from the studio",
              description:
                "New collections, workshops and the occasional glaze recipe. Once a month, never more.",
            }),
          ]),
        ],
      },
    },
    {
      id: ids.shop,
      websiteId,
      kind: "products",
      title: "Shop",
      urlSlug: "shop",
      ordering: 1,
      description: "Everything we make, in small batches.",
    },
    {
      id: ids.blog,
      websiteId,
      kind: "blog",
      title: "Journal",
      urlSlug: "blog",
      ordering: 2,
      description: "Notes from the studio.",
      options: { pageSize: 4 },
    },
    {
      id: ids.events,
      websiteId,
      kind: "events",
      title: "Events",
      urlSlug: "events",
      ordering: 3,
      description: "Open studios, workshops and markets.",
      options: { showPastOrUpcomingEvents: "upcoming" },
    },
    {
      id: ids.gallery,
      websiteId,
      kind: "gallery",
      title: "Gallery",
      urlSlug: "gallery",
      ordering: 4,
      description: "Around the studio.",
      options: { design: "grid", "thumbnails-per-row": 4, lightbox: true },
    },
    {
      id: ids.contact,
      websiteId,
      kind: "page",
      title: "Contact",
      urlSlug: "contact",
      ordering: 5,
      layout: {
        rows: [
          row(
            [
              block("text", {
                html: "<h1>Say hello</h1><p>Questions about an order, a workshop or wholesale? Write to us and one of the team will answer within two working days.</p><p><strong>Atelier Studio</strong><br>214 Mercer Street, New York, NY 10012<br>Open Thursday to Sunday, 11am to 6pm</p>",
              }),
              block("map", {
                location: studio,
              }),
            ],
            [block("form", { formId: forms.contact })],
          ),
          row([
            block("newsletter", {
              formId: forms.newsletter,
              title: "Stay in touch",
              description: "One letter a month about new work and events.",
            }),
          ]),
        ],
      },
    },
  ]);
  return ids;
}

async function seedProducts(tx: Tx, websiteId: string, collectionId: string, image: ImageMaker) {
  let ordering = 0;
  for (const p of demoProducts) {
    const itemId = newId();
    const mainImageId = await image(p.title, p.motif);
    const secondImage = await image(`${p.title} detail`, p.motif === "landscape" ? "card" : "circle");
    await tx.insert(t.contentItems).values({
      id: itemId,
      websiteId,
      collectionId,
      recordType: RecordType.STORE_ITEM,
      urlId: p.slug,
      title: p.title,
      body: p.body,
      excerpt: p.excerpt,
      tags: p.tags,
      categories: p.categories,
      mainImageId,
      imageIds: [mainImageId, secondImage],
      ordering: ordering++,
      structuredContent: {
        productType: p.type,
        variantOptionOrdering: p.options ?? [],
        isSubscribable: Boolean(p.subscription),
        subscriptionPlan: p.subscription
          ? {
              billingPeriod: { value: p.subscription.value, unit: p.subscription.unit },
              numBillingCycles: p.subscription.numBillingCycles,
            }
          : undefined,
        scarcityText: p.scarcityText,
        useCustomAddButtonText: Boolean(p.customAddButtonText),
        customAddButtonText: p.customAddButtonText ?? "",
        giftCardDenominations: p.giftCardDenominations,
      },
    });
    await tx.insert(t.productVariants).values(
      p.variants.map((v, i) => ({
        id: newId(),
        websiteId,
        itemId,
        sku: `${p.slug
          .split("-")
          .map((w) => w.slice(0, 3).toUpperCase())
          .join("")}-${String(i + 1).padStart(2, "0")}`,
        attributes: v.attributes ?? {},
        priceCents: v.price,
        salePriceCents: v.salePrice ?? 0,
        onSale: v.salePrice !== undefined,
        qtyInStock: v.stock ?? 0,
        // Digital goods and gift cards are never sold out (SPEC §4): their stock is unlimited.
        unlimited: v.unlimited ?? (p.type === 2 || p.type === 4),
        ordering: i,
      })),
    );
  }
}

async function seedPosts(tx: Tx, websiteId: string, collectionId: string, now: number, image: ImageMaker) {
  for (const [i, p] of demoPosts.entries()) {
    const itemId = newId();
    await tx.insert(t.contentItems).values({
      id: itemId,
      websiteId,
      collectionId,
      recordType: RecordType.TEXT,
      urlId: p.slug,
      title: p.title,
      body: p.body,
      excerpt: p.excerpt,
      authorName: p.author,
      categories: p.categories,
      tags: p.tags,
      mainImageId: await image(p.title, p.motif),
      publishOn: new Date(now - p.daysAgo * DAY_MS),
      ordering: i,
      commentState: 1,
      likeCount: (i * 7) % 23,
    });
    for (const [j, c] of p.comments.entries()) {
      await tx.insert(t.comments).values({
        id: newId(),
        websiteId,
        itemId,
        authorName: c.author,
        body: c.body,
        createdAt: new Date(now - p.daysAgo * DAY_MS + (j + 1) * 3600_000),
      });
    }
  }
}

async function seedEvents(tx: Tx, websiteId: string, collectionId: string, now: number) {
  const startOfDay = Math.floor(now / DAY_MS) * DAY_MS;
  for (const [i, e] of demoEvents.entries()) {
    // Events start at 18:00 UTC (early afternoon in New York).
    const start = startOfDay + e.startInDays * DAY_MS + 18 * 3600_000;
    await tx.insert(t.contentItems).values({
      id: newId(),
      websiteId,
      collectionId,
      recordType: RecordType.EVENT,
      urlId: e.slug,
      title: e.title,
      body: e.body,
      excerpt: e.excerpt,
      location: e.location,
      startDate: new Date(start),
      endDate: new Date(start + e.hours * 3600_000),
      publishOn: new Date(now - 90 * DAY_MS),
      ordering: i,
    });
  }
}

async function seedGallery(tx: Tx, websiteId: string, collectionId: string, image: ImageMaker) {
  for (const [i, g] of demoGallery.entries()) {
    const imageId = await image(g.title, g.motif);
    await tx.insert(t.contentItems).values({
      id: newId(),
      websiteId,
      collectionId,
      recordType: RecordType.IMAGE,
      urlId: g.title.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
      title: g.title,
      mainImageId: imageId,
      ordering: i,
    });
  }
}
