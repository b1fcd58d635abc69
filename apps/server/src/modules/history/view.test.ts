/**
 * An older version of a page or post, rendered by the site for the History panel's preview: the
 * version's text inside the site's theme (not today's text), read-only, for a member who may read
 * the content; another site's version is not found, and only page and post versions are shown.
 */
import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { siteApi as base, owner, ownerSends, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { Browser, ownerWithSite } from "../../../test/harness.js";
import { outboundEmails } from "../../db/schema.js";
import { VERSION_VIEW_HEADER } from "../../render/version-view.js";

let now = new Date("2026-11-20T12:00:00Z");
useDemoApp({ clock: { now: () => new Date(now) } });
const later = () => {
  now = new Date(now.getTime() + 10 * 60_000);
};

type Version = { id: string; summary: string };
async function versionsOf(entity: string): Promise<Version[]> {
  const res = await owner.request({ url: `${base}/history?entity=${encodeURIComponent(entity)}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().versions;
}
const view = (versionId: string, as = owner, site = siteId) =>
  as.request({ url: `/api/owner/sites/${site}/history/${versionId}/view` });

const layout = (words: string) => ({
  rows: [{ columns: [{ span: 12, blocks: [{ id: "t1", type: "text", html: `<p>${words}</p>` }] }] }],
});

describe("a page or post version shown on the site", () => {
  let pageId: string;
  let oldPage: string;
  let title: string;
  beforeAll(async () => {
    pageId = (await ownerSends("POST", "/pages", { kind: "page", title: "Our Story" })).json().page.id;
    later();
    expect(
      (await ownerSends("POST", `/pages/${pageId}/publish`, { layout: layout("Founded in a barn.") }))
        .statusCode,
    ).toBe(200);
    later();
    expect(
      (await ownerSends("POST", `/pages/${pageId}/publish`, { layout: layout("Now in a studio.") }))
        .statusCode,
    ).toBe(200);
    const versions = await versionsOf(`page:${pageId}`);
    oldPage = versions[1]!.id;
    title = (await owner.request({ url: `${base}` })).json().site.title;
  });

  it("renders the old text in the site's theme, not today's, and leaves the site as it is", async () => {
    const res = await view(oldPage);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body).toContain("Founded in a barn.");
    expect(res.body).not.toContain("Now in a studio.");
    // The whole page of the site: its header with the site's title, its stylesheet.
    expect(res.body).toContain(title);
    expect(res.body).toMatch(/<link[^>]+stylesheet/);
    // Its links stay in the dashboard's frame of the site.
    expect(res.body).toContain(`href="/config/frame/${siteId}/`);
    // Visitors see today's page; a made-up token in the header changes nothing.
    const live = await t.app.inject({
      url: "/our-story",
      headers: { host: "localhost", [VERSION_VIEW_HEADER]: "made-up" },
    });
    expect(live.body).toContain("Now in a studio.");
    expect(live.body).not.toContain("Founded in a barn.");
  });

  it("renders an older version of a blog post", async () => {
    const pages = (await owner.request({ url: `${base}/pages` })).json().pages as {
      id: string;
      kind: string;
    }[];
    const blog = pages.find((p) => p.kind === "blog")!;
    const items = `/collections/${blog.id}/items`;
    const made = await ownerSends("POST", items, {
      title: "Spring Glazes",
      urlId: "spring-glazes",
      body: "<p>Celadon first.</p>",
      status: "published",
    });
    expect(made.statusCode, made.body).toBe(201);
    const itemId = made.json().item.id;
    later();
    const edited = await ownerSends("PUT", `${items}/${itemId}`, {
      title: "Spring Glazes",
      urlId: "spring-glazes",
      body: "<p>Tenmoku first.</p>",
      status: "published",
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const [, first] = await versionsOf(`item:${itemId}`);
    const res = await view(first!.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain("Celadon first.");
    expect(res.body).not.toContain("Tenmoku first.");
  });

  it("answers a version of another site as not found, and another owner as not found", async () => {
    const other = await ownerWithSite(t, "view-stranger@example.com");
    // The stranger asks for our version under their own site: not theirs.
    const theirs = await view(oldPage, other.owner, other.siteId);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.message).toBe("No such version.");
    // ...and under ours: not their site.
    expect((await view(oldPage, other.owner)).statusCode).toBe(404);
    // Our owner asks for a version id under the stranger's site.
    expect((await view(oldPage, owner, other.siteId)).statusCode).toBe(404);
  });

  it("refuses a member or API key that may not read the content, and versions that are not pages or posts", async () => {
    const made = await owner.request({
      method: "POST",
      url: `${base}/api-keys`,
      payload: { name: "Stock only", scopes: ["products.read"] },
    });
    expect(made.statusCode, made.body).toBe(201);
    // A member whose roles do not read the site's content (an analytics viewer): refused.
    const invited = await owner.request({
      method: "POST",
      url: `${base}/invitations`,
      payload: { email: "figures@example.com", roles: ["analytics_viewer"] },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const [mail] = await t.database.db
      .select()
      .from(outboundEmails)
      .where(eq(outboundEmails.toAddress, "figures@example.com"))
      .orderBy(desc(outboundEmails.createdAt));
    const token = decodeURIComponent(/accept\?token=([A-Za-z0-9_%-]+)/.exec(mail!.textBody)![1]!);
    const viewer = new Browser(t.app);
    await viewer.visit("/");
    const joined = await viewer.request({
      method: "POST",
      url: "/api/owner/invitations/accept",
      payload: { token, password: "long enough password", name: "Fig Viewer" },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const refused = await view(oldPage, viewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain("Founded in a barn.");

    const res = await t.app.inject({
      url: `${base}/history/${oldPage}/view`,
      headers: { authorization: `Bearer ${made.json().key}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain("Founded in a barn.");

    await ownerSends("PATCH", "/design", { customCss: "body { color: #222; }" });
    const [design] = await versionsOf("design:");
    const bad = await view(design!.id);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe("Only a version of a page or post can be shown on the site.");
    // Ids outside the params' schema are refused in plain words.
    expect((await view("x".repeat(300))).statusCode).toBe(400);
  });
});
