/**
 * The search query as it ran before migration 0009 (apps/server/src/modules/search/service.ts at
 * that time): it builds every published row's tsvector and strips its tags on every query. Kept
 * here, unchanged but for what it shares with the service (which rows search may show, the
 * snippet options), as the baseline bench/search.ts measures the indexed search against.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../apps/server/src/db/client.js";
import {
  HEADLINE_OPTIONS,
  OPEN_COLLECTION,
  searchableItem,
  toPrefixQuery,
} from "../apps/server/src/modules/search/service.js";

export async function baselineSearch(db: Db, websiteId: string, query: string, now: Date, limit = 20) {
  const tsquery = toPrefixQuery(query);
  if (!tsquery) return [];
  const result = await db.execute(sql`
    with q as (select to_tsquery('english', ${tsquery}) as query),
    docs as (
      select ci.id, ci.title, ci.url_id, ci.record_type, ci.main_image_id, ci.start_date,
             c.url_slug, c.kind, false as is_home,
             regexp_replace(coalesce(ci.excerpt, '') || ' ' || coalesce(ci.body, ''), '<[^>]*>', ' ', 'g') as text,
             setweight(to_tsvector('english', ci.title), 'A')
               || setweight(to_tsvector('english', array_to_string(ci.categories || ci.tags, ' ')), 'B')
               || setweight(to_tsvector('english', regexp_replace(coalesce(ci.excerpt, ''), '<[^>]*>', ' ', 'g')), 'B')
               || setweight(to_tsvector('english', regexp_replace(coalesce(ci.body, ''), '<[^>]*>', ' ', 'g')), 'C') as doc
        from content_items ci
        join collections c on c.id = ci.collection_id
       where ci.website_id = ${websiteId}
         and ${searchableItem(now)}
      union all
      select c.id, c.title, c.url_slug, 0, null, null, c.url_slug, c.kind, c.is_home,
             t.text,
             setweight(to_tsvector('english', c.title), 'A')
               || setweight(to_tsvector('english', coalesce(c.description, '') || ' ' || coalesce(c.seo_description, '')), 'B')
               || setweight(to_tsvector('english', t.text), 'C') as doc
        from collections c
        cross join lateral (
          select regexp_replace(coalesce(string_agg(v #>> '{}', ' '), ''), '<[^>]*>', ' ', 'g') as text
            from jsonb_path_query(coalesce(c.layout, '{}'::jsonb), 'strict $.**.html') as v
        ) t
       where c.website_id = ${websiteId}
         and c.kind = 'page'
         and ${OPEN_COLLECTION}
    )
    select d.id, d.title, d.url_id, d.record_type, d.main_image_id, d.start_date, d.url_slug, d.kind, d.is_home,
           ts_rank_cd(d.doc, q.query) as rank,
           ts_headline('english', d.text, q.query, ${HEADLINE_OPTIONS}) as headline,
           d.text
      from docs d, q
     where d.doc @@ q.query
     order by rank desc, d.title asc
     limit ${limit}
  `);
  return (result as unknown as { rows: unknown[] }).rows;
}
