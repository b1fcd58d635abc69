/**
 * The write buttons of the dashboard's screens follow the member's roles: a Website editor sees
 * none of the store's (Add product, stock, Refund, Fulfil, store settings' Save, rules' Add), a
 * Store manager none of the pages' (Add page, Publish, Upload image), while each still sees their
 * own. The table below is walked for both roles, so a button that reappears for a role that may
 * not use it fails the test. Stock is changed in an opened product row (Inventory: a product
 * expanded; a product's own screen): the Store manager's stock fields are there and enabled, and
 * a stock saved from Inventory is kept; the Website editor reaches neither screen.
 */
import { type ProductType, tracksStock } from "@atelier/commerce";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, PHONE, browser, screenshot, useBrowser, scaled } from "./browser.js";
import { demoOwnerLogIn, inviteByEmail, ownerCall } from "./owner.js";
import { addCandle, fillCheckout } from "./shopper.js";

const base = inject("baseUrl");
useBrowser();

const stamp = Date.now();
const password = "a long enough password";

type Role = "website_editor" | "store_manager";

/** A screen (under /config/sites/:siteId/), what shows once it is open, and its write buttons. */
interface Screen {
  path: (ids: Ids) => string;
  /** The role whose permissions include the buttons' calls. */
  writer: Role;
  /** Text on the screen once it has loaded, for the role that opens it. */
  ready: string | RegExp;
  buttons: (string | RegExp)[];
  /** Links styled as buttons (Add product…). */
  links?: (string | RegExp)[];
  /** Form fields by label (stock…): there and enabled for the writer, absent for the other role. */
  fields?: (string | RegExp)[];
  /** What the writer does, once the screen is ready, to show its controls (expand a product row). */
  open?: (page: Page, ids: Ids) => Promise<void>;
  /** The writer uses the screen's controls once, and the change is kept. */
  use?: (page: Page, ids: Ids) => Promise<void>;
}
interface Ids {
  pageId: string;
  /** A product whose first variant's stock is counted (neither digital nor unlimited). */
  productId: string;
  productTitle: string;
  /** How Inventory names that variant: its options, else its SKU. */
  variantLabel: string;
  orderId: string;
}

/** In Inventory, the product's row expanded (found by its name): its variants' stock cells. */
async function expandProduct(page: Page, { productTitle }: Ids): Promise<void> {
  await page.getByLabel("Search products").fill(productTitle);
  await page.getByRole("button", { name: `Expand ${productTitle}`, exact: true }).click();
}

/** Changes the variant's stock in Inventory, sees it kept after a reload, and puts it back. */
async function saveStock(page: Page, ids: Ids): Promise<void> {
  const field = () => page.getByLabel(`Stock of ${ids.variantLabel}`, { exact: true });
  const save = () => page.getByRole("button", { name: `Save stock of ${ids.variantLabel}`, exact: true });
  await screenshot(page, "team-buttons-store-manager-inventory");
  const was = Number(await field().inputValue());
  for (const value of [was + 3, was]) {
    await field().fill(String(value));
    await save().click();
    // Saved: the list is read again and the count it shows is the one typed (nothing left to save).
    await expect.poll(() => save().isDisabled(), { timeout: 15_000 }).toBe(true);
    await page.reload();
    await expandProduct(page, ids);
    await expect.poll(() => field().inputValue(), { timeout: 15_000 }).toBe(String(value));
  }
}

const SCREENS: Screen[] = [
  {
    path: () => "products",
    writer: "store_manager",
    ready: "Everything you sell",
    buttons: [],
    links: ["Add product"],
  },
  {
    path: ({ productId }) => `products/${productId}`,
    writer: "store_manager",
    ready: "Details",
    buttons: ["Save product", "Delete product"],
    fields: ["Stock", "Unlimited stock"],
  },
  {
    path: () => "inventory",
    writer: "store_manager",
    ready: "Stock of every product and variant. Expand a product to change its stock.",
    buttons: [/^Save stock of /],
    fields: [/^Stock of /],
    open: expandProduct,
    use: saveStock,
  },
  {
    path: ({ orderId }) => `ops/orders/${orderId}`,
    writer: "store_manager",
    ready: /Order #/,
    buttons: ["Refund", "Fulfil order", "Cancel order"],
  },
  {
    path: () => "store",
    writer: "store_manager",
    ready: /Store settings/,
    buttons: [/^Save/],
  },
  {
    path: () => "marketing/discounts/coupons",
    writer: "store_manager",
    ready: /Discounts/,
    buttons: ["Add coupon"],
  },
  {
    path: () => "pages",
    writer: "website_editor",
    ready: "Drag pages to reorder them",
    buttons: ["Add page", /^Drag /],
  },
  {
    path: ({ pageId }) => `pages/${pageId}`,
    writer: "website_editor",
    ready: "General",
    buttons: [/^Save/, "Delete page"],
  },
  {
    path: ({ pageId }) => `pages/${pageId}/edit`,
    writer: "website_editor",
    ready: /Editing: /,
    buttons: ["Publish", "Add block"],
  },
  {
    path: () => "media",
    writer: "website_editor",
    ready: "Media library",
    buttons: ["Upload image"],
  },
  {
    path: () => "design/css",
    writer: "website_editor",
    // The screen's own text (the menu also says "Custom CSS" before the lazy editor has loaded).
    ready: /of 100 KB/,
    buttons: ["Save CSS"],
  },
];

/** A member of the demo site with `role`, signed in in a browser context of their own. */
async function member(
  owner: Page,
  siteId: string,
  role: Role,
): Promise<{ context: BrowserContext; page: Page }> {
  const email = `${role.replace("_", "-")}-${stamp}@example.com`;
  const link = await inviteByEmail(owner, base, siteId, email, [role]);
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto(`${base}${link}`);
  await page.getByLabel("Your name").fill(role === "store_manager" ? "Sam Store" : "Wendy Web");
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("New password again").fill(password);
  await page.getByRole("button", { name: "Accept and join" }).click();
  await page.waitForURL(new RegExp(`/config/sites/${siteId}$`));
  return { context, page };
}

/** Opens `screen` as the member and checks its write buttons are there or not, as the role allows. */
async function check(page: Page, siteId: string, ids: Ids, screen: Screen, role: Role): Promise<void> {
  const url = `${base}/config/sites/${siteId}/${screen.path(ids)}`;
  await page.goto(url);
  const allowed = screen.writer === role;
  if (allowed) await page.getByText(screen.ready).first().waitFor();
  else await page.getByText("Your role does not allow this.").first().waitFor();
  if (allowed) await screen.open?.(page, ids);
  const main = page.locator("body");
  for (const name of screen.buttons) {
    const count = () => main.getByRole("button", { name }).count();
    if (allowed)
      await expect
        .poll(count, { message: `${role} sees ${name} at ${url}`, timeout: 15_000 })
        .toBeGreaterThan(0);
    else await expect(count(), `${role} must not see ${name} at ${url}`).resolves.toBe(0);
  }
  for (const name of screen.links ?? []) {
    const count = () => main.getByRole("link", { name }).count();
    if (allowed)
      await expect
        .poll(count, { message: `${role} sees ${name} at ${url}`, timeout: 15_000 })
        .toBeGreaterThan(0);
    else await expect(count(), `${role} must not see ${name} at ${url}`).resolves.toBe(0);
  }
  for (const name of screen.fields ?? []) {
    const fields = main.getByLabel(name, { exact: typeof name === "string" });
    if (allowed) {
      await expect
        .poll(() => fields.count(), { message: `${role} sees ${name} at ${url}`, timeout: 15_000 })
        .toBeGreaterThan(0);
      await expect(fields.first().isEditable(), `${role} may change ${name} at ${url}`).resolves.toBe(true);
    } else await expect(fields.count(), `${role} must not see ${name} at ${url}`).resolves.toBe(0);
  }
  if (allowed) await screen.use?.(page, ids);
}

describe("write buttons follow the member's roles", () => {
  it("a Website editor sees no store write buttons and a Store manager no page publish", {
    timeout: scaled(300_000),
  }, async () => {
    // A visitor buys a candle with the test card: a paid order to refund or fulfil.
    const shopper = await browser.newPage();
    await addCandle(shopper);
    await shopper.goto(`${base}/checkout`);
    await fillCheckout(shopper, "4242 4242 4242 4242");
    await shopper.getByRole("button", { name: /^Pay \$/ }).click();
    await shopper.waitForURL(/\/checkout\/order-confirmed\?orderId=[a-f0-9]{24}&token=/);
    const orderId = new URL(shopper.url()).searchParams.get("orderId")!;
    await shopper.close();

    const owner = await demoOwnerLogIn(browser, base);
    const { page, siteId } = owner;
    const { products } = await ownerCall<{
      products: {
        id: string;
        title: string;
        productType: ProductType;
        variants: { unlimited: boolean; sku: string; attributes: Record<string, string> }[];
      }[];
    }>(page, "GET", `/api/owner/sites/${siteId}/products?pageSize=200`);
    const stocked = products.find((p) => tracksStock(p.productType) && !p.variants[0]!.unlimited)!;
    expect(stocked, "the demo store sells a product whose stock is counted").toBeDefined();
    const firstVariant = stocked.variants[0]!;
    const { pages } = await ownerCall<{ pages: { id: string; kind: string; isHome: boolean }[] }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/pages`,
    );
    const ids: Ids = {
      productId: stocked.id,
      productTitle: stocked.title,
      variantLabel: Object.values(firstVariant.attributes).join(" / ") || firstVariant.sku,
      pageId: pages.find((p) => p.kind === "page" && !p.isHome)!.id,
      orderId,
    };

    for (const role of ["website_editor", "store_manager"] as const) {
      const { context, page: memberPage } = await member(page, siteId, role);
      const errors: string[] = [];
      memberPage.on("pageerror", (e) => errors.push(e.message));
      for (const screen of SCREENS) await check(memberPage, siteId, ids, screen, role);
      // A read of the other role's area by its URL, on a phone: the refusal, and no button to act.
      await memberPage.setViewportSize(PHONE);
      const other = role === "store_manager" ? `pages/${ids.pageId}/edit` : `ops/orders/${ids.orderId}`;
      await memberPage.goto(`${base}/config/sites/${siteId}/${other}`);
      await memberPage.getByText("Your role does not allow this.").first().waitFor();
      await screenshot(memberPage, `team-buttons-${role}-refused-phone`);
      expect(errors).toEqual([]);
      await context.close();
    }
    expect(owner.errors).toEqual([]);
    await owner.context.close();
  });
});
