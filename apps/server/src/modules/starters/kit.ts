/**
 * The words starters are written in: the shapes of their pages, products, posts and forms, and
 * small builders of layout blocks. `apply.ts` turns a starter written this way into rows.
 */
import type { ItemLocation } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import type { Motif } from "../../seed/art.js";

export type Block = { id: string; type: string; [k: string]: unknown };
export type Row = { columns: { span: number; blocks: Block[] }[] };

/** What a layout can ask for while it is built: artwork, and the ids of the starter's pages and forms. */
export interface Kit {
  /** A sample image drawn by the seed's art generator; answers its media id. */
  image(name: string, motif: Motif): Promise<string>;
  /** The id of the starter's page with this key. */
  page(key: string): string;
  /** The id of the starter's form with this key. */
  form(key: string): string;
}

export interface StarterProduct {
  title: string;
  /** 1 physical, 3 service (SPEC §3 ProductTypes). */
  type: 1 | 3;
  motif: Motif;
  excerpt: string;
  body: string;
  priceCents: number;
  /** One option and its values, e.g. ["Size", ["S", "M", "L"]]. */
  option?: [string, string[]];
  categories?: string[];
}

export interface StarterPost {
  title: string;
  motif: Motif;
  excerpt: string;
  body: string;
  author: string;
  categories: string[];
  daysAgo: number;
}

export interface StarterImage {
  title: string;
  motif: Motif;
  caption?: string;
}

export interface StarterForm {
  name: string;
  submissionMessage: string;
  fields: Record<string, unknown>[];
}

export interface StarterPage {
  key: string;
  kind: "page" | "products" | "blog" | "gallery" | "events";
  title: string;
  slug: string;
  description?: string;
  isHome?: boolean;
  /** Page kind "page": its rows, built with the kit. */
  layout?: (kit: Kit) => Promise<Row[]>;
  products?: StarterProduct[];
  posts?: StarterPost[];
  images?: StarterImage[];
  options?: Record<string, unknown>;
}

export interface Starter {
  id: string;
  name: string;
  description: string;
  /** Website type (SPEC §3): 1 classic, 2 cover page, 4 commerce. */
  websiteType: 1 | 2 | 4;
  theme: "commerce" | "market" | "classic" | "harvest" | "studio" | "cover";
  tagline: string;
  /** The motif of the screenshot's hero artwork. */
  motif: Motif;
  forms: Record<string, StarterForm>;
  pages: StarterPage[];
}

// ─── Layout blocks ──────────────────────────────────────────────────────────────────────────

const block = (type: string, props: Record<string, unknown>): Block => ({
  id: `b-${newId().slice(0, 14)}`,
  type,
  ...props,
});

export const row = (...columns: Block[][]): Row => ({
  columns: columns.map((blocks) => ({ span: Math.floor(12 / columns.length), blocks })),
});
export const text = (html: string) => block("text", { html });
export const image = (imageId: string, alt: string) => block("image", { imageId, alt });
export const button = (label: string, href: string, style: "primary" | "secondary" = "primary") =>
  block("button", { label, href, style, align: "left" });
export const summary = (collectionId: string, title: string, limit: number) =>
  block("summary", { collectionId, title, limit });
export const gallery = (imageIds: string[], title = "") =>
  block("gallery", { imageIds, title, options: { design: "grid", "thumbnails-per-row": 3, lightbox: true } });
export const quote = (words: string, source: string) => block("quote", { text: words, source });
export const map = (location: ItemLocation) => block("map", { location });
export const form = (formId: string, title = "") => block("form", { formId, title });
export const newsletter = (formId: string, title: string, description: string) =>
  block("newsletter", { formId, title, description });
export const menu = (title: string, menuText: string) => block("menu", { title, menuText });

// ─── Forms most starters share ──────────────────────────────────────────────────────────────

export const contactForm = (subjects: string[]): StarterForm => ({
  name: "Contact",
  submissionMessage: "Thank you for getting in touch! We will reply within two working days.",
  fields: [
    { id: "name", type: "name", title: "Name", required: false },
    { id: "email", type: "email", title: "Email", required: true },
    { id: "subject", type: "select", title: "Subject", required: false, options: subjects },
    { id: "message", type: "textarea", title: "Message", required: true, maxLength: 2000 },
  ],
});

export const newsletterForm: StarterForm = {
  name: "Newsletter",
  submissionMessage: "You are on the list. Thank you for signing up!",
  fields: [{ id: "email", type: "email", title: "Email Address", required: true }],
};
