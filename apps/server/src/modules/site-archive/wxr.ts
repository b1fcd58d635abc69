/**
 * WordPress (and Squarespace, which exports the same WXR file) into a site: posts go to a new
 * blog page with their categories, tags, author, dates and comments; pages become pages with
 * their text. Attachments whose file came in the bundle (wxr-bundle.ts) become media of the site
 * (a post's featured image its main image, the text's images pointing at them); other images stay
 * links to where they are. Each item of the file is reported, imported or skipped with the reason.
 * All or nothing: one transaction, and the media files written are removed if it fails.
 */
import { XMLParser } from "fast-xml-parser";
import type { Db, Tx } from "../../db/client.js";
import { comments } from "../../db/schema.js";
import { ApiError, badRequest } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import { sanitizeRichText } from "../../lib/sanitize-html.js";
import type { MediaStore } from "../../media/store.js";
import { createItem } from "../content-admin/service.js";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES, type Media, uploadImage } from "../media/service.js";
import { mediaUrl } from "../media/storage.js";
import { createPage } from "../pages/service.js";
import type { ImportLine, PlatformReport } from "./product-csv.js";
import type { BundledFile } from "./wxr-bundle.js";

type Node = Record<string, unknown>;

const list = (v: unknown): Node[] => (v === undefined ? [] : Array.isArray(v) ? (v as Node[]) : [v as Node]);
const text = (v: unknown): string => {
  if (v === undefined || v === null) return "";
  if (typeof v === "object") return text((v as Node)["#text"]);
  return String(v);
};

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

/**
 * Images in the text become links (rich text holds no images): to the site's copy when `own`
 * knows the image, else to where it is hosted.
 */
function imagesAsLinks(html: string, own?: (src: string) => string | undefined): string {
  return html.replace(/<img\b[^>]*>/gi, (tag) => {
    const src = /\ssrc\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (!src || !/^https?:\/\//i.test(src)) return "";
    const alt = /\salt\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1] || "Image";
    return `<a href="${own?.(src) ?? src}">${alt}</a>`;
  });
}

/** How an image URL is matched: without scheme, query or WordPress's `-300x200` size suffix. */
const urlKey = (url: string) =>
  url
    .trim()
    .replace(/^https?:/i, "")
    .replace(/[?#].*$/, "")
    .replace(/-\d+x\d+(\.[a-z0-9]+)$/i, "$1");

interface Imported {
  byUrl: Map<string, Media>;
  byPostId: Map<string, Media>;
}

/** Attachments whose file is in the bundle become media; each attachment gets its report line. */
async function importAttachments(
  tx: Tx,
  websiteId: string,
  items: Node[],
  opts: WxrOptions,
  lines: ImportLine[],
  written: string[],
): Promise<Imported> {
  const out: Imported = { byUrl: new Map(), byPostId: new Map() };
  for (const [i, item] of items.entries()) {
    if (text(item["wp:post_type"]) !== "attachment") continue;
    const line = i + 1;
    const title = text(item.title).trim() || "Untitled";
    const url = text(item["wp:attachment_url"]) || text(item.guid);
    const file: BundledFile | undefined = opts.bundle && url ? opts.bundle.find(url) : undefined;
    const skip = (why: string) =>
      lines.push({ line, status: "skipped", message: `${title}: ${why}attachment kept as a link (${url}).` });
    if (!file) {
      skip(opts.bundle ? "no file in the bundle, " : "");
      continue;
    }
    let m: Media;
    try {
      if (file.size > MAX_UPLOAD_BYTES) throw badRequest(FILE_TOO_LARGE);
      const bytes = await file.read();
      m = await uploadImage(tx, opts.store, websiteId, {
        filename: file.name.split("/").pop() ?? "image",
        bytes,
        title: title.slice(0, 300),
      });
    } catch (err) {
      if (!(err instanceof ApiError) || err.code === "invalid_archive") throw err;
      skip(`${file.name} skipped: ${err.message.replace(/\.$/, "")}; `);
      continue;
    }
    written.push(m.id);
    out.byUrl.set(urlKey(url), m);
    const postId = text(item["wp:post_id"]);
    if (postId) out.byPostId.set(postId, m);
    lines.push({ line, status: "imported", message: `${title}: image imported from ${file.name}.` });
  }
  return out;
}

const thumbnailOf = (item: Node) =>
  text(list(item["wp:postmeta"]).find((m) => text(m["wp:meta_key"]) === "_thumbnail_id")?.["wp:meta_value"]);

interface WxrOptions {
  store: MediaStore;
  /** The files bundled with the export, when it came as a zip. */
  bundle?: { find(url: string): BundledFile | undefined };
}

function terms(item: Node, domain: string): string[] {
  return list(item.category)
    .filter((c) => text(c["@_domain"]) === domain)
    .map((c) => text(c).trim())
    .filter(Boolean);
}

export async function importWxr(
  db: Db,
  clock: Clock,
  websiteId: string,
  xml: string,
  opts: WxrOptions,
): Promise<PlatformReport> {
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
  const items = list(channel.item);
  const written: string[] = [];
  try {
    const lines = await db.transaction((tx) =>
      importItems(tx, clock, websiteId, channel, items, opts, written),
    );
    return {
      source: "wxr",
      imported: lines.filter((l) => l.status === "imported").length,
      skipped: lines.filter((l) => l.status === "skipped").length,
      lines,
    };
  } catch (err) {
    for (const id of written)
      for (const key of await opts.store.list(`media/${websiteId}/${id}/`)) await opts.store.delete(key);
    throw err;
  }
}

async function importItems(
  db: Tx,
  clock: Clock,
  websiteId: string,
  channel: Node,
  items: Node[],
  opts: WxrOptions,
  written: string[],
): Promise<ImportLine[]> {
  const authors = new Map(
    list(channel["wp:author"]).map((a) => [text(a["wp:author_login"]), text(a["wp:author_display_name"])]),
  );
  const lines: ImportLine[] = [];
  const imported = await importAttachments(db, websiteId, items, opts, lines, written);
  const own = (src: string) => {
    const m = imported.byUrl.get(urlKey(src));
    return m && mediaUrl(m.id, m.filename);
  };
  let blogId: string | undefined;
  for (const [i, item] of items.entries()) {
    const line = i + 1;
    const title = text(item.title).trim() || "Untitled";
    const type = text(item["wp:post_type"]) || "post";
    const status = text(item["wp:status"]) || "publish";
    const skip = (message: string) =>
      lines.push({ line, status: "skipped", message: `${title}: ${message}` });
    if (type === "attachment") continue;
    if (type !== "post" && type !== "page") {
      skip(`${type} items are not imported.`);
      continue;
    }
    if (status === "trash" || status === "auto-draft" || status === "inherit") {
      skip(`${status} items are not imported.`);
      continue;
    }
    const body = sanitizeRichText(imagesAsLinks(text(item["content:encoded"]), own));
    try {
      if (type === "page") {
        await createPage(db, websiteId, {
          kind: "page",
          title,
          urlSlug: text(item["wp:post_name"]) || undefined,
          layout: {
            rows: [
              {
                columns: [
                  { span: 12, blocks: [{ id: `b-${newId().slice(0, 16)}`, type: "text", html: body }] },
                ],
              },
            ],
          } as never,
        });
        lines.push({ line, status: "imported", message: `Page ${title}.` });
        continue;
      }
      blogId ??= (
        await createPage(db, websiteId, {
          kind: "blog",
          title: text(channel.title).trim() || "Imported blog",
        })
      ).id;
      const creator = text(item["dc:creator"]);
      const post = await createItem(db, clock, websiteId, blogId, {
        title,
        urlId: text(item["wp:post_name"]) || undefined,
        body,
        excerpt: sanitizeRichText(text(item["excerpt:encoded"])),
        authorName: authors.get(creator) || creator || null,
        status: status === "publish" ? "published" : "draft",
        publishOn: dateOf(item) ?? null,
        mainImageId: imported.byPostId.get(thumbnailOf(item))?.id ?? null,
        categories: terms(item, "category"),
        tags: terms(item, "post_tag"),
        commentsOn: text(item["wp:comment_status"]) !== "closed",
      });
      const kept = list(item["wp:comment"]).filter((c) =>
        ["1", "0"].includes(text(c["wp:comment_approved"])),
      );
      for (const c of kept) {
        const when = Date.parse(`${text(c["wp:comment_date_gmt"]).replace(" ", "T")}Z`);
        await db.insert(comments).values({
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
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      skip(err.message);
    }
  }
  return lines.sort((a, b) => a.line - b.line);
}
