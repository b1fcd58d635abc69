/** Collection list pages (main content, 1): products, blog, events (with the calendar), gallery and album. */
import { PageType, RecordType } from "../../db/enums.js";
import { DAY_MS } from "../../lib/clock.js";
import { type Collection, type ContentItem, mediaByIds } from "../../modules/content/service.js";
import { MAX_CATEGORY_LENGTH, MAX_TAG_LENGTH } from "@atelier/owner-api";
import {
  MAX_ITEMS_PER_ORDERABLE_COLLECTION,
  MAX_PRODUCTS_PER_COLLECTION,
  MAX_TRACKS_PER_ALBUM,
} from "../../modules/pages/limits.js";
import { galleryOptions } from "../gallery.js";
import { htmlToText } from "../sanitize.js";
import { collectionJson, imageJson } from "../serialize.js";
import type { Ctx, Json, PageRequest, PageResult } from "./shared.js";
import { localDay } from "../../lib/local-day.js";

/** Default page size of blog lists. */
const DEFAULT_BLOG_PAGE_SIZE = 10;

function pagination(
  path: string,
  filter: Record<string, string>,
  pageNumber: number,
  pageSize: number,
  total: number,
): Json {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const qs = (n: number) => {
    const params = new URLSearchParams(filter);
    if (n > 1) params.set("page", String(n));
    const s = params.toString();
    return s ? `${path}?${s}` : path;
  };
  return {
    pageSize,
    currentPage: pageNumber,
    pageCount,
    totalItems: total,
    nextPage: pageNumber < pageCount,
    nextPageUrl: pageNumber < pageCount ? qs(pageNumber + 1) : undefined,
    prevPage: pageNumber > 1,
    prevPageUrl: pageNumber > 1 ? qs(pageNumber - 1) : undefined,
    pages:
      pageCount > 1
        ? Array.from({ length: pageCount }, (_, i) => ({
            number: i + 1,
            url: qs(i + 1),
            current: i + 1 === pageNumber,
          }))
        : [],
  };
}

function pageNumberOf(req: PageRequest): number {
  const n = Number.parseInt(req.query.page ?? "1", 10);
  return Number.isInteger(n) && n > 0 && n < 100000 ? n : 1;
}

/** Category and tag filters, cut to their SPEC lengths (25 and 50 characters). */
function filtersOf(req: PageRequest): Record<string, string> {
  const filter: Record<string, string> = {};
  const category = req.query.category?.trim().slice(0, MAX_CATEGORY_LENGTH);
  const tag = req.query.tag?.trim().slice(0, MAX_TAG_LENGTH);
  const author = req.query.author?.trim().slice(0, 100);
  if (category) filter.category = category;
  if (tag) filter.tag = tag;
  if (author) filter.author = author;
  return filter;
}

function applyFilters(rows: ContentItem[], filter: Record<string, string>): ContentItem[] {
  return rows.filter(
    (i) =>
      (!filter.category || i.categories.includes(filter.category)) &&
      (!filter.tag || i.tags.includes(filter.tag)) &&
      (!filter.author || i.authorName === filter.author),
  );
}

/** The categories or tags of `rows` by name with their counts, each linking to the list it filters. */
function facet(
  rows: ContentItem[],
  field: "categories" | "tags",
  filter: Record<string, string>,
  base: string,
) {
  const key = field === "categories" ? "category" : "tag";
  const counts = new Map<string, number>();
  for (const v of rows.flatMap((i) => i[field])) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([name, count]) => ({
      name,
      count,
      url: `${base}?${new URLSearchParams({ [key]: name })}`,
      active: name === filter[key],
    }));
}

export async function productsPage(ctx: Ctx, c: Collection): Promise<PageResult> {
  const all = (await ctx.rowsOf(c)).slice(0, MAX_PRODUCTS_PER_COLLECTION);
  const filter = filtersOf(ctx.req);
  const rows = applyFilters(all, filter);
  const pageSize = Number(c.options.pageSize ?? 0) || MAX_PRODUCTS_PER_COLLECTION;
  const pageNumber = pageNumberOf(ctx.req);
  const items = await ctx.jsonOf(c, rows.slice((pageNumber - 1) * pageSize, pageNumber * pageSize));
  const base = `/${c.urlSlug}`;
  return ctx.page(200, PageType.MAIN_CONTENT, "products.list", {
    collection: {
      ...collectionJson(c),
      itemCount: rows.length,
      categories: facet(all, "categories", filter, base),
    },
    items,
    filter,
    filtered: Object.keys(filter).length > 0,
    pagination: pagination(base, filter, pageNumber, pageSize, rows.length),
    pageTitle: filter.category ? `${c.title}: ${filter.category}` : c.seoTitle || c.title,
    metaDescription: c.seoDescription || c.description || ctx.site.tagline,
  });
}

export async function blogPage(ctx: Ctx, c: Collection): Promise<PageResult> {
  const published = (await ctx.rowsOf(c))
    .filter((i) => !i.publishOn || i.publishOn <= ctx.req.now)
    .slice(0, MAX_ITEMS_PER_ORDERABLE_COLLECTION);
  const filter = filtersOf(ctx.req);
  const rows = applyFilters(published, filter);
  const pageSize = Math.min(50, Number(c.options.pageSize ?? 0) || DEFAULT_BLOG_PAGE_SIZE);
  const pageNumber = pageNumberOf(ctx.req);
  const slice = rows.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
  if (pageNumber > 1 && !slice.length) return ctx.notFound();
  const items = await ctx.jsonOf(c, slice);
  const base = `/${c.urlSlug}`;
  const heading = filter.category
    ? `Category: ${filter.category}`
    : filter.tag
      ? `Tagged “${filter.tag}”`
      : filter.author
        ? `Posts by ${filter.author}`
        : undefined;
  return ctx.page(200, PageType.MAIN_CONTENT, "blog.list", {
    collection: {
      ...collectionJson(c),
      itemCount: rows.length,
      categories: facet(published, "categories", filter, base),
      tags: facet(published, "tags", filter, base),
    },
    items,
    featured: pageNumber === 1 && !Object.keys(filter).length ? items[0] : undefined,
    filter,
    filterHeading: heading,
    filtered: Object.keys(filter).length > 0,
    pagination: pagination(base, filter, pageNumber, pageSize, rows.length),
    pageTitle: heading ? `${c.title}: ${heading}` : c.seoTitle || c.title,
    metaDescription: c.seoDescription || c.description || ctx.site.tagline,
  });
}

/** Calendar month grid (weeks starting on Sunday) in the site's time zone. */
function calendarMonth(year: number, month: number, events: Json[], timeZone: string, base: string): Json {
  const dayKey = (ms: number) => localDay(new Date(ms), timeZone);
  const byDay = new Map<string, Json[]>();
  for (const e of events) {
    const start = e.startDate as number;
    const end = Math.max(start, (e.endDate as number | undefined) ?? start);
    for (let t = start; t <= end; t += DAY_MS) {
      const k = dayKey(t);
      byDay.set(k, [...(byDay.get(k) ?? []), e]);
      if (byDay.size > 500) break;
    }
    const last = dayKey(end);
    if (!byDay.get(last)?.includes(e)) byDay.set(last, [...(byDay.get(last) ?? []), e]);
  }
  const first = new Date(Date.UTC(year, month - 1, 1));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const lead = first.getUTCDay();
  const weeks: Json[][] = [];
  let week: Json[] = [];
  for (let i = 0; i < lead; i++) week.push({ empty: true });
  for (let d = 1; d <= daysInMonth; d++) {
    const key = `${year}-${String(month).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
    const list = byDay.get(key) ?? [];
    week.push({
      empty: false,
      day: d,
      key,
      events: list.map((e) => ({ title: e.title, fullUrl: e.fullUrl, startDate: e.startDate })),
      hasEvents: list.length > 0,
    });
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) {
    while (week.length < 7) week.push({ empty: true });
    weeks.push(week);
  }
  const prev = month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, "0")}`;
  const next = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, "0")}`;
  return {
    year,
    month,
    title: new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(
      first,
    ),
    weekdays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
    weeks: weeks.map((days) => ({ days })),
    prevUrl: `${base}?view=calendar&month=${prev}`,
    nextUrl: `${base}?view=calendar&month=${next}`,
  };
}

export async function eventsPage(ctx: Ctx, c: Collection): Promise<PageResult> {
  const rows = (await ctx.rowsOf(c)).filter((i) => i.startDate).slice(0, MAX_ITEMS_PER_ORDERABLE_COLLECTION);
  const nowMs = ctx.req.now.getTime();
  const isPast = (i: ContentItem) => (i.endDate ?? i.startDate)!.getTime() < nowMs;
  const past = rows.filter(isPast).reverse();
  const upcoming = rows.filter((i) => !isPast(i));
  const setting = (c.options.showPastOrUpcomingEvents as string | undefined) === "past" ? "past" : "upcoming";
  const requested = ctx.req.query.view;
  const view =
    requested === "calendar" || requested === "past" || requested === "upcoming"
      ? requested
      : c.options.calendarView
        ? "calendar"
        : setting;
  const [pastJson, upcomingJson] = await Promise.all([ctx.jsonOf(c, past), ctx.jsonOf(c, upcoming)]);
  const base = `/${c.urlSlug}`;
  let calendar: Json | undefined;
  if (view === "calendar") {
    const m = /^(\d{4})-(\d{2})$/.exec(ctx.req.query.month ?? "");
    const zoned = localDay(ctx.req.now, ctx.site.timeZone).split("-");
    let year = m ? Number(m[1]) : Number(zoned[0]);
    let month = m && Number(m[2]) >= 1 && Number(m[2]) <= 12 ? Number(m[2]) : Number(zoned[1]);
    if (!m) {
      // Without a month asked for, open on this month, or on the next event's month when this one has none.
      const key = (ms: number) => localDay(new Date(ms), ctx.site.timeZone).slice(0, 7); // YYYY-MM
      const thisMonth = `${zoned[0]}-${zoned[1]}`;
      const months = [...pastJson, ...upcomingJson].map((e) => key(e.startDate as number));
      const next = upcomingJson[0];
      if (!months.includes(thisMonth) && next) {
        const [y, mo] = key(next.startDate as number).split("-");
        year = Number(y);
        month = Number(mo);
      }
    }
    if (year < 1583 || year > 9999) return ctx.notFound();
    calendar = calendarMonth(year, month, [...pastJson, ...upcomingJson], ctx.site.timeZone, base);
    const today = localDay(ctx.req.now, ctx.site.timeZone);
    for (const w of calendar.weeks as { days: Json[] }[]) for (const d of w.days) d.today = d.key === today;
  }
  const items = view === "past" ? pastJson : upcomingJson;
  return ctx.page(200, PageType.MAIN_CONTENT, "events.list", {
    collection: { ...collectionJson(c), showPastOrUpcomingEvents: setting },
    items,
    upcoming: upcomingJson,
    past: pastJson,
    view: {
      name: view,
      isCalendar: view === "calendar",
      isPast: view === "past",
      isUpcoming: view === "upcoming",
    },
    viewLinks: {
      upcoming: base + (setting === "upcoming" && !c.options.calendarView ? "" : "?view=upcoming"),
      past: `${base}?view=past`,
      calendar: `${base}?view=calendar`,
    },
    calendar,
    pageTitle: c.seoTitle || c.title,
    metaDescription: c.seoDescription || c.description || ctx.site.tagline,
  });
}

export async function galleryPage(ctx: Ctx, c: Collection): Promise<PageResult> {
  const rows = (await ctx.rowsOf(c)).slice(0, MAX_ITEMS_PER_ORDERABLE_COLLECTION);
  const items = await ctx.jsonOf(c, rows);
  const options = galleryOptions(c.options);
  return ctx.page(200, PageType.MAIN_CONTENT, "gallery.list", {
    collection: collectionJson(c),
    items,
    gallery: {
      id: `gallery-${c.id}`,
      options,
      slides: (items as Json[])
        .filter((i) => i.mainImage)
        .map((i) => ({
          image: i.mainImage,
          title: i.title,
          body: htmlToText(String(i.body ?? "")),
          fullUrl: i.fullUrl,
        })),
    },
    pageTitle: c.seoTitle || c.title,
    metaDescription: c.seoDescription || c.description || ctx.site.tagline,
  });
}

export async function albumPage(ctx: Ctx, c: Collection): Promise<PageResult> {
  const rows = (await ctx.rowsOf(c))
    .filter((i) => i.recordType === RecordType.AUDIO)
    .slice(0, MAX_TRACKS_PER_ALBUM);
  const items = await ctx.jsonOf(c, rows);
  const coverId = typeof c.options.coverImageId === "string" ? c.options.coverImageId : undefined;
  const cover = coverId
    ? imageJson((await mediaByIds(ctx.db, ctx.site.id, [coverId])).get(coverId))
    : undefined;
  const tracks = (items as Json[]).map((t, i) => {
    const sc = t.structuredContent as { audioAssetUrl: string; duration?: number; artist?: string };
    return {
      id: t.id,
      number: i + 1,
      title: t.title,
      url: sc.audioAssetUrl,
      artist: sc.artist ?? c.options.artist ?? "",
      duration: sc.duration,
      durationText: sc.duration
        ? `${Math.floor(sc.duration / 60)}:${String(Math.round(sc.duration % 60)).padStart(2, "0")}`
        : "",
    };
  });
  return ctx.page(200, PageType.MAIN_CONTENT, "album.list", {
    collection: collectionJson(c),
    items,
    album: {
      title: c.title,
      artist: typeof c.options.artist === "string" ? c.options.artist : ctx.site.title,
      description: c.description,
      cover,
      tracks,
      trackCount: tracks.length,
      items,
      player: {
        title: c.title,
        artist: typeof c.options.artist === "string" ? c.options.artist : ctx.site.title,
        tracks,
      },
    },
    pageTitle: c.seoTitle || c.title,
    metaDescription: c.seoDescription || c.description || ctx.site.tagline,
  });
}
