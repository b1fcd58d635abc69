/**
 * Developer mode: the owner lists, reads, saves and reverts the site's own versions of its
 * theme's templates; syntax errors come back with their line and column and save nothing; a save
 * is live on the published site at once (the page cache drops) and never on another site; a
 * draft shows only in its owner's editing frame; an override that fails while rendering never
 * takes a page down; API keys with the templates scopes open the same calls to the CLI.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { owner, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { Browser, eventually, ownerWithSite } from "../../../test/harness.js";
import { DRAFT_TTL_MS, MSG_NO_SUCH_TEMPLATE, MSG_TOO_LARGE } from "./service.js";

let eve: Browser;
let eveSiteId: string;
let eveHost: string;
/** Moves the app's clock forward (drafts expire). */
let shift = 0;

const base = (site = siteId) => `/api/owner/sites/${site}/templates`;
const visit = (url: string, host = "localhost") => t.app.inject({ url, headers: { host } });
/** A change shows a moment after its commit on PostgreSQL (the page cache hears of it by NOTIFY). */
const homeHtml = (host?: string) => async () => (await visit("/", host)).body;
const put = (name: string, source: string, who = owner, site = siteId) =>
  who.request({ method: "PUT", url: `${base(site)}/${name}`, payload: { source } });
const footerWith = (mark: string) =>
  `<footer class="site-footer"><p>${mark}</p>\n{website.siteTitle|html}</footer>`;

useDemoApp({ clock: { now: () => new Date(Date.now() + shift) } });
beforeAll(async () => {
  ({ owner: eve, siteId: eveSiteId, host: eveHost } = await ownerWithSite(t, "eve@example.com"));
});

describe("the template list and sources", () => {
  it("is in the OpenAPI", async () => {
    const paths = (await visit("/api/openapi.json")).json().paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths["/api/owner/sites/{siteId}/templates"] ?? {})).toContain("get");
    expect(Object.keys(paths["/api/owner/sites/{siteId}/templates/{name}"] ?? {}).sort()).toEqual([
      "delete",
      "get",
      "put",
    ]);
  });

  it("lists every template and partial of the theme, none overridden at first", async () => {
    const res = await owner.request({ url: base() });
    expect(res.statusCode).toBe(200);
    const list = res.json().templates as { name: string; overridden: boolean }[];
    const names = list.map((x) => x.name);
    for (const n of [
      "site",
      "page",
      "footer",
      "header",
      "blog.list",
      "products.item",
      "block.text",
      "icon.bag",
    ])
      expect(names).toContain(n);
    expect(list.every((x) => x.overridden === false)).toBe(true);
    expect([...names].sort()).toEqual(names);
  });

  it("gives a template's source and the theme's", async () => {
    const res = await owner.request({ url: `${base()}/footer` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ name: "footer", overridden: false });
    expect(body.source).toContain('<footer class="site-footer">');
    expect(body.source).toBe(body.themeSource);
  });

  it("refuses names the theme does not have, and malformed names", async () => {
    for (const call of [
      owner.request({ url: `${base()}/no-such-template` }),
      put("no-such-template", "<p>x</p>"),
      owner.request({ method: "DELETE", url: `${base()}/no-such-template` }),
    ]) {
      const res = await call;
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(MSG_NO_SUCH_TEMPLATE);
    }
    expect((await owner.request({ url: `${base()}/Bad_Name` })).statusCode).toBe(400);
    expect((await owner.request({ url: `${base()}/..%2Fsite` })).statusCode).toBe(400);
  });
});

describe("saving and reverting", () => {
  it("answers a syntax error with its line and column, saving nothing", async () => {
    const res = await put("footer", "<footer>\n  {.section website}\n    {.bogus}\n  {.end}\n</footer>");
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe("template_syntax");
    expect(error.message).toBe("invalid instruction '.bogus'");
    expect(error).toMatchObject({ line: 3, column: 5 });
    expect(error.fields.source).toBe("Line 3, column 5: invalid instruction '.bogus'");
    const unclosed = await put(
      "footer",
      "<footer>\n{.repeated section navigation}\n<a>{title}</a>\n</footer>",
    );
    expect(unclosed.json().error).toMatchObject({ code: "template_syntax", line: 2, column: 1 });
    expect(unclosed.json().error.message).toContain("unclosed block");
    expect((await owner.request({ url: `${base()}/footer` })).json().overridden).toBe(false);
  });

  it("refuses a source over 256 KB and a call without the crumb", async () => {
    const big = await put("footer", `<footer>${"x".repeat(257 * 1024)}</footer>`);
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toBe(MSG_TOO_LARGE);
    const noCrumb = await owner.request({
      method: "PUT",
      url: `${base()}/footer`,
      payload: { source: footerWith("NO CRUMB") },
      withCrumb: false,
    });
    expect(noCrumb.statusCode).toBe(403);
    expect((await owner.request({ url: `${base()}/footer` })).json().overridden).toBe(false);
  });

  it("makes a save live on the published site at once, and a revert too", async () => {
    await visit("/");
    expect((await visit("/")).headers["x-page-cache"]).toBe("hit");
    const saved = await put("footer", footerWith("Made by hand in Lisbon"));
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ name: "footer", overridden: true });
    expect(saved.json().source).toContain("Made by hand in Lisbon");
    expect(saved.json().themeSource).not.toContain("Made by hand");
    await eventually(homeHtml()).toContain("Made by hand in Lisbon");
    // Every page of the site uses it, and the page cache keeps the new version.
    expect((await visit("/shop")).body).toContain("Made by hand in Lisbon");
    expect((await visit("/")).headers["x-page-cache"]).toBe("hit");
    const list = (await owner.request({ url: base() })).json().templates as {
      name: string;
      overridden: boolean;
    }[];
    expect(list.filter((x) => x.overridden).map((x) => x.name)).toEqual(["footer"]);

    const again = await put("footer", footerWith("Made by hand in Porto"));
    expect(again.statusCode).toBe(200);
    await eventually(homeHtml()).toContain("Made by hand in Porto");

    const reverted = await owner.request({ method: "DELETE", url: `${base()}/footer` });
    expect(reverted.statusCode).toBe(200);
    expect(reverted.json().overridden).toBe(false);
    await eventually(homeHtml()).not.toContain("Made by hand");
    expect((await visit("/")).body).toContain('<footer class="site-footer">');
    expect((await owner.request({ url: `${base()}/footer` })).json().overridden).toBe(false);
  });
});

describe("tenancy", () => {
  it("never shows one site's override on another, nor lets another owner read or change it", async () => {
    expect((await put("footer", footerWith("Demo only footer"))).statusCode).toBe(200);
    await eventually(homeHtml()).toContain("Demo only footer");
    const eveHome = await visit("/", eveHost);
    expect(eveHome.statusCode).toBe(200);
    expect(eveHome.body).toContain("<title>Eve's Shop</title>");
    expect(eveHome.body).not.toContain("Demo only footer");
    const eveFooter = await eve.request({ url: `${base(eveSiteId)}/footer` });
    expect(eveFooter.json()).toMatchObject({ overridden: false });
    expect(eveFooter.json().source).not.toContain("Demo only footer");
    // Eve cannot reach the demo site's templates; the demo owner cannot reach Eve's.
    expect((await eve.request({ url: base() })).statusCode).toBe(404);
    expect((await eve.request({ url: `${base()}/footer` })).statusCode).toBe(404);
    expect((await put("footer", footerWith("Eve was here"), eve)).statusCode).toBe(404);
    expect((await eve.request({ method: "DELETE", url: `${base()}/footer` })).statusCode).toBe(404);
    expect((await put("footer", footerWith("Owner on Eve's"), owner, eveSiteId)).statusCode).toBe(404);
    expect((await new Browser(t.app).request({ url: base() })).statusCode).toBe(401);
    // Eve's own override is hers alone.
    expect((await put("footer", footerWith("Eve's own footer"), eve, eveSiteId)).statusCode).toBe(200);
    await eventually(homeHtml(eveHost)).toContain("Eve's own footer");
    expect((await visit("/")).body).not.toContain("Eve's own footer");
    expect((await visit("/")).body).toContain("Demo only footer");
    await owner.request({ method: "DELETE", url: `${base()}/footer` });
    await eventually(homeHtml()).not.toContain("Demo only footer");
  });
});

describe("rendering failures", () => {
  it("serves the theme's version where an override fails while rendering, and shows the errors only in the owner's frame", async () => {
    const broken = '<footer class="site-footer">Broken footer {.include no-such-partial}</footer>';
    expect((await put("footer", broken)).statusCode).toBe(200);
    // The published page stays up with the theme's footer.
    await eventually(async () => (await visit("/")).statusCode).toBe(200);
    const page = await visit("/");
    expect(page.body).not.toContain("Broken footer");
    expect(page.body).toContain('<nav class="footer-nav"');
    expect(page.body).not.toContain("data-template-errors");
    // The owner's editing view shows the override with what went wrong.
    await owner.request({
      method: "PUT",
      url: `/api/owner/sites/${siteId}/editing-mode`,
      payload: { preview: true },
    });
    const framed = await owner.request({ url: "/" });
    expect(framed.body).toContain("Broken footer");
    expect(framed.body).toContain("data-template-errors");
    expect(framed.body).toContain("missing partial 'no-such-partial'");
    expect(framed.body).toContain("Your templates (footer) have errors");
    await owner.request({
      method: "PUT",
      url: `/api/owner/sites/${siteId}/editing-mode`,
      payload: { preview: false },
    });
    await owner.request({ method: "DELETE", url: `${base()}/footer` });
  });
});

describe("drafts for the editing frame", () => {
  it("shows an owner's unsaved edit only in that owner's preview, never on the published site", async () => {
    const draft = await owner.request({
      method: "PUT",
      url: `${base()}/footer/draft`,
      payload: { source: footerWith("Draft footer, not saved") },
    });
    expect(draft.statusCode).toBe(200);
    expect((await visit("/")).body).not.toContain("Draft footer");
    // Without the preview cookie the owner sees the published site too.
    expect((await owner.request({ url: "/" })).body).not.toContain("Draft footer");
    await owner.request({
      method: "PUT",
      url: `/api/owner/sites/${siteId}/editing-mode`,
      payload: { preview: true },
    });
    expect((await owner.request({ url: "/" })).body).toContain("Draft footer, not saved");
    // A visitor who sets the preview cookie by hand sees nothing of it.
    const visitor = new Browser(t.app);
    visitor.cookies.set("atelier_preview", "1");
    expect((await visitor.request({ url: "/" })).body).not.toContain("Draft footer");
    // Nor does another owner of another site, nor the template itself.
    expect((await owner.request({ url: `${base()}/footer` })).json().overridden).toBe(false);
    expect(
      (await eve.request({ method: "PUT", url: `${base()}/footer/draft`, payload: { source: "x" } }))
        .statusCode,
    ).toBe(404);
    // A draft left behind (a closed tab) stops showing after a while.
    shift = DRAFT_TTL_MS + 60_000;
    expect((await owner.request({ url: "/" })).body).not.toContain("Draft footer");
    shift = 0;
    expect((await owner.request({ url: "/" })).body).toContain("Draft footer, not saved");
    // Dropped: the frame shows the saved version again.
    expect((await owner.request({ method: "DELETE", url: `${base()}/footer/draft` })).statusCode).toBe(200);
    expect((await owner.request({ url: "/" })).body).not.toContain("Draft footer");
    await owner.request({
      method: "PUT",
      url: `/api/owner/sites/${siteId}/editing-mode`,
      payload: { preview: false },
    });
  });
});

describe("API keys (the jsont CLI)", () => {
  const createKey = async (scopes: string[], who = owner, site = siteId) => {
    const res = await who.request({
      method: "POST",
      url: `/api/owner/sites/${site}/api-keys`,
      payload: { name: "Theme work", scopes },
    });
    expect(res.statusCode).toBe(201);
    return res.json().key as string;
  };
  const withKey = (key: string, opts: { method?: "GET" | "PUT" | "DELETE"; url: string; payload?: object }) =>
    t.app.inject({ ...opts, headers: { authorization: `Bearer ${key}` } });

  it("opens the calls to a key of the site with the templates scopes, without the crumb", async () => {
    const writeKey = await createKey(["templates.write"]);
    expect((await withKey(writeKey, { url: base() })).statusCode).toBe(200);
    const saved = await withKey(writeKey, {
      method: "PUT",
      url: `${base()}/footer`,
      payload: { source: footerWith("Pushed from the CLI") },
    });
    expect(saved.statusCode).toBe(200);
    await eventually(homeHtml()).toContain("Pushed from the CLI");
    const bad = await withKey(writeKey, {
      method: "PUT",
      url: `${base()}/header`,
      payload: { source: "{.end}" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: "template_syntax", line: 1, column: 1 });
    expect((await withKey(writeKey, { method: "DELETE", url: `${base()}/footer` })).statusCode).toBe(200);

    const readKey = await createKey(["templates.read"]);
    expect((await withKey(readKey, { url: `${base()}/footer` })).statusCode).toBe(200);
    const refused = await withKey(readKey, {
      method: "PUT",
      url: `${base()}/footer`,
      payload: { source: "x" },
    });
    expect(refused.statusCode).toBe(403);
    // templates.* are the design scopes now: the refusal names the one the call needs.
    expect(refused.json().error.message).toBe("This API key does not have the design.write scope.");

    const ordersKey = await createKey(["orders.read"]);
    expect((await withKey(ordersKey, { url: base() })).statusCode).toBe(403);
    // A key names its own site only; a bad key is refused.
    expect((await withKey(writeKey, { url: base(eveSiteId) })).statusCode).toBe(404);
    const eveKey = await createKey(["templates.write"], eve, eveSiteId);
    expect((await withKey(eveKey, { method: "DELETE", url: `${base()}/footer` })).statusCode).toBe(404);
    expect((await withKey("atl_not-a-real-key", { url: base() })).statusCode).toBe(401);
  });
});
