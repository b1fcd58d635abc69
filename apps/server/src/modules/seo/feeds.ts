/**
 * Reader feeds of collection pages: RSS 2.0 of a blog (`/blog?format=rss`: the latest 20
 * published posts with their main image as an enclosure) and iCalendar of events
 * (`/events?format=ical`: upcoming and past events with their place).
 */
import { desc, eq, lte, or, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contentItems } from "../../db/schema.js";
import { escapeXml } from "../../lib/escape.js";
import { htmlToText } from "../../render/sanitize.js";
import { itemUrl } from "../../render/serialize.js";
import type { Collection } from "../content/service.js";
import { isPublished, mediaByIds } from "../content/service.js";
import { mediaUrl } from "../media/storage.js";

const RSS_ITEMS = 20;

interface FeedSite {
  id: string;
  title: string;
  origin: string;
  language: string;
}

export async function blogRss(db: Db, site: FeedSite, blog: Collection, now: Date): Promise<string> {
  const posts = await db
    .select()
    .from(contentItems)
    .where(
      isPublished(
        site.id,
        eq(contentItems.collectionId, blog.id),
        or(isNull(contentItems.publishOn), lte(contentItems.publishOn, now))!,
      ),
    )
    .orderBy(desc(contentItems.publishOn))
    .limit(RSS_ITEMS);
  const media = await mediaByIds(
    db,
    site.id,
    posts.map((p) => p.mainImageId ?? ""),
  );
  const link = `${site.origin}/${blog.urlSlug}`;
  const items = posts.map((p) => {
    const url = `${site.origin}${itemUrl(blog, p)}`;
    const image = p.mainImageId ? media.get(p.mainImageId) : undefined;
    const description = htmlToText(p.excerpt) || htmlToText(p.body).slice(0, 500);
    return [
      "<item>",
      `<title>${escapeXml(p.title)}</title>`,
      `<link>${escapeXml(url)}</link>`,
      `<guid isPermaLink="false">${escapeXml(`${site.id}:${p.id}`)}</guid>`,
      `<pubDate>${(p.publishOn ?? p.createdAt).toUTCString()}</pubDate>`,
      p.authorName ? `<dc:creator>${escapeXml(p.authorName)}</dc:creator>` : "",
      `<description>${escapeXml(description)}</description>`,
      ...p.categories.map((c) => `<category>${escapeXml(c)}</category>`),
      image
        ? `<enclosure url="${escapeXml(`${site.origin}${mediaUrl(image.id, image.filename)}`)}" length="${image.byteSize}" type="${escapeXml(image.contentType)}"/>` +
          `<media:content url="${escapeXml(`${site.origin}${mediaUrl(image.id, image.filename)}`)}" medium="image"/>`
        : "",
      "</item>",
    ]
      .filter(Boolean)
      .join("");
  });
  const built = posts[0]?.publishOn ?? now;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">',
    "<channel>",
    `<title>${escapeXml(`${blog.title} — ${site.title}`)}</title>`,
    `<link>${escapeXml(link)}</link>`,
    `<atom:link href="${escapeXml(`${link}?format=rss`)}" rel="self" type="application/rss+xml"/>`,
    `<description>${escapeXml(htmlToText(blog.description) || `The latest posts of ${site.title}.`)}</description>`,
    `<language>${escapeXml(site.language)}</language>`,
    `<lastBuildDate>${built.toUTCString()}</lastBuildDate>`,
    ...items,
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}

/** iCalendar text: escaped per RFC 5545 §3.3.11 and folded at 75 octets. */
const icalText = (s: string) =>
  s.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
const icalDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

function fold(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > 75) {
    let n = 75;
    while (Buffer.byteLength(rest.slice(0, n)) > 75) n--;
    out.push(rest.slice(0, n));
    rest = ` ${rest.slice(n)}`;
  }
  out.push(rest);
  return out.join("\r\n");
}

export async function eventsIcal(db: Db, site: FeedSite, events: Collection, now: Date): Promise<string> {
  const rows = await db
    .select()
    .from(contentItems)
    .where(isPublished(site.id, eq(contentItems.collectionId, events.id)))
    .orderBy(desc(contentItems.startDate));
  const host = new URL(site.origin).host;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//Atelier//${icalText(site.title)}//EN`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${icalText(`${events.title} — ${site.title}`)}`,
  ];
  for (const e of rows) {
    if (!e.startDate) continue;
    const end =
      e.endDate && e.endDate > e.startDate ? e.endDate : new Date(e.startDate.getTime() + 3_600_000);
    const place = [
      e.location?.addressTitle,
      e.location?.addressLine1,
      e.location?.addressLine2,
      e.location?.addressCountry,
    ]
      .filter(Boolean)
      .join(", ");
    lines.push(
      "BEGIN:VEVENT",
      `UID:${e.id}@${host}`,
      `DTSTAMP:${icalDate(now)}`,
      `DTSTART:${icalDate(e.startDate)}`,
      `DTEND:${icalDate(end)}`,
      `SUMMARY:${icalText(e.title)}`,
      `URL:${site.origin}${itemUrl(events, e)}`,
      ...(place ? [`LOCATION:${icalText(place)}`] : []),
      ...(htmlToText(e.excerpt || e.body)
        ? [`DESCRIPTION:${icalText(htmlToText(e.excerpt || e.body).slice(0, 1000))}`]
        : []),
      `LAST-MODIFIED:${icalDate(e.updatedAt)}`,
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return `${lines.map(fold).join("\r\n")}\r\n`;
}
