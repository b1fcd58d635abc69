CREATE TABLE "site_popups" (
	"website_id" text PRIMARY KEY NOT NULL,
	"announcement_bar" jsonb,
	"newsletter_popup" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mailing_list_subscribers" ADD COLUMN "confirmation_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mailing_list_subscribers" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "site_popups" ADD CONSTRAINT "site_popups_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A saved announcement bar or pop-up changes the published pages: bump the site's content version (see 0002).
CREATE CONSTRAINT TRIGGER site_popups_touch AFTER INSERT OR UPDATE OR DELETE ON site_popups DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
