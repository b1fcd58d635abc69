CREATE TABLE "analytics_daily_products" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"item_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"name" text NOT NULL,
	"views" integer NOT NULL,
	"adds" integer NOT NULL,
	"orders" integer NOT NULL,
	"units" integer NOT NULL,
	"revenue_cents" bigint NOT NULL,
	CONSTRAINT "analytics_daily_products_website_id_day_item_id_variant_id_pk" PRIMARY KEY("website_id","day","item_id","variant_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_sales" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"orders" integer NOT NULL,
	"units" integer NOT NULL,
	"gross_cents" bigint NOT NULL,
	"discount_cents" bigint NOT NULL,
	"refunded_cents" bigint NOT NULL,
	"refunded_orders" integer NOT NULL,
	"shipping_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	CONSTRAINT "analytics_daily_sales_website_id_day_pk" PRIMARY KEY("website_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_traffic" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"visits" integer NOT NULL,
	"visitors" integer NOT NULL,
	"page_views" integer NOT NULL,
	CONSTRAINT "analytics_daily_traffic_website_id_day_dimension_key_pk" PRIMARY KEY("website_id","day","dimension","key")
);
--> statement-breakpoint
CREATE TABLE "analytics_rollup_days" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"dirty" boolean DEFAULT true NOT NULL,
	"built_at" timestamp with time zone,
	CONSTRAINT "analytics_rollup_days_website_id_day_pk" PRIMARY KEY("website_id","day")
);
--> statement-breakpoint
ALTER TABLE "analytics_daily_products" ADD CONSTRAINT "analytics_daily_products_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_sales" ADD CONSTRAINT "analytics_daily_sales_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_traffic" ADD CONSTRAINT "analytics_daily_traffic_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_rollup_days" ADD CONSTRAINT "analytics_rollup_days_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;