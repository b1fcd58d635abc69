CREATE TABLE "analytics_daily_traffic_visitor_counts" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"prev" date NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "analytics_daily_traffic_visitor_counts_website_id_dimension_key_day_prev_pk" PRIMARY KEY("website_id","dimension","key","day","prev")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_traffic_visitors" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"visitor" bigint NOT NULL,
	"prev" date NOT NULL,
	CONSTRAINT "analytics_daily_traffic_visitors_website_id_day_dimension_key_visitor_pk" PRIMARY KEY("website_id","day","dimension","key","visitor")
);
--> statement-breakpoint
ALTER TABLE "analytics_daily_traffic_visitor_counts" ADD CONSTRAINT "analytics_daily_traffic_visitor_counts_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_traffic_visitors" ADD CONSTRAINT "analytics_daily_traffic_visitors_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_daily_traffic_visitor_counts_day_idx" ON "analytics_daily_traffic_visitor_counts" USING btree ("website_id","day");--> statement-breakpoint
CREATE INDEX "analytics_daily_traffic_visitors_visitor_idx" ON "analytics_daily_traffic_visitors" USING btree ("website_id","dimension","key","visitor","day");--> statement-breakpoint
ALTER TABLE "analytics_daily_traffic" DROP COLUMN "visitors";--> statement-breakpoint
ALTER TABLE "analytics_span_traffic" DROP COLUMN "visitors";--> statement-breakpoint
-- The visitors of a source, entry page or device move to analytics_daily_traffic_visitors: forget
-- which days were built, so the first report opened queues the rebuild of every day
-- (analytics.backfill), which fills the new tables.
DELETE FROM "analytics_rollup_days";
