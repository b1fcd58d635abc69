/**
 * Sites for testing the published-site renderer beyond the demo store: a classic website
 * ("classic.localhost") with every block type, galleries in every design, an album, a folder,
 * a password-protected page and a member area; a cover page ("cover.localhost"); and a site on
 * the Personal plan ("basic.localhost") whose premium blocks must stay hidden. Used by the
 * integration tests and the browser tests; never by the product itself.
 */
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client.js";
import { BillingStatus, RecordType, SiteStatus, WebsiteType } from "../db/enums.js";
import * as t from "../db/schema.js";
import { newId } from "../lib/ids.js";
import { hashPassword } from "../lib/passwords.js";
import { localMediaStore } from "../media/local.js";
import { writeMediaFile } from "../modules/media/storage.js";
import { type Motif, artworkSvg } from "../seed/art.js";
import { seedBillingCatalog } from "../seed/billing-catalog.js";

export const FIXTURE_PAGE_PASSWORD = "open sesame";
const DAY = 86_400_000;

/** A short sine-wave WAV (8 kHz, mono, 16-bit), so albums have something real to play. */
export function toneWav(seconds: number, hz: number): Buffer {
  const rate = 8000;
  const n = Math.round(seconds * rate);
  const buf = Buffer.alloc(44 + n * 2);
  buf.write("RIFF", 0);
  buf.writeUInt32LE(36 + n * 2, 4);
  buf.write("WAVE", 8);
  buf.write("fmt ", 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36);
  buf.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) {
    const fade = Math.min(1, i / 400, (n - i) / 400);
    buf.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 9000 * fade), 44 + i * 2);
  }
  return buf;
}

export interface FixtureIds {
  classic: string;
  cover: string;
  basic: string;
  lockedPageId: string;
  memberPageId: string;
  memberUserId: string;
  otherUserId: string;
  blogPostId: string;
  productId: string;
}

interface Files {
  put(websiteId: string, id: string, filename: string, bytes: Buffer | string): void;
}

let counter = 0;
const block = (type: string, props: Record<string, unknown> = {}) => ({
  id: `fx-${type}-${++counter}`,
  type,
  ...props,
});
const row = (...columns: Record<string, unknown>[][]) => ({
  columns: columns.map((blocks) => ({ span: Math.floor(12 / columns.length), blocks })),
});

async function site(
  tx: Tx,
  v: {
    identifier: string;
    title: string;
    tagline: string;
    type: number;
    theme: string;
    featureSetId: string;
  },
): Promise<string> {
  const id = newId();
  await tx.insert(t.websites).values({
    id,
    identifier: v.identifier,
    title: v.title,
    tagline: v.tagline,
    websiteType: v.type,
    siteStatus: SiteStatus.PAID,
    billingStatus: BillingStatus.SUBSCRIBED,
    theme: v.theme,
    featureSetId: v.featureSetId,
  });
  await tx.insert(t.websiteSettings).values({
    websiteId: id,
    shareButtonOptions: { facebook: true, twitter: true },
    socialLinks: [{ service: "instagram", profileUrl: "https://instagram.com/example", userName: "example" }],
  });
  await tx.insert(t.storeSettings).values({ websiteId: id });
  return id;
}

function imageMaker(tx: Tx, websiteId: string, files: Files) {
  return async (name: string, motif: Motif) => {
    const art = artworkSvg(name, motif);
    const id = newId();
    const filename = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.svg`;
    await tx.insert(t.media).values({
      id,
      websiteId,
      filename,
      contentType: "image/svg+xml",
      width: art.width,
      height: art.height,
      byteSize: Buffer.byteLength(art.svg),
      title: name,
      focalX: 0.5,
      focalY: 0.4,
      storagePath: `media/${websiteId}/${id}/${filename}`,
    });
    files.put(websiteId, id, filename, art.svg);
    return id;
  };
}

/** Creates the fixture sites (the billing catalog too, when missing). */
export async function seedRenderFixtures(db: Db, dataDir: string, now = new Date()): Promise<FixtureIds> {
  const pending: [string, string, string, Buffer | string][] = [];
  const files: Files = { put: (w, id, f, b) => pending.push([w, id, f, b]) };
  const passwordHash = await hashPassword(FIXTURE_PAGE_PASSWORD);
  const ids = await db.transaction(async (tx) => {
    await seedBillingCatalog(tx);
    const classic = await site(tx, {
      identifier: "classic",
      title: "Harbour Notes",
      tagline: "A small press and reading room by the sea.",
      type: WebsiteType.CLASSIC,
      theme: "classic",
      featureSetId: "commerce-advanced",
    });
    const image = imageMaker(tx, classic, files);
    const imgs: string[] = [];
    for (const [i, m] of (["landscape", "vessel", "arch", "circle", "stack", "card"] as Motif[]).entries()) {
      imgs.push(await image(`Harbour view ${i + 1}`, m));
    }
    const toneId = newId();
    await tx.insert(t.media).values({
      id: toneId,
      websiteId: classic,
      filename: "tone.wav",
      contentType: "audio/wav",
      width: 0,
      height: 0,
      byteSize: 0,
      title: "Tone",
      colorData: {},
      storagePath: `media/${classic}/${toneId}/tone.wav`,
    });
    files.put(classic, toneId, "tone.wav", toneWav(2, 440));
    const productId = newId();
    const forms = { contact: newId() };
    await tx.insert(t.forms).values({
      id: forms.contact,
      websiteId: classic,
      name: "Write to us",
      notifyEmail: "private-notify@example.com",
      fields: [
        { id: "name", type: "text", title: "Your name", required: true },
        { id: "email", type: "email", title: "Email", required: true },
        { id: "message", type: "textarea", title: "Message", required: false },
      ],
    });
    await tx
      .update(t.websiteSettings)
      .set({ captchaSecretKey: "private-captcha-secret" })
      .where(eq(t.websiteSettings.websiteId, classic));
    const c = {
      home: newId(),
      blog: newId(),
      events: newId(),
      grid: newId(),
      slideshow: newId(),
      slider: newId(),
      stacked: newId(),
      album: newId(),
      folder: newId(),
      about: newId(),
      team: newId(),
      locked: newId(),
      members: newId(),
      shop: newId(),
    };
    const gallery = (
      id: string,
      slug: string,
      title: string,
      options: Record<string, unknown>,
      ordering: number,
    ) => ({
      id,
      websiteId: classic,
      kind: "gallery",
      title,
      urlSlug: slug,
      ordering,
      hiddenFromNav: slug !== "gallery",
      description: `The ${title.toLowerCase()} gallery.`,
      options,
    });
    await tx.insert(t.collections).values([
      {
        id: c.home,
        websiteId: classic,
        kind: "page",
        title: "Home",
        urlSlug: "home",
        isHome: true,
        hiddenFromNav: true,
        ordering: 0,
        layout: {
          rows: [
            row([block("image", { imageId: imgs[0], alt: "The harbour at dawn" })]),
            row([
              block("text", {
                html: '<h1>Stories from the harbour</h1><p>Essays, prints and readings.</p><script>alert("x")</script>',
              }),
              block("button", { label: "Read the journal", href: "/journal", align: "center" }),
            ]),
            row([
              block("summary", { collectionId: c.blog, title: "Latest essays", limit: 3, design: "grid" }),
            ]),
            row(
              [
                block("quote", {
                  text: "The sea, once it casts its spell, holds one in its net of wonder forever.",
                  source: "Jacques Cousteau",
                }),
              ],
              [
                block("map", {
                  location: {
                    addressTitle: "Reading room",
                    addressLine1: "1 Quay Street",
                    addressLine2: "Portsmouth",
                    addressCountry: "United Kingdom",
                    mapLat: 50.79,
                    mapLng: -1.1,
                  },
                }),
              ],
            ),
            row([block("form", { formId: forms.contact, title: "Write to us" })]),
          ],
        },
      },
      {
        id: c.blog,
        websiteId: classic,
        kind: "blog",
        title: "Journal",
        urlSlug: "journal",
        ordering: 1,
        description: "Essays from the reading room.",
        options: { pageSize: 2 },
      },
      {
        id: c.events,
        websiteId: classic,
        kind: "events",
        title: "Readings",
        urlSlug: "readings",
        ordering: 2,
        description: "Evenings of words.",
        options: { showPastOrUpcomingEvents: "upcoming" },
      },
      gallery(
        c.grid,
        "gallery",
        "Gallery",
        {
          design: "grid",
          "thumbnails-per-row": 50,
          padding: -5,
          lightbox: true,
          "show-meta": true,
          "aspect-ratio": "4:3",
        },
        3,
      ),
      gallery(
        c.slideshow,
        "slideshow",
        "Slideshow",
        {
          design: "slideshow",
          autoplay: true,
          "autoplay-duration": 99,
          controls: true,
          thumbnails: true,
          "show-meta": true,
          "meta-position": "bottom-left",
          lightbox: true,
        },
        10,
      ),
      gallery(
        c.slider,
        "slider",
        "Slider",
        { design: "slider", controls: true, "active-alignment": "left", "show-meta": true },
        11,
      ),
      gallery(
        c.stacked,
        "stacked",
        "Stacked",
        { design: "stacked", "show-meta": true, "meta-position": "top-right", padding: 12 },
        12,
      ),
      {
        id: c.album,
        websiteId: classic,
        kind: "album",
        title: "Harbour Sounds",
        urlSlug: "sounds",
        ordering: 4,
        description: "Field recordings from the quay.",
        options: { artist: "The Reading Room", coverImageId: imgs[3] },
      },
      {
        id: c.folder,
        websiteId: classic,
        kind: "folder",
        title: "About",
        urlSlug: "about-us",
        ordering: 5,
        folderBehavior: "index",
      },
      {
        id: c.about,
        websiteId: classic,
        kind: "page",
        title: "Our story",
        urlSlug: "story",
        folderId: c.folder,
        ordering: 6,
        description: "How the reading room began.",
        layout: {
          rows: [
            row([
              block("text", {
                html: "<h1>Our story</h1><p>It began with a crate of books and a borrowed boat.</p>",
              }),
            ]),
            row([
              block("video", {
                url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
                title: "A walk on the quay",
              }),
              block("audio", { url: `/media/${toneId}/tone.wav`, title: "Foghorn", artist: "The quay" }),
            ]),
            row([
              block("code", {
                html: '<p class="note">Plain <em>HTML</em></p><script>steal()</script><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="" onerror="steal()">',
              }),
              block("embed", {
                html: '<iframe src="https://example.com/embed" onload="x()"></iframe><iframe src="javascript:alert(1)"></iframe>',
              }),
            ]),
            row([block("spacer", { height: 40 }), block("line")]),
            row([block("product", { productId, showVariantImages: true })]),
            row([
              block("gallery", {
                title: "From the archive",
                imageIds: imgs.slice(0, 3),
                options: { design: "grid", "thumbnails-per-row": 3, lightbox: true },
              }),
            ]),
            row(
              [
                block("menu", {
                  title: "Café menu",
                  menuText:
                    "# Drinks\nTea | 3.00 | Loose leaf\nCoffee | 3.50\n# Cakes\nLemon drizzle | 4.00 | Baked daily",
                }),
              ],
              [block("donation", { title: "Support the room", description: "Keep the lights on." })],
            ),
            row(
              [block("amazon", { asin: "B000TEST01", title: "Our anthology" })],
              [block("opentable", { restaurantId: "12345", name: "The Quay Café" })],
              [
                block("member-area", {
                  title: "Friends of the room",
                  description: "Monthly readings for friends.",
                }),
              ],
            ),
          ],
        },
      },
      {
        id: c.team,
        websiteId: classic,
        kind: "page",
        title: "Team",
        urlSlug: "team",
        folderId: c.folder,
        ordering: 7,
        layout: {
          rows: [row([block("text", { html: "<h1>The team</h1><p>Three readers and a cat.</p>" })])],
        },
      },
      {
        id: c.locked,
        websiteId: classic,
        kind: "page",
        title: "Private archive",
        urlSlug: "archive",
        ordering: 8,
        passwordHash,
        layout: {
          rows: [row([block("text", { html: "<h1>The archive</h1><p>Secret letters from 1911.</p>" })])],
        },
      },
      {
        id: c.members,
        websiteId: classic,
        kind: "page",
        title: "Friends",
        urlSlug: "friends",
        ordering: 9,
        options: { memberArea: true },
        layout: {
          rows: [row([block("text", { html: "<h1>Friends only</h1><p>Thank you for being a friend.</p>" })])],
        },
      },
      {
        id: c.shop,
        websiteId: classic,
        kind: "products",
        title: "Prints",
        urlSlug: "prints",
        ordering: 13,
        hiddenFromNav: true,
      },
    ]);
    // Blog posts: three published, one scheduled; comments open, closed, and disabled counts.
    const posts = [
      {
        slug: "tides",
        title: "On Tides",
        daysAgo: 2,
        categories: ["Essays"],
        tags: ["sea", "time"],
        commentState: 1,
      },
      {
        slug: "lighthouses",
        title: "Lighthouses",
        daysAgo: 9,
        categories: ["Essays"],
        tags: ["sea"],
        commentState: 2,
      },
      {
        slug: "printing",
        title: "Printing by Hand",
        daysAgo: 20,
        categories: ["Workshop notes"],
        tags: ["print"],
        commentState: 2,
      },
      {
        slug: "tomorrow",
        title: "Not Yet Published",
        daysAgo: -3,
        categories: ["Essays"],
        tags: [],
        commentState: 1,
      },
    ];
    let blogPostId = "";
    for (const [i, p] of posts.entries()) {
      const id = newId();
      if (i === 0) blogPostId = id;
      await tx.insert(t.contentItems).values({
        id,
        websiteId: classic,
        collectionId: c.blog,
        recordType: RecordType.TEXT,
        urlId: p.slug,
        title: p.title,
        body: `<p>${p.title}: a quiet essay about the harbour, the boats and the people who read there.</p>`,
        excerpt: `<p>${p.title}, briefly.</p>`,
        authorName: "Ada Quay",
        categories: p.categories,
        tags: p.tags,
        mainImageId: imgs[i % imgs.length],
        publishOn: new Date(now.getTime() - p.daysAgo * DAY),
        commentState: p.commentState,
        likeCount: 2,
      });
      if (i === 0) {
        await tx.insert(t.comments).values({
          id: newId(),
          websiteId: classic,
          itemId: id,
          authorName: "Ben",
          body: "Lovely <b>piece</b>.",
        });
      }
      if (i === 2) {
        await tx.insert(t.comments).values({
          id: newId(),
          websiteId: classic,
          itemId: id,
          authorName: "Cy",
          body: "Closed but kept.",
        });
      }
    }
    // Events: two upcoming, one past.
    for (const [i, e] of [
      { slug: "poetry-night", title: "Poetry Night", inDays: 5 },
      { slug: "print-fair", title: "Print Fair", inDays: 40 },
      { slug: "winter-reading", title: "Winter Reading", inDays: -30 },
    ].entries()) {
      const start = new Date(Math.floor(now.getTime() / DAY) * DAY + e.inDays * DAY + 19 * 3600_000);
      await tx.insert(t.contentItems).values({
        id: newId(),
        websiteId: classic,
        collectionId: c.events,
        recordType: RecordType.EVENT,
        urlId: e.slug,
        title: e.title,
        body: `<p>${e.title} at the reading room.</p>`,
        excerpt: `${e.title}, with tea.`,
        location: {
          addressTitle: "Reading room",
          addressLine1: "1 Quay Street",
          addressLine2: "Portsmouth",
          mapLat: 50.79,
          mapLng: -1.1,
        },
        startDate: start,
        endDate: new Date(start.getTime() + 2 * 3600_000),
        ordering: i,
      });
    }
    // Gallery images, the same six in every design.
    for (const g of [c.grid, c.slideshow, c.slider, c.stacked]) {
      for (const [i, img] of imgs.entries()) {
        await tx.insert(t.contentItems).values({
          id: newId(),
          websiteId: classic,
          collectionId: g,
          recordType: RecordType.IMAGE,
          urlId: `view-${i + 1}`,
          title: `Harbour view ${i + 1}`,
          body: `<p>Photograph number ${i + 1}.</p>`,
          mainImageId: img,
          ordering: i,
        });
      }
    }
    // Album: 62 tracks stored, 60 shown (SPEC §9).
    for (let i = 0; i < 62; i++) {
      await tx.insert(t.contentItems).values({
        id: newId(),
        websiteId: classic,
        collectionId: c.album,
        recordType: RecordType.AUDIO,
        urlId: `track-${i + 1}`,
        title: `Track ${i + 1}: ${["Gulls", "Rigging", "Rain on slate", "Ferry horn"][i % 4]}`,
        structuredContent: { audioAssetUrl: `/media/${toneId}/tone.wav`, duration: 2 },
        ordering: i,
      });
    }
    // One product, for the product block.
    await tx.insert(t.contentItems).values({
      id: productId,
      websiteId: classic,
      collectionId: c.shop,
      recordType: RecordType.STORE_ITEM,
      urlId: "harbour-print",
      title: "Harbour Print",
      body: "<p>A risograph print.</p>",
      excerpt: "A two-colour risograph print.",
      mainImageId: imgs[0],
      imageIds: [imgs[0]!],
      structuredContent: { productType: 1, variantOptionOrdering: ["Size"] },
    });
    await tx.insert(t.productVariants).values([
      {
        id: newId(),
        websiteId: classic,
        itemId: productId,
        sku: "HP-A4",
        attributes: { Size: "A4" },
        priceCents: 2500,
        qtyInStock: 4,
        mainImageId: imgs[1],
        ordering: 0,
      },
      {
        id: newId(),
        websiteId: classic,
        itemId: productId,
        sku: "HP-A3",
        attributes: { Size: "A3" },
        priceCents: 4000,
        qtyInStock: 0,
        mainImageId: imgs[2],
        ordering: 1,
      },
    ]);
    // Member-area page: two site users; only the first is listed as a member.
    const memberUserId = newId();
    const otherUserId = newId();
    await tx.insert(t.siteUsers).values([
      {
        id: memberUserId,
        websiteId: classic,
        email: "friend@example.com",
        passwordHash,
        firstName: "Fran",
        lastName: "Friend",
      },
      {
        id: otherUserId,
        websiteId: classic,
        email: "visitor@example.com",
        passwordHash,
        firstName: "Vic",
        lastName: "Visitor",
      },
    ]);
    await tx
      .update(t.collections)
      .set({ options: { memberArea: true, memberAreaUsers: [memberUserId] } })
      .where(eq(t.collections.id, c.members));

    // Cover page site.
    const cover = await site(tx, {
      identifier: "cover",
      title: "Nova Quartet",
      tagline: "Strings for weddings and small halls.",
      type: WebsiteType.COVER_PAGE,
      theme: "cover",
      featureSetId: "personal",
    });
    const coverImage = imageMaker(tx, cover, files);
    const bg = await coverImage("Concert hall", "landscape");
    const newsletter = newId();
    await tx.insert(t.forms).values({
      id: newsletter,
      websiteId: cover,
      name: "Newsletter",
      fields: [{ id: "email", type: "email", title: "Email Address", required: true }],
    });
    await tx.insert(t.collections).values({
      id: newId(),
      websiteId: cover,
      kind: "page",
      title: "Home",
      urlSlug: "home",
      isHome: true,
      hiddenFromNav: true,
      options: {
        headline: "Nova Quartet",
        tagline: "Strings for weddings, concerts and small halls.",
        backgroundImageId: bg,
        overlayOpacity: 0.45,
        buttons: [
          { label: "Book us", href: "mailto:hello@example.com" },
          { label: "Listen", href: "#listen" },
          { label: "Bad", href: "javascript:alert(1)" },
        ],
      },
      layout: {
        rows: [
          row([
            block("newsletter", {
              formId: newsletter,
              title: "Concert news",
              description: "A short note before each concert.",
            }),
          ]),
        ],
      },
    });

    // A site on the Personal plan: premium blocks hidden, donation page absent.
    const basic = await site(tx, {
      identifier: "basic",
      title: "Basic Site",
      tagline: "On the personal plan.",
      type: WebsiteType.CLASSIC,
      theme: "classic",
      featureSetId: "personal",
    });
    await tx.insert(t.collections).values({
      id: newId(),
      websiteId: basic,
      kind: "page",
      title: "Home",
      urlSlug: "home",
      isHome: true,
      layout: {
        rows: [
          row(
            [block("text", { html: "<p>Basic home.</p>" })],
            [
              block("amazon", { asin: "B000TEST01" }),
              block("donation", {}),
              block("menu", { menuText: "Soup | 5" }),
            ],
          ),
          row([block("opentable", { restaurantId: "1" }), block("member-area", {})]),
        ],
      },
    });
    return {
      classic,
      cover,
      basic,
      lockedPageId: c.locked,
      memberPageId: c.members,
      memberUserId,
      otherUserId,
      blogPostId,
      productId,
    };
  });
  const store = localMediaStore(dataDir);
  for (const [w, id, f, bytes] of pending) await writeMediaFile(store, w, id, f, bytes);
  return ids;
}
