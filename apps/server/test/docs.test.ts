/**
 * The README and the manual in docs/: no dead relative link or anchor, every environment variable
 * the code reads documented in docs/configuration.md, and a README short enough to read at once.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const docsDir = path.join(root, "docs");
const pages = [
  "README.md",
  "deploy/README.md",
  ...readdirSync(docsDir)
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text of a Markdown file without its fenced code blocks (links there are not links). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** A heading's anchor as GitHub makes it: the visible text, lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return visibleText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

/** A heading's rendered text: code spans as written; links, HTML tags and emphasis marks dropped. */
function visibleText(heading: string): string {
  return heading
    .split(/(`[^`]*`)/)
    .map((part) =>
      /^`[^`]*`$/.test(part)
        ? part.slice(1, -1)
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
            .replace(/<[^>]+>/g, "")
            .replace(/\*+/g, "")
            // An underscore at a word's edge marks emphasis; one inside a word is a character.
            .replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, "$1"),
    )
    .join("");
}

/** Every anchor a Markdown file has: its headings' slugs, repeated slugs numbered as GitHub numbers them. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of prose(readFileSync(file, "utf8")).split("\n")) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The targets of a page's Markdown links and images, outside code. */
function linksOf(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, "");
  const inline = text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g);
  const definitions = text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm);
  return [...inline, ...definitions].map((m) => m[1]!);
}

/** What is wrong with one link of `page`, or undefined when it leads somewhere that exists. */
function deadLink(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return undefined;
  const [filePart, anchor] = target.split("#", 2) as [string, string | undefined];
  const file = filePart
    ? path.resolve(path.dirname(path.join(root, page)), decodeURIComponent(filePart))
    : path.join(root, page);
  if (!existsSync(file)) return `${page}: ${target} (no file ${path.relative(root, file)})`;
  if (anchor === undefined) return undefined;
  if (statSync(file).isDirectory() || !file.endsWith(".md"))
    return `${page}: ${target} (an anchor into a file that is not Markdown)`;
  if (!anchorsOf(file).has(decodeURIComponent(anchor))) return `${page}: ${target} (no heading #${anchor})`;
  return undefined;
}

describe("README and docs/", () => {
  it("slugs headings as GitHub does", () => {
    expect(headingSlug("Running on PostgreSQL")).toBe("running-on-postgresql");
    expect(headingSlug("The `jsont` CLI: render, check")).toBe("the-jsont-cli-render-check");
    expect(headingSlug("API keys & the commerce API")).toBe("api-keys--the-commerce-api");
    expect(headingSlug("Payments (test cards, **Stripe**)")).toBe("payments-test-cards-stripe");
    expect(headingSlug("Site archives (format version 1)")).toBe("site-archives-format-version-1");
    expect(headingSlug("`PAGE_CACHE_MB` and _emphasis_ in snake_case")).toBe(
      "page_cache_mb-and-emphasis-in-snake_case",
    );
    expect(headingSlug("How to add…")).toBe("how-to-add");
  });

  it("every relative link and anchor leads to a file and heading that exist", () => {
    const dead = pages.flatMap((page) =>
      linksOf(readFileSync(path.join(root, page), "utf8")).flatMap((target) => deadLink(page, target) ?? []),
    );
    expect(dead).toEqual([]);
  });

  it("finds links outside code, and tells a dead link or anchor from a live one", () => {
    expect(deadLink("README.md", "docs/no-such-page.md")).toContain("no file docs/no-such-page.md");
    expect(deadLink("README.md", "docs/configuration.md#no-such-heading")).toContain("no heading");
    expect(deadLink("docs/api.md", "configuration.md#the-server")).toBeUndefined();
    expect(deadLink("README.md", "https://example.com/#anything")).toBeUndefined();
    expect(
      linksOf("[a](docs/x.md#y) ![b](<img.png>)\n[ref]: ./z.md\n```\n[no](code.md)\n```\n`[no](span.md)`"),
    ).toEqual(["docs/x.md#y", "img.png", "./z.md"]);
  });

  it("README.md is at most 150 lines", () => {
    const lines = readFileSync(path.join(root, "README.md"), "utf8").replace(/\n$/, "").split("\n");
    expect(lines.length).toBeLessThanOrEqual(150);
  });
});

/** Source files (not build output) under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ["node_modules", "build", "dist"].includes(entry.name) ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

/** The environment variables a source file reads: `process.env.X`, `env.X`, `env["X"]` and helpers given `(env, "X"`. */
export function envReads(source: string): string[] {
  const patterns = [
    /\benv\.([A-Z][A-Z0-9_]*)\b/g,
    /\benv\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\]/g,
    /\(\s*env\s*,\s*["'`]([A-Z][A-Z0-9_]*)["'`]/g,
  ];
  return [...new Set(patterns.flatMap((re) => [...source.matchAll(re)].map((m) => m[1]!)))];
}

describe("docs/configuration.md", () => {
  const codeDirs = [
    "apps/server/src",
    "apps/server/test",
    "scripts",
    ...readdirSync(path.join(root, "packages")).map((p) => `packages/${p}/src`),
  ].filter((d) => existsSync(path.join(root, d)));

  it("reads variables the ways the code reads them", () => {
    expect(
      envReads(
        'env.PORT ?? "3000"; process.env.DATA_DIR; env["LOG_LEVEL"]; positiveInt(env, "PAGE_CACHE_MB", 1)',
      ),
    ).toEqual(["PORT", "DATA_DIR", "LOG_LEVEL", "PAGE_CACHE_MB"]);
  });

  it("documents every environment variable the server, its scripts and packages read", () => {
    const config = readFileSync(path.join(root, "apps/server/src/config.ts"), "utf8");
    expect(envReads(config).length).toBeGreaterThan(20);
    const documented = readFileSync(path.join(docsDir, "configuration.md"), "utf8");
    const missing = codeDirs
      .flatMap((dir) => sourceFiles(path.join(root, dir)))
      .filter((file) => file !== fileURLToPath(import.meta.url))
      .flatMap((file) =>
        envReads(readFileSync(file, "utf8"))
          .filter((name) => !documented.includes(`\`${name}\``))
          .map((name) => `${name} (read in ${path.relative(root, file)})`),
      );
    expect(missing).toEqual([]);
  });
});
