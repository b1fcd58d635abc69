import { describe, expect, it } from "vitest";
import { accessibilityStatementHtml, accessibilityStatementLayout } from "./page-presets.js";

const date = new Date("2026-06-28T12:00:00Z");

describe("the accessibility statement preset", () => {
  it("names the site, the standard, and where to report a problem", () => {
    const html = accessibilityStatementHtml({ name: "Atelier Demo", email: "help@example.com", date });
    expect(html).toContain("<p>Atelier Demo wants everyone");
    expect(html).toContain("WCAG) 2.2 at level AA");
    expect(html).toContain('<a href="mailto:help@example.com">help@example.com</a>');
    expect(html).toContain("written on June 28, 2026");
  });

  it("escapes the site's name and email, and points to the contact page without an email", () => {
    const html = accessibilityStatementHtml({ name: "<b>Tom & Jerry</b>", email: "", date });
    expect(html).toContain("&lt;b&gt;Tom &amp; Jerry&lt;/b&gt; wants");
    expect(html).not.toContain("mailto:");
    expect(html).toContain("write to us through our contact page");
    const quoted = accessibilityStatementHtml({ name: "X", email: 'a"b@example.com', date });
    expect(quoted).toContain('href="mailto:a&quot;b@example.com"');
  });

  it("is one text block in one full-width row", () => {
    const layout = accessibilityStatementLayout({ name: "S", email: "s@example.com", date });
    expect(layout.rows).toHaveLength(1);
    const [column] = layout.rows[0]!.columns;
    expect(column!.span).toBe(12);
    expect(column!.blocks).toHaveLength(1);
    expect(column!.blocks[0]).toMatchObject({ type: "text", html: expect.stringContaining("S wants") });
    expect(column!.blocks[0]!.id).toMatch(/^b-[0-9a-f]{12}$/);
  });
});
