/** The `jsont` command line tool, run through its bin launcher as a theme developer would. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/jsont.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "jsont-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function jsont(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("jsont render", () => {
  it("renders a template with partials and the locale's CLDR data loaded", () => {
    const template = file("page.jsont", "{t|datetime date:long} {m|money} {@|apply card}");
    const json = file(
      "page.json",
      '{"t": 1650000000000, "m": {"decimalValue": "12.5", "currencyCode": "EUR"}, "name": "A&B"}',
    );
    const partials = file("partials.json", '{"card": "<b>{name|html}</b>"}');
    const r = jsont(
      "render",
      "--template",
      template,
      "--json",
      json,
      "--partials",
      partials,
      "--locale",
      "de-DE",
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("15. April 2022 12,50\u00a0€ <b>A&amp;B</b>");
  });

  it("reports errors as file:line:column on stderr and exits with 1", () => {
    const template = file("broken.jsont", "ok {a|nope}\n{.section a}");
    const r = jsont("render", "--template", template, "--json", file("a.json", '{"a": 1}'));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("ok 1\n");
    expect(r.stderr).toMatch(/broken\.jsont:1:\d+: syntax error: .*nope/);
  });
});
