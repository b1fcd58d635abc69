CREATE TABLE "url_redirects" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"from_path" text NOT NULL,
	"to_path" text NOT NULL,
	"status" integer DEFAULT 301 NOT NULL,
	"automatic" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collections" ADD COLUMN "seo_hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN "seo_title" text;--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN "seo_description" text;--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN "seo_hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "hide_from_search_engines" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "url_redirects" ADD CONSTRAINT "url_redirects_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "url_redirects_from_idx" ON "url_redirects" USING btree ("website_id","from_path");--> statement-breakpoint
CREATE CONSTRAINT TRIGGER url_redirects_touch AFTER INSERT OR UPDATE OR DELETE ON url_redirects DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
