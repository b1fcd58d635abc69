-- Page cache invalidation (published sites). Any change to what a published page shows bumps
-- websites.content_version once per transaction, at commit, and every change of the version is
-- announced on the channel "atelier_content" as "<websiteId>:<version>", so that every server
-- process drops the pages it cached under an older version.
--
-- The bump runs in a deferred constraint trigger: the websites row is locked only while the
-- transaction commits, after all its other row locks, so two transactions that touch the same
-- site's content (e.g. two checkouts decrementing stock) cannot deadlock on it.

CREATE OR REPLACE FUNCTION atelier_touch_website() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  wid text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    wid := to_jsonb(OLD) ->> 'website_id';
  ELSE
    wid := to_jsonb(NEW) ->> 'website_id';
  END IF;
  IF wid IS NULL THEN
    RETURN NULL;
  END IF;
  IF current_setting('atelier.touched_' || wid, true) = '1' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('atelier.touched_' || wid, '1', true);
  UPDATE websites SET content_version = content_version + 1 WHERE id = wid;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION atelier_website_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.content_version = OLD.content_version AND NEW IS DISTINCT FROM OLD THEN
    NEW.content_version := OLD.content_version + 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION atelier_website_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('atelier_content', OLD.id || ':' || (OLD.content_version + 1));
  ELSIF TG_OP = 'INSERT' OR NEW.content_version <> OLD.content_version THEN
    PERFORM pg_notify('atelier_content', NEW.id || ':' || NEW.content_version);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER websites_version BEFORE UPDATE ON websites FOR EACH ROW EXECUTE FUNCTION atelier_website_version();
--> statement-breakpoint
CREATE TRIGGER websites_notify AFTER INSERT OR UPDATE OR DELETE ON websites FOR EACH ROW EXECUTE FUNCTION atelier_website_notify();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER domains_touch AFTER INSERT OR UPDATE OR DELETE ON domains DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER website_settings_touch AFTER INSERT OR UPDATE OR DELETE ON website_settings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_settings_touch AFTER INSERT OR UPDATE OR DELETE ON store_settings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER collections_touch AFTER INSERT OR UPDATE OR DELETE ON collections DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER content_items_touch AFTER INSERT OR UPDATE OR DELETE ON content_items DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER comments_touch AFTER INSERT OR UPDATE OR DELETE ON comments DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_touch AFTER INSERT OR UPDATE OR DELETE ON product_variants DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER media_touch AFTER INSERT OR UPDATE OR DELETE ON media DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER forms_touch AFTER INSERT OR UPDATE OR DELETE ON forms DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
