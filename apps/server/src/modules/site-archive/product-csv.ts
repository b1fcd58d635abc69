/**
 * Products from other shops' CSV exports (Shopify's product CSV, WooCommerce's product CSV) and
 * products out as a Shopify-compatible CSV. Each imported line is reported: what it became, or
 * why it was skipped. Images given by URL (and those in descriptions) are copied into the media
 * library when asked (platform-import.ts); those not copied stay links, shown in the description.
 * Slugs in any script become ASCII; each product's old address (Shopify's /products/<handle> and
 * /collections/<any>/products/<handle>, WooCommerce's /product/<slug> and ?p=<id>, its product
 * categories) answers 301 to the new one. All or nothing: one transaction.
 */
import { ProductType } from "@atelier/commerce";
import { asc, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { collections, contentItems, productVariants } from "../../db/schema.js";
import { ApiError, badRequest } from "../../http/errors.js";
import { csvHeader, csvRecords, toCsv } from "../../lib/csv.js";
import { commaList } from "../../lib/comma-list.js";
import { escapeHtml } from "../../lib/escape.js";
import { asciiSlug, importedSlug } from "../../lib/slug.js";
import { type ProductInput, type VariantInput, createProduct } from "../catalog/admin.js";
import { firstFreeUrlId, takenUrlIds } from "../content-admin/item-store.js";
import type { ImportedAddress } from "../redirects/service.js";
import {
  type Copies,
  type ImportLine,
  type PlatformImportOptions,
  type PlatformReport,
  runPlatformImport,
} from "./platform-import.js";
import type { RemoteFile } from "./remote-files.js";
import { imageSources, imagesToLibrary } from "./rich-text-images.js";

/** Money text ("12.50", "1,299.00") to cents; undefined when it is not a price. */
function cents(text: string): number | undefined {
  const clean = text.replace(/[^\d.-]/g, "");
  if (!/^-?\d+(\.\d{1,2})?$/.test(clean)) return undefined;
  return Math.round(Number(clean) * 100);
}

function withImageLinks(body: string, urls: string[]): string {
  const safe = urls.filter((u) => /^https?:\/\//i.test(u));
  if (!safe.length) return body;
  return `${body}${safe.map((u, i) => `<p><a href="${escapeHtml(u)}">Image ${i + 1}</a></p>`).join("")}`;
}

interface Draft {
  line: number;
  input: ProductInput;
  images: string[];
  /** The product's addresses on the old shop. */
  oldAddresses: string[];
  /** WooCommerce's category paths ("clothing/shirts") and names, for their old addresses. */
  categoryPaths: { path: string; name: string }[];
}

/** A slug as WordPress makes it from a name: accents gone, letters of any script kept, hyphens between words. */
const wordpressSlug = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/[\s-]+/g, "-");

async function firstStorePage(db: Db, websiteId: string): Promise<string> {
  const pages = await db
    .select({ id: collections.id, kind: collections.kind })
    .from(collections)
    .where(eq(collections.websiteId, websiteId))
    .orderBy(asc(collections.ordering));
  const page = pages.find((c) => c.kind === "products");
  if (!page) throw badRequest("Add a store page to the site before importing products.");
  return page.id;
}

/** Shopify: one line per variant, lines of one product share its Handle. */
function shopifyDrafts(text: string, collectionId: string, report: { lines: ImportLine[] }): Draft[] {
  const byHandle = new Map<string, Draft>();
  for (const r of csvRecords(text)) {
    const handle = r.get("Handle");
    if (!handle) {
      report.lines.push({ line: r.line, status: "skipped", message: "No Handle." });
      continue;
    }
    let d = byHandle.get(handle);
    const image = r.get("Image Src");
    if (!d) {
      const title = r.get("Title");
      if (!title) {
        report.lines.push({
          line: r.line,
          status: "skipped",
          message: `Product ${handle}: no Title on its first line.`,
        });
        continue;
      }
      const options = [1, 2, 3].map((n) => r.get(`Option${n} Name`)).filter((o) => o && o !== "Title");
      d = {
        line: r.line,
        images: [],
        oldAddresses: [`/products/${handle}`, `/collections/*/products/${handle}`],
        categoryPaths: [],
        input: {
          collectionId,
          title,
          urlId: importedSlug(handle) || asciiSlug(title) || undefined,
          productType:
            r.get("Variant Requires Shipping").toLowerCase() === "false"
              ? ProductType.DIGITAL
              : ProductType.PHYSICAL,
          status:
            r.get("Status").toLowerCase() === "draft" || r.get("Published").toLowerCase() === "false"
              ? "draft"
              : "published",
          body: r.get("Body (HTML)"),
          tags: commaList(r.get("Tags")),
          categories: r.get("Type") ? [r.get("Type")] : [],
          variantOptionOrdering: options,
          variants: [],
        },
      };
      byHandle.set(handle, d);
    }
    for (const src of [image, r.get("Variant Image")]) if (src && !d.images.includes(src)) d.images.push(src);
    const priceText = r.get("Variant Price");
    if (!priceText) {
      if (!image)
        report.lines.push({
          line: r.line,
          status: "skipped",
          message: `Product ${handle}: a line with no price or image.`,
        });
      continue;
    }
    const price = cents(priceText);
    if (price === undefined) {
      report.lines.push({
        line: r.line,
        status: "skipped",
        message: `Product ${handle}: "${priceText}" is not a price.`,
      });
      continue;
    }
    const compareAt = cents(r.get("Variant Compare At Price"));
    const attributes: Record<string, string> = {};
    for (const [n, name] of d.input.variantOptionOrdering!.entries()) {
      const value = r.get(`Option${n + 1} Value`);
      if (value) attributes[name] = value;
    }
    const qty = Number.parseInt(r.get("Variant Inventory Qty") || "0", 10);
    const variant: VariantInput = {
      sku: r.get("Variant SKU") || undefined,
      attributes,
      // A compare-at price above the price means the item is on sale at the price.
      priceCents: compareAt && compareAt > price ? compareAt : price,
      salePriceCents: compareAt && compareAt > price ? price : 0,
      onSale: Boolean(compareAt && compareAt > price),
      qtyInStock: Number.isFinite(qty) && qty > 0 ? qty : 0,
      unlimited: r.get("Variant Inventory Tracker") === "" && r.get("Variant Inventory Qty") === "",
      weightGrams: Math.round(Number(r.get("Variant Grams") || 0)) || 0,
    };
    d.input.variants.push(variant);
  }
  return [...byHandle.values()];
}

/** WooCommerce: simple and variable products, variations pointing at their parent by SKU or id. */
function wooDrafts(text: string, collectionId: string, report: { lines: ImportLine[] }): Draft[] {
  const parents = new Map<string, Draft>();
  const drafts: Draft[] = [];
  for (const r of csvRecords(text)) {
    const type = r.get("Type").toLowerCase();
    const name = r.get("Name");
    const price = cents(r.get("Sale price") || r.get("Regular price"));
    const regular = cents(r.get("Regular price"));
    const stock = Number.parseInt(r.get("Stock") || "0", 10);
    const attributes: Record<string, string> = {};
    for (let n = 1; n <= 3; n++) {
      const an = r.get(`Attribute ${n} name`);
      const av = r.get(`Attribute ${n} value(s)`);
      if (an && av) attributes[an] = av.split(",")[0]!.trim();
    }
    const variant = (): VariantInput => ({
      sku: r.get("SKU") || undefined,
      attributes,
      priceCents: regular ?? price ?? 0,
      salePriceCents: r.get("Sale price") ? (cents(r.get("Sale price")) ?? 0) : 0,
      onSale: Boolean(r.get("Sale price")),
      qtyInStock: Number.isFinite(stock) && stock > 0 ? stock : 0,
      unlimited: r.get("In stock?") === "1" && r.get("Stock") === "",
      weightGrams: Math.round(Number(r.get("Weight (kg)") || 0) * 1000) || 0,
    });
    if (type.includes("variation")) {
      const parent = parents.get(r.get("Parent")) ?? parents.get(`id:${r.get("Parent").replace(/^id:/, "")}`);
      if (!parent) {
        report.lines.push({
          line: r.line,
          status: "skipped",
          message: `Variation ${name || r.get("SKU")}: its parent ${r.get("Parent")} is not in the file.`,
        });
        continue;
      }
      if (regular === undefined) {
        report.lines.push({
          line: r.line,
          status: "skipped",
          message: `Variation ${name || r.get("SKU")}: no regular price.`,
        });
        continue;
      }
      parent.input.variants.push(variant());
      continue;
    }
    if (!name) {
      report.lines.push({ line: r.line, status: "skipped", message: "No Name." });
      continue;
    }
    if (!type.includes("simple") && !type.includes("variable")) {
      report.lines.push({
        line: r.line,
        status: "skipped",
        message: `${name}: ${r.get("Type") || "this type"} products are not supported.`,
      });
      continue;
    }
    const slug = r.get("Slug") || wordpressSlug(name);
    const categoryPaths = r
      .get("Categories")
      .split(",")
      .map((c) => c.split(">").map((t) => t.trim()))
      .filter((c) => c.every(Boolean))
      .map((c) => ({ path: c.map(wordpressSlug).join("/"), name: c[c.length - 1]! }));
    const d: Draft = {
      line: r.line,
      images: commaList(r.get("Images")),
      oldAddresses: [`/product/${slug}`, ...(r.get("ID") ? [`/?p=${r.get("ID")}`] : [])],
      categoryPaths,
      input: {
        collectionId,
        title: name,
        urlId: importedSlug(slug) || asciiSlug(name) || undefined,
        productType:
          type.includes("virtual") || type.includes("downloadable")
            ? ProductType.DIGITAL
            : ProductType.PHYSICAL,
        status: r.get("Published") === "-1" || r.get("Published") === "0" ? "draft" : "published",
        body: r.get("Description"),
        excerpt: r.get("Short description"),
        tags: commaList(r.get("Tags")),
        categories: r
          .get("Categories")
          .split(",")
          .map((t) => t.split(">").pop()!.trim())
          .filter(Boolean),
        variantOptionOrdering: [],
        variants: [],
      },
    };
    if (type.includes("variable")) {
      const options: string[] = [];
      for (let n = 1; n <= 3; n++)
        if (r.get(`Attribute ${n} name`)) options.push(r.get(`Attribute ${n} name`));
      d.input.variantOptionOrdering = options;
    } else {
      if (regular === undefined && price === undefined) {
        report.lines.push({ line: r.line, status: "skipped", message: `${name}: no regular price.` });
        continue;
      }
      d.input.variants.push({ ...variant(), attributes: {} });
    }
    if (r.get("SKU")) parents.set(r.get("SKU"), d);
    if (r.get("ID")) parents.set(`id:${r.get("ID")}`, d);
    drafts.push(d);
  }
  return drafts;
}

/** Which shop made the CSV, from its header. */
function csvSource(text: string): "shopify" | "woocommerce" {
  const header = csvHeader(text).map((h) => h.toLowerCase());
  if (header.includes("handle") && header.includes("variant price")) return "shopify";
  if (header.includes("type") && header.includes("regular price")) return "woocommerce";
  throw badRequest(
    "This CSV is neither a Shopify products export (Handle, Variant Price…) nor a WooCommerce one (Type, Regular price…).",
    { file: "Unknown CSV" },
  );
}

export interface ParsedProductsCsv {
  source: "shopify" | "woocommerce";
  collectionId: string;
  drafts: Draft[];
  /** The lines refused while reading the file. */
  lines: ImportLine[];
}

/** Reads a products CSV for the site's first store page; a 400 when it is neither kind or there is no store. */
export async function parseProductsCsv(db: Db, websiteId: string, text: string): Promise<ParsedProductsCsv> {
  const source = csvSource(text);
  const collectionId = await firstStorePage(db, websiteId);
  const report = { lines: [] as ImportLine[] };
  const drafts =
    source === "shopify" ? shopifyDrafts(text, collectionId, report) : wooDrafts(text, collectionId, report);
  return { source, collectionId, drafts, lines: report.lines };
}

/** The images an import would copy: each product's, and those in its description. */
export const productsCsvFiles = (csv: ParsedProductsCsv): RemoteFile[] =>
  csv.drafts.flatMap((d) => [
    ...d.images.map((url) => ({ url, title: d.input.title })),
    ...imageSources(d.input.body ?? "").map((url) => ({ url, title: d.input.title })),
  ]);

export async function importProductsCsv(
  db: Db,
  websiteId: string,
  csv: ParsedProductsCsv,
  opts: PlatformImportOptions,
): Promise<PlatformReport> {
  return runPlatformImport(db, websiteId, csv.source, productsCsvFiles(csv), opts, (tx, copies) =>
    importDrafts(tx, websiteId, csv, copies),
  );
}

async function importDrafts(tx: Tx, websiteId: string, csv: ParsedProductsCsv, copies: Copies) {
  const lines = [...csv.lines];
  const addresses: ImportedAddress[] = [];
  const categories = new Map<string, string>();
  let storeUrl = "";
  for (const d of csv.drafts) {
    if (!d.input.variants.length) {
      lines.push({ line: d.line, status: "skipped", message: `${d.input.title}: no variant with a price.` });
      continue;
    }
    try {
      const copied = d.images.map((u) => copies.get(u)).filter((m) => m !== undefined);
      const links = d.images.filter((u) => !copies.get(u));
      const body = withImageLinks(
        imagesToLibrary(d.input.body ?? "", (src) => copies.get(src)),
        links,
      );
      const taken = await takenUrlIds(tx, websiteId, csv.collectionId, "");
      const p = await createProduct(tx as unknown as Db, websiteId, {
        ...d.input,
        urlId: d.input.urlId ? firstFreeUrlId(taken, d.input.urlId) : undefined,
        body,
        imageIds: [...new Set(copied.map((m) => m.id))],
        mainImageId: copied[0]?.id,
      });
      const images = [
        copied.length ? `${copied.length} image(s) copied` : "",
        links.length ? `${links.length} image(s) kept as links` : "",
      ].filter(Boolean);
      lines.push({
        line: d.line,
        status: "imported",
        message: `${p.title}: ${d.input.variants.length} variant(s)${images.length ? `; ${images.join(", ")}` : ""}.`,
      });
      if (d.input.status !== "draft") {
        for (const from of d.oldAddresses) addresses.push({ from, to: p.fullUrl });
        for (const c of d.categoryPaths) categories.set(c.path, c.name);
      }
      storeUrl = p.fullUrl.split("/p/")[0]!;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      lines.push({ line: d.line, status: "skipped", message: `${d.input.title}: ${err.message}` });
    }
  }
  for (const [path, name] of categories)
    addresses.push({
      from: `/product-category/${path}`,
      to: `${storeUrl}?category=${encodeURIComponent(name)}`,
    });
  return { lines, addresses };
}

const SHOPIFY_HEADER = [
  "Handle",
  "Title",
  "Body (HTML)",
  "Type",
  "Tags",
  "Published",
  "Option1 Name",
  "Option1 Value",
  "Option2 Name",
  "Option2 Value",
  "Option3 Name",
  "Option3 Value",
  "Variant SKU",
  "Variant Grams",
  "Variant Inventory Tracker",
  "Variant Inventory Qty",
  "Variant Price",
  "Variant Compare At Price",
  "Variant Requires Shipping",
  "Status",
];

const money = (c: number) => (c / 100).toFixed(2);

/** The site's products as a Shopify product CSV (one line per variant). */
export async function productsAsShopifyCsv(db: Db, websiteId: string): Promise<string> {
  const items = await db
    .select()
    .from(contentItems)
    .innerJoin(collections, eq(collections.id, contentItems.collectionId))
    .where(eq(contentItems.websiteId, websiteId))
    .orderBy(asc(contentItems.ordering));
  const rows: (string | number)[][] = [SHOPIFY_HEADER];
  for (const { content_items: item, collections: page } of items) {
    if (page.kind !== "products") continue;
    const variants = await db
      .select()
      .from(productVariants)
      .where(eq(productVariants.itemId, item.id))
      .orderBy(asc(productVariants.ordering));
    const sc = (item.structuredContent ?? {}) as { productType?: number; variantOptionOrdering?: string[] };
    const options = (sc.variantOptionOrdering ?? []).slice(0, 3);
    for (const [i, v] of variants.entries()) {
      const first = i === 0;
      const opt = (n: number) => [
        first ? (options[n] ?? (n === 0 ? "Title" : "")) : "",
        options[n] ? (v.attributes[options[n]!] ?? "") : n === 0 ? "Default Title" : "",
      ];
      rows.push([
        item.urlId,
        first ? item.title : "",
        first ? item.body : "",
        first ? (item.categories[0] ?? "") : "",
        first ? item.tags.join(", ") : "",
        first ? String(item.status === "published") : "",
        ...opt(0),
        ...opt(1),
        ...opt(2),
        v.sku,
        v.weightGrams,
        v.unlimited ? "" : "shopify",
        v.unlimited ? "" : v.qtyInStock,
        money(v.onSale ? v.salePriceCents : v.priceCents),
        v.onSale ? money(v.priceCents) : "",
        String(sc.productType === ProductType.PHYSICAL),
        first ? (item.status === "published" ? "active" : "draft") : "",
      ]);
    }
  }
  return toCsv(rows);
}
