CREATE TABLE "site_designs" (
	"website_id" text PRIMARY KEY NOT NULL,
	"styles" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"custom_css" text DEFAULT '' NOT NULL,
	"logo_media_id" text,
	"logo_alt" text DEFAULT '' NOT NULL,
	"logo_max_height" integer DEFAULT 48 NOT NULL,
	"site_icon_media_id" text,
	"social_image_media_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_designs" ADD CONSTRAINT "site_designs_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_designs" ADD CONSTRAINT "site_designs_logo_media_id_media_id_fk" FOREIGN KEY ("logo_media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_designs" ADD CONSTRAINT "site_designs_site_icon_media_id_media_id_fk" FOREIGN KEY ("site_icon_media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_designs" ADD CONSTRAINT "site_designs_social_image_media_id_media_id_fk" FOREIGN KEY ("social_image_media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER site_designs_touch AFTER INSERT OR UPDATE OR DELETE ON site_designs DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
