/**
 * WordPress (and Squarespace, which exports the same WXR file) into a site: posts go to a new
 * blog page with their categories, tags, author, dates and comments; pages become pages with
 * their text, in the old page tree (wxr-structure.ts: a parent with children becomes a folder)
 * and the old main menu (pages not in it are hidden from the navigation). Attachments become
 * media of the site, from the bundle (wxr-bundle.ts) or copied from their addresses when asked
 * (a post's featured image its main image, the text's images pointing at the copies); images
 * not copied stay links to where they are. Slugs in any script become readable ASCII; every old
 * address answers 301 to the new one (a URL mappings group named after the import). Each item of
 * the file is reported, imported or skipped with the reason. All or nothing for the content.
 */
import { XMLParser } from "fast-xml-parser";
import type { Db, Tx } from "../../db/client.js";
import { comments } from "../../db/schema.js";
import { ApiError, badRequest } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import { safeDecode } from "../../lib/safe-decode.js";
import { sanitizeRichText } from "../../lib/sanitize-html.js";
import { asciiSlug, importedSlug } from "../../lib/slug.js";
import { createItem } from "../content-admin/service.js";
import { firstFreeUrlId, takenUrlIds } from "../content-admin/item-store.js";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES, type Media, uploadImage } from "../media/service.js";
import { mediaUrl } from "../media/storage.js";
import { createPageIn, uniqueSlug } from "../pages/service.js";
import type { ImportedAddress } from "../redirects/service.js";
import {
  type Copies,
  type ImportLine,
  type PlatformImportOptions,
  type PlatformReport,
  oldPath,
  runPlatformImport,
} from "./platform-import.js";
import type { RemoteFile } from "./remote-files.js";
import { imageSources, imagesToLibrary } from "./rich-text-images.js";
import type { BundledFile } from "./wxr-bundle.js";
import { type WxrMenuItem, type WxrPage, mainMenu, navigationPlan } from "./wxr-structure.js";

type Node = Record<string, unknown>;

const list = (v: unknown): Node[] => (v === undefined ? [] : Array.isArray(v) ? (v as Node[]) : [v as Node]);
const text = (v: unknown): string => {
  if (v === undefined || v === null) return "";
  if (typeof v === "object") return text((v as Node)["#text"]);
  return String(v);
};
const meta = (item: Node, key: string) =>
  text(list(item["wp:postmeta"]).find((m) => text(m["wp:meta_key"]) === key)?.["wp:meta_value"]);

/** WXR dates: `2024-03-01 09:30:00` in GMT (wp:post_date_gmt), else the RFC 822 pubDate. */
function dateOf(item: Node): number | undefined {
  const gmt = text(item["wp:post_date_gmt"]);
  if (gmt && !gmt.startsWith("0000")) {
    const ms = Date.parse(`${gmt.replace(" ", "T")}Z`);
    if (!Number.isNaN(ms)) return ms;
  }
  const pub = Date.parse(text(item.pubDate));
  return Number.isNaN(pub) ? undefined : pub;
}

/** How an image URL is matched to its attachment: without scheme, query or WordPress's `-300x200` size suffix. */
const urlKey = (url: string) =>
  url
    .trim()
    .replace(/^https?:/i, "")
    .replace(/[?#].*$/, "")
    .replace(/-\d+x\d+(\.[a-z0-9]+)$/i, "$1");

/**
 * A WordPress text as rich text: caption shortcodes unwrapped, paragraphs made from blank lines
 * (WordPress adds them when it shows the text), and each image pointing at its copy in the media
 * library, or, when it was not copied, a link to where it is (as rich text had before images).
 */
function richTextOf(raw: string, own: (src: string) => Media | undefined): string {
  let html = raw.replace(/\[caption[^\]]*\]/gi, "").replace(/\[\/caption\]/gi, "");
  if (!/<p[\s>]/i.test(html) && /\n\s*\n/.test(html))
    html = html
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => (/^<(h[1-6]|ul|ol|blockquote|pre|figure|div|table)\b/i.test(p) ? p : `<p>${p}</p>`))
      .join("");
  return sanitizeRichText(imagesToLibrary(html, own));
}

export interface WxrOptions extends PlatformImportOptions {
  /** The files bundled with the export, when it came as a zip. */
  bundle?: { find(url: string): BundledFile | undefined };
}

export interface ParsedWxr {
  channel: Node;
  items: Node[];
}

/** Reads a WXR file; a 400 when it is not one. */
export function parseWxr(xml: string): ParsedWxr {
  let doc: Node;
  try {
    doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      cdataPropName: false,
      processEntities: true,
    }).parse(xml) as Node;
  } catch {
    throw badRequest("The file is not a WordPress export: it is not valid XML.", { file: "Invalid XML" });
  }
  const channel = (doc.rss as Node | undefined)?.channel as Node | undefined;
  if (!channel)
    throw badRequest("The file is not a WordPress export (WXR): it has no rss channel.", { file: "Not WXR" });
  return { channel, items: list(channel.item) };
}

const typeOf = (item: Node) => text(item["wp:post_type"]) || "post";
const attachmentUrl = (item: Node) => text(item["wp:attachment_url"]) || text(item.guid);

/**
 * The files an import would copy from the old site: attachments the bundle lacks, and images in
 * texts that are no attachment's (another size of an attachment is served by its copy).
 */
export function wxrRemoteFiles(wxr: ParsedWxr, bundle?: WxrOptions["bundle"]): RemoteFile[] {
  const files: RemoteFile[] = [];
  const attachmentKeys = new Set<string>();
  for (const item of wxr.items) {
    if (typeOf(item) !== "attachment") continue;
    const url = attachmentUrl(item);
    if (!url) continue;
    attachmentKeys.add(urlKey(url));
    if (!bundle?.find(url)) files.push({ url, title: text(item.title).trim() || undefined });
  }
  for (const item of wxr.items) {
    for (const src of imageSources(text(item["content:encoded"])))
      if (!attachmentKeys.has(urlKey(src)) && !bundle?.find(src)) files.push({ url: src });
  }
  return files;
}

export async function importWxr(
  db: Db,
  clock: Clock,
  websiteId: string,
  wxr: ParsedWxr,
  opts: WxrOptions,
): Promise<PlatformReport> {
  const written: string[] = [];
  try {
    return await runPlatformImport(
      db,
      websiteId,
      "wxr",
      wxrRemoteFiles(wxr, opts.bundle),
      opts,
      (tx, copies) => importItems(tx, clock, websiteId, wxr, opts, copies, written),
    );
  } catch (err) {
    for (const id of written)
      for (const key of await opts.store.list(`media/${websiteId}/${id}/`)) await opts.store.delete(key);
    throw err;
  }
}

interface Attachments {
  byKey: Map<string, Media>;
  byPostId: Map<string, Media>;
}

/** Attachments become media (from the bundle, else their copy); each gets its report line and old addresses. */
async function importAttachments(
  tx: Tx,
  websiteId: string,
  items: Node[],
  opts: WxrOptions,
  copies: Copies,
  out: { lines: ImportLine[]; addresses: ImportedAddress[]; written: string[] },
): Promise<Attachments> {
  const found: Attachments = { byKey: new Map(), byPostId: new Map() };
  for (const [i, item] of items.entries()) {
    if (typeOf(item) !== "attachment") continue;
    const line = i + 1;
    const title = text(item.title).trim() || "Untitled";
    const url = attachmentUrl(item);
    const file = opts.bundle && url ? opts.bundle.find(url) : undefined;
    const skip = (why: string) =>
      out.lines.push({
        line,
        status: "skipped",
        message: `${title}: ${why}attachment kept as a link (${url}).`,
      });
    let m = url ? copies.get(url) : undefined;
    let from = m && `copied from ${url}`;
    if (!m && file) {
      try {
        if (file.size > MAX_UPLOAD_BYTES) throw badRequest(FILE_TOO_LARGE);
        const bytes = await file.read();
        m = await uploadImage(tx, opts.store, websiteId, {
          filename: file.name.split("/").pop() ?? "image",
          bytes,
          title: title.slice(0, 300),
        });
        out.written.push(m.id);
        from = `imported from ${file.name}`;
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === "invalid_archive") throw err;
        skip(`${file.name} skipped: ${err.message.replace(/\.$/, "")}; `);
        continue;
      }
    }
    if (!m) {
      skip(opts.bundle ? "no file in the bundle, " : "");
      continue;
    }
    found.byKey.set(urlKey(url), m);
    const postId = text(item["wp:post_id"]);
    if (postId) found.byPostId.set(postId, m);
    out.lines.push({ line, status: "imported", message: `${title}: image ${from}.` });
    const to = mediaUrl(m.id, m.filename);
    for (const old of [oldPath(url), oldPath(text(item.link)), postId && `/?attachment_id=${postId}`])
      if (old) out.addresses.push({ from: old, to });
  }
  return found;
}

function terms(item: Node, domain: string): { slug: string; name: string }[] {
  return list(item.category)
    .filter((c) => text(c["@_domain"]) === domain)
    .map((c) => ({ slug: text(c["@_nicename"]), name: text(c).trim() }))
    .filter((t) => t.name);
}

function menuItemsOf(items: Node[]): WxrMenuItem[] {
  return items.flatMap((item, index) => {
    if (typeOf(item) !== "nav_menu_item") return [];
    const menu = list(item.category).find((c) => text(c["@_domain"]) === "nav_menu");
    return [
      {
        menu: text(menu?.["@_nicename"]),
        menuName: text(menu),
        order: Number(text(item["wp:menu_order"])) || 0,
        type: meta(item, "_menu_item_type"),
        object: meta(item, "_menu_item_object"),
        objectId: meta(item, "_menu_item_object_id"),
        index,
        title: text(item.title).trim(),
        url: meta(item, "_menu_item_url"),
      },
    ];
  });
}

const SKIPPED_STATUSES = new Set(["trash", "auto-draft", "inherit"]);

async function importItems(
  tx: Tx,
  clock: Clock,
  websiteId: string,
  { channel, items }: ParsedWxr,
  opts: WxrOptions,
  copies: Copies,
  written: string[],
): Promise<{ lines: ImportLine[]; addresses: ImportedAddress[] }> {
  const authors = new Map(
    list(channel["wp:author"]).map((a) => [text(a["wp:author_login"]), text(a["wp:author_display_name"])]),
  );
  const out = { lines: [] as ImportLine[], addresses: [] as ImportedAddress[], written };
  const { lines, addresses } = out;
  const attachments = await importAttachments(tx, websiteId, items, opts, copies, out);
  const own = (src: string) => attachments.byKey.get(urlKey(src)) ?? copies.get(src);

  // What is imported, what is not (and why).
  const pages: { item: Node; page: WxrPage }[] = [];
  const posts: { item: Node; line: number }[] = [];
  for (const [i, item] of items.entries()) {
    const line = i + 1;
    const title = text(item.title).trim() || "Untitled";
    const type = typeOf(item);
    const status = text(item["wp:status"]) || "publish";
    if (type === "attachment" || type === "nav_menu_item") continue;
    if (type !== "post" && type !== "page") {
      lines.push({ line, status: "skipped", message: `${title}: ${type} items are not imported.` });
    } else if (SKIPPED_STATUSES.has(status)) {
      lines.push({ line, status: "skipped", message: `${title}: ${status} items are not imported.` });
    } else if (type === "page") {
      const postId = text(item["wp:post_id"]) || `line-${line}`;
      pages.push({
        item,
        page: {
          postId,
          parentId: text(item["wp:post_parent"]),
          menuOrder: Number(text(item["wp:menu_order"])) || 0,
          index: i,
          title,
        },
      });
    } else posts.push({ item, line });
  }

  // The main menu: its pages decide the navigation; its other links are reported.
  const menuItems = menuItemsOf(items);
  const menu = mainMenu(menuItems);
  const pageIds = new Set(pages.map((p) => p.page.postId));
  for (const m of menuItems) {
    const inMain = menu.includes(m);
    if (inMain && m.type === "post_type" && m.object === "page" && pageIds.has(m.objectId)) continue;
    const what = m.type === "custom" ? `a link to ${m.url}` : `a ${m.object || "link"}`;
    lines.push({
      line: m.index + 1,
      status: "skipped",
      message: inMain
        ? `Menu item ${m.title || m.objectId}: ${what}, not a page; Atelier's navigation lists pages.`
        : `Menu item ${m.title || m.objectId}: in the menu "${m.menuName || m.menu}", not the main one.`,
    });
  }

  const byPostId = new Map(pages.map((p) => [p.page.postId, p]));
  const folders = new Map<string, { id: string; title: string }>();
  for (const entry of navigationPlan(
    pages.map((p) => p.page),
    menu,
  )) {
    if (entry.kind === "folder") {
      const root = byPostId.get(entry.root)!;
      const base = importedSlug(text(root.item["wp:post_name"])) || asciiSlug(entry.title) || "pages";
      const folder = await createPageIn(tx, websiteId, {
        kind: "folder",
        title: entry.title,
        urlSlug: await uniqueSlug(tx, websiteId, `${base}-section`),
        folderBehavior: "redirect",
        hiddenFromNav: entry.hidden,
      });
      folders.set(entry.root, { id: folder.id, title: entry.title });
      continue;
    }
    const { item, page } = byPostId.get(entry.postId)!;
    const line = page.index + 1;
    const base = importedSlug(text(item["wp:post_name"])) || asciiSlug(page.title) || `page-${page.postId}`;
    const folder = entry.folderRoot ? folders.get(entry.folderRoot) : undefined;
    try {
      const created = await tx.transaction(async (t) =>
        createPageIn(t, websiteId, {
          kind: "page",
          title: page.title,
          urlSlug: await uniqueSlug(t, websiteId, base),
          folderId: folder?.id,
          hiddenFromNav: entry.hidden,
          layout: {
            rows: [
              {
                columns: [
                  {
                    span: 12,
                    blocks: [
                      {
                        id: `b-${newId().slice(0, 16)}`,
                        type: "text",
                        html: richTextOf(text(item["content:encoded"]), own),
                      },
                    ],
                  },
                ],
              },
            ],
          } as never,
        }),
      );
      const where = [
        folder ? `in the folder ${folder.title}` : "",
        entry.hidden ? "hidden from the navigation (not in the old menu)" : "",
      ].filter(Boolean);
      lines.push({
        line,
        status: "imported",
        message: `Page ${page.title}${created.urlSlug === safeDecode(text(item["wp:post_name"])) ? "" : ` at /${created.urlSlug}`}${where.length ? `, ${where.join(", ")}` : ""}.`,
      });
      if ((text(item["wp:status"]) || "publish") === "publish")
        for (const old of [oldPath(text(item.link)), `/?page_id=${page.postId}`])
          if (old) addresses.push({ from: old, to: `/${created.urlSlug}` });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      lines.push({ line, status: "skipped", message: `${page.title}: ${err.message}` });
    }
  }

  if (posts.length) {
    const blog = await createPageIn(tx, websiteId, {
      kind: "blog",
      title: text(channel.title).trim() || "Imported blog",
    });
    const categories = new Map<string, { slug: string; name: string; domain: string }>();
    for (const { item, line } of posts) {
      const title = text(item.title).trim() || "Untitled";
      const status = text(item["wp:status"]) || "publish";
      const postId = text(item["wp:post_id"]);
      try {
        const base = importedSlug(text(item["wp:post_name"])) || asciiSlug(title) || `post-${postId || line}`;
        const creator = text(item["dc:creator"]);
        const cats = terms(item, "category");
        const tags = terms(item, "post_tag");
        const post = await createItem(tx as unknown as Db, clock, websiteId, blog.id, {
          title,
          urlId: firstFreeUrlId(await takenUrlIds(tx, websiteId, blog.id, ""), base),
          body: richTextOf(text(item["content:encoded"]), own),
          excerpt: sanitizeRichText(text(item["excerpt:encoded"])),
          authorName: authors.get(creator) || creator || null,
          status: status === "publish" ? "published" : "draft",
          publishOn: dateOf(item) ?? null,
          mainImageId: attachments.byPostId.get(meta(item, "_thumbnail_id"))?.id ?? null,
          categories: cats.map((c) => c.name),
          tags: tags.map((t) => t.name),
          commentsOn: text(item["wp:comment_status"]) !== "closed",
        });
        const kept = list(item["wp:comment"]).filter((c) =>
          ["1", "0"].includes(text(c["wp:comment_approved"])),
        );
        for (const c of kept) {
          const when = Date.parse(`${text(c["wp:comment_date_gmt"]).replace(" ", "T")}Z`);
          await tx.insert(comments).values({
            id: newId(),
            websiteId,
            itemId: post.id as string,
            authorName: text(c["wp:comment_author"]).trim() || "Anonymous",
            body: sanitizeRichText(text(c["wp:comment_content"])),
            approved: text(c["wp:comment_approved"]) === "1",
            createdAt: Number.isNaN(when) ? clock.now() : new Date(when),
          });
        }
        const spam = list(item["wp:comment"]).length - kept.length;
        lines.push({
          line,
          status: "imported",
          message: `Post ${title}: ${kept.length} comment(s)${spam ? `, ${spam} spam or trashed left out` : ""}.`,
        });
        if (status === "publish") {
          const to = post.fullUrl;
          for (const old of [oldPath(text(item.link)), postId && `/?p=${postId}`])
            if (old) addresses.push({ from: old, to });
          for (const c of cats) categories.set(`category/${c.slug}`, { ...c, domain: "category" });
          for (const t of tags) categories.set(`tag/${t.slug}`, { ...t, domain: "tag" });
        }
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        lines.push({ line, status: "skipped", message: `${title}: ${err.message}` });
      }
    }
    for (const [path, c] of categories) {
      const from = c.slug && oldPath(`/${path}`);
      if (from)
        addresses.push({
          from,
          to: `/${blog.urlSlug}?${c.domain}=${encodeURIComponent(c.name)}`,
        });
    }
  }
  return { lines, addresses };
}
