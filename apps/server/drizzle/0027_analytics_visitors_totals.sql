CREATE TABLE "analytics_daily_totals" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"page_views" integer NOT NULL,
	"visits" integer NOT NULL,
	"visitors" integer NOT NULL,
	"product_views" integer NOT NULL,
	"adds" integer NOT NULL,
	"checkouts" integer NOT NULL,
	CONSTRAINT "analytics_daily_totals_website_id_day_pk" PRIMARY KEY("website_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_visitors" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"visitor" bigint NOT NULL,
	CONSTRAINT "analytics_daily_visitors_website_id_day_visitor_pk" PRIMARY KEY("website_id","day","visitor")
);
--> statement-breakpoint
CREATE TABLE "analytics_span_traffic" (
	"website_id" text NOT NULL,
	"span" text NOT NULL,
	"start" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"visits" integer NOT NULL,
	"visitors" integer NOT NULL,
	"page_views" integer NOT NULL,
	CONSTRAINT "analytics_span_traffic_website_id_span_start_dimension_key_pk" PRIMARY KEY("website_id","span","start","dimension","key")
);
--> statement-breakpoint
ALTER TABLE "analytics_daily_totals" ADD CONSTRAINT "analytics_daily_totals_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_visitors" ADD CONSTRAINT "analytics_daily_visitors_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_span_traffic" ADD CONSTRAINT "analytics_span_traffic_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The traffic rollups' "total" and "funnel" rows move to analytics_daily_totals: drop them and
-- forget which days were built, so the first report opened queues the rebuild of every day
-- (analytics.backfill), which fills the new tables. Sales and products rows stay valid until
-- their day is rebuilt.
DELETE FROM "analytics_daily_traffic" WHERE "dimension" IN ('total', 'funnel');--> statement-breakpoint
DELETE FROM "analytics_rollup_days";
