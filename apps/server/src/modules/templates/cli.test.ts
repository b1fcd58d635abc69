/**
 * `npx jsont pull|push` against a started server over real HTTP, with an API key of the site:
 * pull writes the site's own templates (or, with --all, every template) as files; push checks
 * every file locally first (errors as file:line:column, nothing sent), then uploads the changed
 * ones, which are live on the published site at once.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { owner, siteApi, t, useDemoApp } from "../../../test/demo-app.js";
import { eventually } from "../../../test/harness.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const BIN = path.join(ROOT, "packages/jsont/bin/jsont.mjs");

let origin: string;
let key: string;
const dirs: string[] = [];

function jsont(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "jsont-sync-"));
  dirs.push(dir);
  return dir;
};
const home = async () => (await fetch(`${origin}/`)).text();

useDemoApp();
beforeAll(async () => {
  const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
  origin = address.replace("127.0.0.1", "localhost");
  const created = await owner.request({
    method: "POST",
    url: `${siteApi}/api-keys`,
    payload: { name: "Theme developer", scopes: ["templates.write"] },
  });
  expect(created.statusCode).toBe(201);
  key = created.json().key;
});
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("jsont pull and push", () => {
  it("pulls nothing but a note while the site has no templates of its own, and every template with --all", async () => {
    const dir = tempDir();
    const none = await jsont("pull", "--site", origin, "--key", key, dir);
    expect(none.code).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    expect(none.stdout).toContain("no templates of its own");
    const all = await jsont("pull", "--site", origin, "--key", key, "--all", dir);
    expect(all.code).toBe(0);
    const files = readdirSync(dir);
    expect(files).toContain("footer.jsont");
    expect(files).toContain("site.jsont");
    const themeFooter = (await owner.request({ url: `${siteApi}/templates/footer` })).json();
    expect(readFileSync(path.join(dir, "footer.jsont"), "utf8")).toBe(themeFooter.themeSource);
  });

  it("refuses a push with a syntax error, naming file, line and column, and sends nothing", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "footer.jsont"), "<footer>Good one</footer>");
    writeFileSync(
      path.join(dir, "header.jsont"),
      "<header>\n  {.section website}\n  {.bogus}\n{.end}</header>",
    );
    const res = await jsont("push", "--site", origin, "--key", key, dir);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${path.join(dir, "header.jsont")}:3:3: invalid instruction '.bogus'`);
    expect(res.stderr).toContain("nothing pushed");
    const footer = (await owner.request({ url: `${siteApi}/templates/footer` })).json();
    expect(footer.overridden).toBe(false);
  });

  it("pushes the changed files, live on the site at once, then pulls them back", async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, "footer.jsont"),
      '<footer class="site-footer"><p>Pushed with jsont</p>{website.siteTitle|html}</footer>',
    );
    const res = await jsont("push", "--site", origin, "--key", key, dir);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("pushed footer.jsont");
    expect(res.stdout).toContain("1 pushed, 0 unchanged");
    await eventually(home).toContain("Pushed with jsont");
    // Unchanged files are not sent again.
    const again = await jsont("push", "--site", origin, "--key", key, dir);
    expect(again.stdout).toContain("0 pushed, 1 unchanged");

    const back = tempDir();
    const pulled = await jsont("pull", "--site", origin, "--key", key, back);
    expect(pulled.code).toBe(0);
    expect(readdirSync(back)).toEqual(["footer.jsont"]);
    expect(readFileSync(path.join(back, "footer.jsont"), "utf8")).toContain("Pushed with jsont");
  });

  it("reports a file the theme has no template for, and a key that is not valid", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "no-such-template.jsont"), "<p>x</p>");
    const res = await jsont("push", "--site", origin, "--key", key, dir);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("the site's theme has no template 'no-such-template'");
    const badKey = await jsont("pull", "--site", origin, "--key", "atl_wrong", tempDir());
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain("This API key is not valid or has been deleted.");
    const usage = await jsont("push", "--key", key, dir);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--site is required");
  });
});
