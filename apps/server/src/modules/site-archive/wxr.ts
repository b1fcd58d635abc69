/**
 * WordPress (and Squarespace, which exports the same WXR file) into a site: posts go to a new
 * blog page with their categories, tags, author, dates and comments; pages become pages with
 * their text. Images inside the text stay links to where they are; attachments are reported as
 * kept as links. Each item of the file is reported, imported or skipped with the reason.
 */
import { XMLParser } from "fast-xml-parser";
import type { Db } from "../../db/client.js";
import { comments } from "../../db/schema.js";
import { ApiError, badRequest } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import { sanitizeRichText } from "../../lib/sanitize-html.js";
import { createItem } from "../content-admin/service.js";
import { createPage } from "../pages/service.js";
import type { ImportLine, PlatformReport } from "./product-csv.js";

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

/** Images hosted elsewhere become links to them (the site's text holds only its own media). */
export function imagesAsLinks(html: string): string {
  return html.replace(/<img\b[^>]*>/gi, (tag) => {
    const src = /\ssrc\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (!src || !/^https?:\/\//i.test(src)) return "";
    const alt = /\salt\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1] || "Image";
    return `<a href="${src}">${alt}</a>`;
  });
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
  const authors = new Map(
    list(channel["wp:author"]).map((a) => [text(a["wp:author_login"]), text(a["wp:author_display_name"])]),
  );
  const lines: ImportLine[] = [];
  let blogId: string | undefined;
  for (const [i, item] of items.entries()) {
    const line = i + 1;
    const title = text(item.title).trim() || "Untitled";
    const type = text(item["wp:post_type"]) || "post";
    const status = text(item["wp:status"]) || "publish";
    const skip = (message: string) =>
      lines.push({ line, status: "skipped", message: `${title}: ${message}` });
    if (type === "attachment") {
      skip(`attachment kept as a link (${text(item["wp:attachment_url"]) || text(item.guid)}).`);
      continue;
    }
    if (type !== "post" && type !== "page") {
      skip(`${type} items are not imported.`);
      continue;
    }
    if (status === "trash" || status === "auto-draft" || status === "inherit") {
      skip(`${status} items are not imported.`);
      continue;
    }
    const body = sanitizeRichText(imagesAsLinks(text(item["content:encoded"])));
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
  return {
    source: "wxr",
    imported: lines.filter((l) => l.status === "imported").length,
    skipped: lines.filter((l) => l.status === "skipped").length,
    lines,
  };
}
