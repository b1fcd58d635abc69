CREATE TABLE "entity_versions" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"website_id" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"kind" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"summary" text NOT NULL,
	"content" "bytea" NOT NULL,
	"raw_bytes" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "entity_versions_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "trash_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"title" text NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"content" "bytea" NOT NULL,
	"media_keys" text[] NOT NULL,
	"deleted_at" timestamp with time zone NOT NULL,
	"purge_after" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "entity_versions" ADD CONSTRAINT "entity_versions_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trash_entries" ADD CONSTRAINT "trash_entries_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entity_versions_entity_idx" ON "entity_versions" USING btree ("website_id","entity_type","entity_id","seq");--> statement-breakpoint
CREATE INDEX "trash_entries_site_idx" ON "trash_entries" USING btree ("website_id","deleted_at");--> statement-breakpoint
CREATE INDEX "trash_entries_purge_idx" ON "trash_entries" USING btree ("purge_after");