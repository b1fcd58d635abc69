/**
 * Sites for testing the published-site renderer beyond the demo store: a classic website
 * ("classic.localhost", fixture-classic.ts) with every block type, galleries in every design, an
 * album, a folder, a password-protected page and a member area; a cover page ("cover.localhost");
 * and a site on the Personal plan ("basic.localhost") whose premium blocks must stay hidden. Used
 * by the integration tests and the browser tests; never by the product itself.
 */
import type { Db } from "../db/client.js";
import { WebsiteType } from "../db/enums.js";
import * as t from "../db/schema.js";
import { newId } from "../lib/ids.js";
import { hashPassword } from "../lib/passwords.js";
import { localMediaStore } from "../media/local.js";
import { writeMediaFile } from "../modules/media/storage.js";
import { seedBillingCatalog } from "../seed/billing-catalog.js";
import { seedClassicSite } from "./fixture-classic.js";
import { type Files, block, imageMaker, row, site } from "./fixture-kit.js";

export const FIXTURE_PAGE_PASSWORD = "open sesame";

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

/** Creates the fixture sites (the billing catalog too, when missing). */
export async function seedRenderFixtures(db: Db, dataDir: string, now = new Date()): Promise<FixtureIds> {
  const pending: [string, string, string, Buffer | string][] = [];
  const files: Files = { put: (w, id, f, b) => pending.push([w, id, f, b]) };
  const passwordHash = await hashPassword(FIXTURE_PAGE_PASSWORD);
  const ids = await db.transaction(async (tx) => {
    await seedBillingCatalog(tx);
    const classicIds = await seedClassicSite(tx, files, passwordHash, now);

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
    return { ...classicIds, cover, basic };
  });
  const store = localMediaStore(dataDir);
  for (const [w, id, f, bytes] of pending) await writeMediaFile(store, w, id, f, bytes);
  return ids;
}
