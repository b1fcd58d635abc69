CREATE TABLE "site_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"source" text NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"progress" jsonb DEFAULT '{"done":0,"failed":0,"left":0}'::jsonb NOT NULL,
	"report" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "url_redirects" ADD COLUMN "group_name" text;--> statement-breakpoint
ALTER TABLE "site_imports" ADD CONSTRAINT "site_imports_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;