CREATE TABLE "events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"public_id" text NOT NULL,
	"website_id" text,
	"type" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_public_id_unique" UNIQUE("public_id")
);
--> statement-breakpoint
CREATE INDEX "events_website_idx" ON "events" USING btree ("website_id","id");--> statement-breakpoint
CREATE INDEX "events_type_idx" ON "events" USING btree ("type","id");