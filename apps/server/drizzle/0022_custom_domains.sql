ALTER TABLE "domains" DROP CONSTRAINT "domains_pkey";--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_website_id_host_pk" PRIMARY KEY("website_id","host");--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "token" text DEFAULT md5(random()::text) NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ALTER COLUMN "token" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "last_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "primary_host" text;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "redirect_www" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "domains_verified_host" ON "domains" USING btree ("host") WHERE "domains"."status" = 'verified';--> statement-breakpoint
CREATE INDEX "domains_host" ON "domains" USING btree ("host");--> statement-breakpoint
-- Names connected before verification existed kept serving their sites: they stay verified.
UPDATE "domains" SET "status" = 'verified', "verified_at" = "created_at";--> statement-breakpoint
UPDATE "websites" w SET "primary_host" = d."host" FROM "domains" d WHERE d."website_id" = w."id" AND d."is_primary";
