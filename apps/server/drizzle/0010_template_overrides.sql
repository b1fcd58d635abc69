CREATE TABLE "template_drafts" (
	"website_id" text NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_drafts_website_id_account_id_name_pk" PRIMARY KEY("website_id","account_id","name")
);
--> statement-breakpoint
CREATE TABLE "template_overrides" (
	"website_id" text NOT NULL,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_overrides_website_id_name_pk" PRIMARY KEY("website_id","name")
);
--> statement-breakpoint
ALTER TABLE "template_drafts" ADD CONSTRAINT "template_drafts_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_drafts" ADD CONSTRAINT "template_drafts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_overrides" ADD CONSTRAINT "template_overrides_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A saved or reverted template override changes the published pages: bump the site's content version (see 0002).
CREATE CONSTRAINT TRIGGER template_overrides_touch AFTER INSERT OR UPDATE OR DELETE ON template_overrides DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atelier_touch_website();
