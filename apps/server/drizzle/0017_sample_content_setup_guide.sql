ALTER TABLE "content_items" ADD COLUMN "is_sample" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "is_sample" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "website_settings" ADD COLUMN "setup_guide_dismissed" boolean DEFAULT false NOT NULL;