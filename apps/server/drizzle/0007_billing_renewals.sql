CREATE TABLE "billing_card_setups" (
	"website_id" text PRIMARY KEY NOT NULL,
	"charge_key" text NOT NULL,
	"provider_ref" text NOT NULL,
	"card_last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"billing_country" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_payment_methods" ADD COLUMN "billing_country" text;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD COLUMN "renewal_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD COLUMN "renewal_retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_card_setups" ADD CONSTRAINT "billing_card_setups_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;