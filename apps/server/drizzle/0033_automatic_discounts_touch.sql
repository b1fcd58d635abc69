-- An owner's change to an automatic discount changes what the store's carts, quotes and pages
-- answer: bump the site's content version (see 0002), which the store's caches are keyed by
-- (cart/site-reads.ts). An order counting a use of it (times_used alone) does not bump it: the
-- store reads a discount with a usage limit afresh at each call (discounts/service.ts).
CREATE CONSTRAINT TRIGGER automatic_discounts_touch AFTER INSERT OR DELETE ON automatic_discounts DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER automatic_discounts_touch_update AFTER UPDATE ON automatic_discounts DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.times_used IS NOT DISTINCT FROM NEW.times_used) EXECUTE FUNCTION atelier_touch_website();
