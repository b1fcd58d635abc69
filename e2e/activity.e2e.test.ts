/**
 * The activity log in the dashboard: the owner invites a Website editor (through the API, the link
 * read from the site's outbox), the editor accepts in a second browser context and adds a URL
 * mapping, the owner removes it, and the owner sees both people's changes in Settings → Activity,
 * filters them by person, on a desktop and on a 432px phone.
 */
import { describe, expect, inject, it } from "vitest";
import { PHONE, browser, screenshot, useBrowser } from "./browser.js";
import { DEMO_OWNER } from "../apps/server/test/fixtures.js";
import { demoOwnerLogIn, ownerCall } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

const editorEmail = `editor-${Date.now()}@example.com`;
const from = `/old-activity-${Date.now()}`;

describe("Settings → Activity", () => {
  it("shows the owner's and a Website editor's changes, by person", async () => {
    const { page, siteId, errors, context } = await demoOwnerLogIn(browser, base);
    const site = `/api/owner/sites/${siteId}`;
    await ownerCall(page, "POST", `${site}/invitations`, { email: editorEmail, roles: ["website_editor"] });
    const { emails } = await ownerCall<{ emails: { to: string; text: string }[] }>(
      page,
      "GET",
      `${site}/outbox`,
    );
    const mail = emails.find((e) => e.to === editorEmail);
    const token = decodeURIComponent(/accept\?token=([A-Za-z0-9_%-]+)/.exec(mail!.text)![1]!);

    // The editor, in a browser of their own, accepts and changes something.
    const editor = await browser.newContext();
    const editorPage = await editor.newPage();
    await editorPage.goto(`${base}/`);
    const crumb = (await editor.cookies()).find((c) => c.name === "crumb")!.value;
    const headers = { "x-csrf-token": crumb };
    const accepted = await editor.request.post(`${base}/api/owner/invitations/accept`, {
      data: { token, password: "a long enough password", name: "Wendy Editor" },
      headers,
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
    const added = await editor.request.post(`${base}${site}/redirects`, { data: { from, to: "/" }, headers });
    expect(added.status(), await added.text()).toBe(201);
    const redirectId = (await added.json()).redirect.id as string;
    await editor.close();

    // The owner removes the editor's mapping.
    await ownerCall(page, "DELETE", `${site}/redirects/${redirectId}`);

    await page.goto(`${base}/config/sites/${siteId}/settings/activity`);
    await page.getByRole("heading", { name: "Activity", level: 1 }).waitFor();
    const rows = page.getByRole("row");
    const editorRow = rows.filter({ hasText: editorEmail }).filter({ hasText: "Redirect created" });
    await editorRow.first().waitFor();
    await expect.poll(() => editorRow.first().textContent()).toContain("Fields: from, to");
    const ownerRow = rows.filter({ hasText: DEMO_OWNER.email }).filter({ hasText: "Redirect deleted" });
    await ownerRow.first().waitFor();
    expect(await ownerRow.first().textContent()).toContain(redirectId);
    await screenshot(page, "activity-desktop");

    // By person: only the editor's changes.
    await page.getByLabel("Person").selectOption({ label: editorEmail });
    await expect
      .poll(async () =>
        (await page.getByRole("row").allTextContents()).slice(1).every((r) => r.includes(editorEmail)),
      )
      .toBe(true);
    expect(await page.getByRole("row").count()).toBeGreaterThan(1);
    const csv = page.getByRole("link", { name: "Export CSV" });
    expect(await csv.getAttribute("href")).toContain("/activity/export?actor=");
    const download = await page.request.get(`${base}${await csv.getAttribute("href")}`);
    expect(download.status()).toBe(200);
    expect(await download.text()).toContain(`${editorEmail}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("reads on a 432px phone", async () => {
    const { page, siteId, errors, context } = await demoOwnerLogIn(browser, base, PHONE);
    await page.goto(`${base}/config/sites/${siteId}/settings/activity`);
    await page.getByRole("heading", { name: "Activity", level: 1 }).waitFor();
    await page.getByRole("row").filter({ hasText: editorEmail }).first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "activity-phone");
    expect(errors).toEqual([]);
    await context.close();
  });
});
