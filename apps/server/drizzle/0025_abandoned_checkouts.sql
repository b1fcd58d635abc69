CREATE TABLE "abandoned_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"cart_id" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"contacted_at" timestamp with time zone NOT NULL,
	"abandoned_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"origin" text NOT NULL,
	"subtotal_cents" integer DEFAULT 0 NOT NULL,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"next_reminder" integer DEFAULT 0 NOT NULL,
	"last_reminder_at" timestamp with time zone,
	"coupon_codes" text[] DEFAULT '{}' NOT NULL,
	"stopped" text,
	"restored_at" timestamp with time zone,
	"order_id" text,
	"recovered_cents" integer,
	"recovered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "abandoned_checkouts_cart_id_unique" UNIQUE("cart_id")
);
--> statement-breakpoint
CREATE TABLE "recovery_settings" (
	"website_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"abandoned_after_minutes" integer DEFAULT 60 NOT NULL,
	"reminders" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_unsubscribes" (
	"website_id" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recovery_unsubscribes_website_id_email_pk" PRIMARY KEY("website_id","email")
);
--> statement-breakpoint
ALTER TABLE "abandoned_checkouts" ADD CONSTRAINT "abandoned_checkouts_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "abandoned_checkouts" ADD CONSTRAINT "abandoned_checkouts_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_settings" ADD CONSTRAINT "recovery_settings_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_unsubscribes" ADD CONSTRAINT "recovery_unsubscribes_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "abandoned_checkouts_website_idx" ON "abandoned_checkouts" USING btree ("website_id","abandoned_at");--> statement-breakpoint
CREATE INDEX "abandoned_checkouts_due_idx" ON "abandoned_checkouts" USING btree ("next_check_at");--> statement-breakpoint
CREATE INDEX "abandoned_checkouts_email_idx" ON "abandoned_checkouts" USING btree ("website_id","email");