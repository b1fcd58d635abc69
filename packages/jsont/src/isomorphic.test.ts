/**
 * The engine core runs in the browser too (the dashboard previews templates): outside cli/
 * and the tests, no source file may import a Node built-in or use a Node-only global.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL(".", import.meta.url));

function coreSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "cli") out.push(...coreSources(path));
    } else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) {
      out.push(path);
    }
  }
  return out;
}

const NODE_ONLY: Array<[string, RegExp]> = [
  ["a node: import", /\bfrom\s+["']node:|import\(\s*["']node:/],
  [
    "a bare Node built-in import",
    /\bfrom\s+["'](fs|path|os|url|util|crypto|child_process|module|stream|buffer|process)(\/[^"']*)?["']/,
  ],
  ["require()", /\brequire\s*\(/],
  ["process", /\bprocess\s*\.\s*(env|argv|cwd|exit|stdout|stderr|platform|versions)\b/],
  ["Buffer", /\bBuffer\s*\.\s*(from|alloc|concat|isBuffer)\b/],
  ["__dirname", /\b__(dirname|filename)\b/],
];

describe("isomorphic engine core", () => {
  it("uses no Node-only API outside cli/", () => {
    const files = coreSources(SRC);
    expect(files.length).toBeGreaterThan(30);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const [what, re] of NODE_ONLY) {
        if (re.test(text)) found.push(`${relative(SRC, file)}: ${what}`);
      }
    }
    expect(found).toEqual([]);
  });
});
