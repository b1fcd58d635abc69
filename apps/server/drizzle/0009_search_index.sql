-- Site search reads a stored, GIN-indexed tsvector per searchable row instead of building one for
-- every row of the site on every query. The documents are exactly what search built before:
-- content items (posts, products, events): title (A), categories and tags (B), excerpt (B), body (C);
-- pages (collections of kind "page"): title (A), description and SEO description (B), the text of
-- the published layout's html blocks (C). Tags are stripped the same way.
--
-- The columns are kept by BEFORE triggers that fire only when a column the document reads changes
-- (so a like or a reorder does not re-parse a long body), on every write path: services, the demo
-- seed, imports, direct SQL. They are not in the Drizzle schema on purpose: no ORM query selects them.
--
-- The GIN indexes lead with website_id (btree_gin, a trusted extension in PostgreSQL 13+, loaded
-- into PGlite by db/client.ts), so a query reads only its own site's postings: a word common
-- across thousands of sites costs one site no more than its own matches.

CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint

CREATE OR REPLACE FUNCTION atelier_search_strip(s text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT regexp_replace(coalesce(s, ''), '<[^>]*>', ' ', 'g') $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION atelier_item_search_text(excerpt text, body text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT atelier_search_strip(coalesce(excerpt, '') || ' ' || coalesce(body, '')) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION atelier_item_search_doc(title text, categories text[], tags text[], excerpt text, body text)
  RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A')
        || setweight(to_tsvector('english'::regconfig, array_to_string(coalesce(categories, '{}') || coalesce(tags, '{}'), ' ')), 'B')
        || setweight(to_tsvector('english'::regconfig, atelier_search_strip(excerpt)), 'B')
        || setweight(to_tsvector('english'::regconfig, atelier_search_strip(body)), 'C')
  $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION atelier_page_search_text(layout jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT atelier_search_strip(coalesce(string_agg(v #>> '{}', ' '), ''))
      FROM jsonb_path_query(coalesce(layout, '{}'::jsonb), 'strict $.**.html') AS v
  $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION atelier_page_search_doc(title text, description text, seo_description text, layout jsonb)
  RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A')
        || setweight(to_tsvector('english'::regconfig, coalesce(description, '') || ' ' || coalesce(seo_description, '')), 'B')
        || setweight(to_tsvector('english'::regconfig, atelier_page_search_text(layout)), 'C')
  $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION atelier_content_items_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_doc := atelier_item_search_doc(NEW.title, NEW.categories, NEW.tags, NEW.excerpt, NEW.body);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION atelier_collections_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.kind = 'page' THEN
    NEW.search_doc := atelier_page_search_doc(NEW.title, NEW.description, NEW.seo_description, NEW.layout);
  ELSE
    NEW.search_doc := NULL;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
ALTER TABLE content_items ADD COLUMN search_doc tsvector;
--> statement-breakpoint
ALTER TABLE collections ADD COLUMN search_doc tsvector;
--> statement-breakpoint
CREATE TRIGGER content_items_search BEFORE INSERT OR UPDATE OF title, categories, tags, excerpt, body, search_doc
  ON content_items FOR EACH ROW EXECUTE FUNCTION atelier_content_items_search();
--> statement-breakpoint
CREATE TRIGGER collections_search BEFORE INSERT OR UPDATE OF kind, title, description, seo_description, layout, search_doc
  ON collections FOR EACH ROW EXECUTE FUNCTION atelier_collections_search();
--> statement-breakpoint
UPDATE content_items SET search_doc = NULL;
--> statement-breakpoint
UPDATE collections SET search_doc = NULL WHERE kind = 'page';
--> statement-breakpoint
CREATE INDEX content_items_search_idx ON content_items USING gin (website_id, search_doc);
--> statement-breakpoint
CREATE INDEX collections_search_idx ON collections USING gin (website_id, search_doc);
