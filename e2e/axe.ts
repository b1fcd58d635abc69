/**
 * axe-core in the browser tests: `expectNoAxeViolations(page, label)` runs the WCAG 2.2 A and AA
 * rules on the page as it is now (a dialog open, errors shown…) and fails with each violation's
 * rule, its elements (selector and HTML) and the page. Any browser test may call it after a step.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** The WCAG 2.0, 2.1 and 2.2 level A and AA rules. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** The violations axe finds on the page now (page.evaluate is not bound by the page's CSP). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    })) as { violations: AxeViolation[] };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })),
    }));
  }, WCAG_TAGS);
}

/** One line per element: the rule, what it asks, the element's selector and HTML, and why it failed. */
export function describeViolations(violations: AxeViolation[], label: string): string[] {
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${label}: ${v.id} (${v.impact}) ${v.help} — ${JSON.stringify(n.target)} ${n.html.slice(0, 200)}` +
        (n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, " ").slice(0, 240)}` : ""),
    ),
  );
}

/** Fails the test when axe finds a WCAG 2.2 A/AA violation on the page; `label` names the page and state. */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  const found = describeViolations(await axeViolations(page), `${label} (${page.url()})`);
  expect(found, `axe found ${found.length} problem(s) on ${label}`).toEqual([]);
}
