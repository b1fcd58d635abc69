/** Forms and their submissions. */
import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.js";
import { websiteId } from "./sites.js";

export const forms = pgTable("forms", {
  id: text("id").primaryKey(),
  websiteId: websiteId(),
  name: text("name").notNull(),
  /** Field definitions: {id, type, title, required, options…} (SPEC §3 field types). */
  fields: jsonb("fields").$type<Record<string, unknown>[]>().notNull(),
  submissionMessage: text("submission_message").notNull().default("Thank you!"),
  submissionHtml: text("submission_html").notNull().default(""),
  successRedirect: text("success_redirect"),
  disclaimerMessage: text("disclaimer_message"),
  captchaEnabled: boolean("captcha_enabled").notNull().default(false),
  captchaTheme: integer("captcha_theme").notNull().default(1),
  captchaAlignment: integer("captcha_alignment").notNull().default(1),
  notifyEmail: text("notify_email"),
  createdAt: createdAt(),
});

export const formSubmissions = pgTable(
  "form_submissions",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    formId: text("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    values: jsonb("values").$type<Record<string, unknown>>().notNull(),
    summary: jsonb("summary").$type<{ title: string; value: string }[]>().notNull(),
    pagePath: text("page_path"),
    createdAt: createdAt(),
  },
  (t) => [index("form_submissions_form_idx").on(t.formId, t.createdAt)],
);
