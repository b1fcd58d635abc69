/**
 * The classic fixture site ("classic.localhost"): every block type, galleries in every design,
 * blog posts with comments, events, an album, a folder, a password-protected page, a member area
 * and a product.
 */
import { eq } from "drizzle-orm";
import type { Tx } from "../db/client.js";
import { RecordType, WebsiteType } from "../db/enums.js";
import * as t from "../db/schema.js";
import { DAY_MS } from "../lib/clock.js";
import { newId } from "../lib/ids.js";
import type { Motif } from "../seed/art.js";
import { type Files, block, imageMaker, row, site, toneWav } from "./fixture-kit.js";

/** The comments of the blog posts, by the post's place in the list. */
const POST_COMMENTS: Record<number, { authorName: string; body: string }> = {
  0: { authorName: "Ben", body: "Lovely <b>piece</b>." },
  2: { authorName: "Cy", body: "Closed but kept." },
};

type PageIds = Record<
  | "home"
  | "blog"
  | "events"
  | "grid"
  | "slideshow"
  | "slider"
  | "stacked"
  | "album"
  | "folder"
  | "about"
  | "team"
  | "locked"
  | "members"
  | "shop",
  string
>;

/** The pages of the classic site, with their layouts. */
function classicPages(
  classic: string,
  c: PageIds,
  refs: {
    imgs: string[];
    forms: { contact: string };
    toneId: string;
    productId: string;
    passwordHash: string;
  },
): (typeof t.collections.$inferInsert)[] {
  const { imgs, forms, toneId, productId, passwordHash } = refs;
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
  return [
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
          row([block("summary", { collectionId: c.blog, title: "Latest essays", limit: 3, design: "grid" })]),
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
  ];
}

/** Creates the classic site; answers the ids the tests use. */
export async function seedClassicSite(tx: Tx, files: Files, passwordHash: string, now: Date) {
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
  await tx
    .insert(t.collections)
    .values(classicPages(classic, c, { imgs, forms, toneId, productId, passwordHash }));
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
      publishOn: new Date(now.getTime() - p.daysAgo * DAY_MS),
      commentState: p.commentState,
      likeCount: 2,
    });
    const comment = POST_COMMENTS[i];
    if (comment) {
      await tx.insert(t.comments).values({ id: newId(), websiteId: classic, itemId: id, ...comment });
    }
  }
  // Events: two upcoming, one past.
  for (const [i, e] of [
    { slug: "poetry-night", title: "Poetry Night", inDays: 5 },
    { slug: "print-fair", title: "Print Fair", inDays: 40 },
    { slug: "winter-reading", title: "Winter Reading", inDays: -30 },
  ].entries()) {
    const start = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + e.inDays * DAY_MS + 19 * 3600_000);
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
  return {
    classic,
    lockedPageId: c.locked,
    memberPageId: c.members,
    memberUserId,
    otherUserId,
    blogPostId,
    productId,
  };
}
