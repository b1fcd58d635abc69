import { escapeAttr } from "@atelier/jsont";

/**
 * Escapes text for HTML the server writes itself (email bodies, search snippets, imported or
 * starter page content, embed players): `&`, `<`, `>`, `"` and `'`, so the result is safe in
 * element text and in an attribute quoted either way. It is the template engine's attribute
 * escaping with the single quote included (`&#39;`); templates keep the engine's own formatters.
 */
export function escapeHtml(text: string): string {
  return escapeAttr(text, true);
}

const XML_ENTITIES: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Escapes text for XML documents (feeds, sitemaps) with XML's five predefined entities. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => XML_ENTITIES[c]!);
}
