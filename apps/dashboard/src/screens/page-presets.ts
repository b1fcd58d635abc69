/**
 * Pages an owner can start from in "Add a page": a blank page, or an accessibility statement
 * filled in from the site's name and contact email, left as a draft for the owner to read and publish.
 */
import type { Layout } from "../api.js";
import { newBlock } from "../editor/layout-ops.js";

export const PAGE_PRESETS = [
  { value: "", label: "A blank page" },
  { value: "accessibility", label: "Accessibility statement" },
] as const;
export type PagePreset = (typeof PAGE_PRESETS)[number]["value"];

export const ACCESSIBILITY_TITLE = "Accessibility statement";

const htmlText = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** The statement's words, with the site's name, its contact email and the day it was written. */
export function accessibilityStatementHtml(site: { name: string; email: string; date: Date }): string {
  const name = htmlText(site.name);
  const day = site.date.toLocaleDateString("en", { year: "numeric", month: "long", day: "numeric" });
  const contact = site.email
    ? `email us at <a href="mailto:${htmlText(site.email)}">${htmlText(site.email)}</a>`
    : "write to us through our contact page";
  return [
    `<p>${name} wants everyone to be able to use this website, including people who browse with a screen reader, a keyboard instead of a mouse, zoom, or other assistive technology.</p>`,
    "<h2>The standard we aim for</h2>",
    "<p>This website is built with Atelier, whose pages, themes, cart and checkout are designed to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA. Each page type is checked with the axe accessibility engine in a real browser at desktop and phone sizes, and the cart, checkout and forms can be used with the keyboard alone. Animations and slideshows stop moving when your device asks for reduced motion.</p>",
    "<h2>What may fall short</h2>",
    "<ul><li>Images, videos and documents we add ourselves may lack a text alternative or captions.</li><li>Content from other services shown on our pages (maps, videos, social posts) is theirs and may not meet the same standard.</li></ul>",
    "<h2>Tell us about a problem</h2>",
    `<p>If something on this site is hard to use, or you need its content in another format, ${contact}. We aim to answer within five working days.</p>`,
    `<p>This statement was written on ${day}.</p>`,
  ].join("");
}

/** A layout of one text block holding the statement. */
export function accessibilityStatementLayout(site: { name: string; email: string; date: Date }): Layout {
  const block = { ...newBlock({ type: "text", fields: [] }), html: accessibilityStatementHtml(site) };
  return { rows: [{ columns: [{ span: 12, blocks: [block] }] }] };
}
