/**
 * Site search (SPEC §2, page type 102): PostgreSQL full-text search over a website's pages,
 * posts, events and products, ranked, with highlighted snippets. Plain SQL that PGlite runs
 * as well as a PostgreSQL server.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import { escapeHtml } from "../../lib/escape.js";
import { mediaByIds } from "../content/service.js";
import { mediaUrl } from "../media/storage.js";

interface SearchResult {
  id: string;
  title: string;
  fullUrl: string;
  kind: "page" | "blog" | "events" | "products";
  typeLabel: string;
  /** HTML: the matching passage with the terms in `<mark>`. */
  snippet: string;
  imageUrl?: string;
  startDate?: number;
}

const LABELS: Record<SearchResult["kind"], string> = {
  page: "Page",
  blog: "Post",
  events: "Event",
  products: "Product",
};

/** Words of a query as a prefix tsquery ("linen apro" → 'linen':* & 'apro':*), or undefined when empty. */
export function toPrefixQuery(q: string): string | undefined {
  const words = q
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 12)
    .map((w) => w.slice(0, 60));
  if (!words.length) return undefined;
  return words.map((w) => `'${w}':*`).join(" & ");
}

const START = "\u0001";
const STOP = "\u0002";

function decode(s: string): string {
  return s
    .replace(/&nbsp;/g, " ")
    .replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos|#39);/gi, (m, e: string) => {
      const k = e.toLowerCase();
      if (k === "amp") return "&";
      if (k === "lt") return "<";
      if (k === "gt") return ">";
      if (k === "quot") return '"';
      if (k === "apos" || k === "#39") return "'";
      const code = k.startsWith("#x") ? Number.parseInt(k.slice(2), 16) : Number.parseInt(k.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    });
}

const FRAGMENT_DELIMITER = " … ";
/** The ts_headline options of the snippets: the highlight marks and up to two fragments. */
export const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, MaxWords=32, MinWords=14, MaxFragments=2, FragmentDelimiter="${FRAGMENT_DELIMITER}"`;
const plainText = (s: string) => decode(s).replace(/\s+/g, " ").trim();

/**
 * A headline from ts_headline as safe HTML: everything escaped but the highlight marks. Given the
 * text it was cut from, an ellipsis marks where the snippet starts or ends inside that text.
 */
export function snippetHtml(headline: string, text?: string): string {
  let plain = plainText(headline);
  if (text !== undefined && plain) {
    const full = plainText(text);
    const fragments = plain.replaceAll(START, "").replaceAll(STOP, "").split(FRAGMENT_DELIMITER);
    if (!full.startsWith(fragments[0] ?? "")) plain = `…${plain}`;
    if (!full.endsWith(fragments[fragments.length - 1] ?? "")) plain = `${plain}…`;
  }
  return escapeHtml(plain).replaceAll(START, "<mark>").replaceAll(STOP, "</mark>");
}

/** Over `c` (collections): open to every visitor, with no password and not a member area. */
export const OPEN_COLLECTION = sql.raw(
  "c.password_hash is null and coalesce(c.options ->> 'memberArea', 'false') <> 'true'",
);

/**
 * Over `ci` (content_items) in `c` (its collection): an item search may show, that is a published
 * post, product or event of an open collection whose publish time has come by `now`.
 */
export function searchableItem(now: Date): SQL {
  return sql`ci.status = 'published'
         and ${OPEN_COLLECTION}
         and ci.record_type in (${RecordType.TEXT}, ${RecordType.STORE_ITEM}, ${RecordType.EVENT})
         and c.kind in ('blog', 'products', 'events')
         and (ci.publish_on is null or ci.publish_on <= ${now.toISOString()}::timestamptz)`;
}

/** Searches a website. An empty query finds nothing. */
export async function searchSite(
  db: Db,
  websiteId: string,
  query: string,
  opts: { limit?: number; now?: Date } = {},
): Promise<SearchResult[]> {
  const tsquery = toPrefixQuery(query);
  if (!tsquery) return [];
  const limit = Math.min(100, Math.max(1, opts.limit ?? 20));
  const now = opts.now ?? new Date();
  // Candidates come from the GIN indexes on the stored documents (migration 0009), ranked as
  // before; only the returned rows are turned back into text for the highlighted snippets.
  const result = await db.execute(sql`
    with q as (select to_tsquery('english', ${tsquery}) as query),
    hits as (
      select ci.id, ci.title, ci.url_id, ci.record_type, ci.main_image_id, ci.start_date,
             c.url_slug, c.kind, false as is_home,
             ts_rank_cd(ci.search_doc, q.query) as rank
        from q, content_items ci
        join collections c on c.id = ci.collection_id
       where ci.website_id = ${websiteId}
         and ci.search_doc @@ q.query
         and ${searchableItem(now)}
      union all
      select c.id, c.title, c.url_slug, 0, null, null, c.url_slug, c.kind, c.is_home,
             ts_rank_cd(c.search_doc, q.query) as rank
        from q, collections c
       where c.website_id = ${websiteId}
         and c.search_doc @@ q.query
         and c.kind = 'page'
         and ${OPEN_COLLECTION}
     order by rank desc, title asc
     limit ${limit}
    )
    select h.id, h.title, h.url_id, h.record_type, h.main_image_id, h.start_date, h.url_slug, h.kind, h.is_home,
           ts_headline('english', t.text, q.query, ${HEADLINE_OPTIONS}) as headline,
           t.text
      from hits h
     cross join q
     cross join lateral (
       select case when h.kind = 'page'
         then (select atelier_page_search_text(p.layout) from collections p where p.id = h.id)
         else (select atelier_item_search_text(i.excerpt, i.body) from content_items i where i.id = h.id)
       end as text
       offset 0 -- kept a subquery, so the text is built once per result, not once per use
     ) t
     order by h.rank desc, h.title asc
  `);
  const rows = ((result as unknown as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as {
    id: string;
    title: string;
    url_id: string;
    record_type: number;
    main_image_id: string | null;
    start_date: string | Date | null;
    url_slug: string;
    kind: SearchResult["kind"];
    is_home: boolean;
    headline: string;
    text: string | null;
  }[];
  const images = await mediaByIds(
    db,
    websiteId,
    rows.map((r) => r.main_image_id ?? ""),
  );
  return rows.map((r) => {
    const kind = r.kind;
    const fullUrl =
      kind === "page"
        ? r.is_home
          ? "/"
          : `/${r.url_slug}`
        : kind === "products"
          ? `/${r.url_slug}/p/${r.url_id}`
          : `/${r.url_slug}/${r.url_id}`;
    const image = r.main_image_id ? images.get(r.main_image_id) : undefined;
    return {
      id: r.id,
      title: r.title,
      fullUrl,
      kind,
      typeLabel: LABELS[kind] ?? "Page",
      snippet: snippetHtml(r.headline ?? "", r.text ?? ""),
      imageUrl: image ? `${mediaUrl(image.id, image.filename)}?format=300w` : undefined,
      startDate: r.start_date ? new Date(r.start_date).getTime() : undefined,
    };
  });
}
