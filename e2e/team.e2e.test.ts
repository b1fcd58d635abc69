/**
 * A site run by a team, in the browser: the owner invites a Website editor from Settings →
 * Permissions; the editor opens the emailed link (read from the site's outbox) in a browser of
 * their own, creates their account, edits and publishes a page, finds no Orders in the menu and
 * "Your role does not allow this." at the Orders URL. The owner resends and revokes another
 * invitation, is refused a transfer with a wrong password, and removes the editor again.
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, PHONE, browser, screenshot, useBrowser, scaled } from "./browser.js";
import { addTextBlock, newPage } from "./editor.js";
import { demoOwnerLogIn, invitationLink, inviteByEmail } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

const stamp = Date.now();
const editorEmail = `editor-${stamp}@example.com`;
const password = "a long enough password";

/** The accept link of the newest invitation email to `email`, as the invited person opens it. */
const linkFromOutbox = async (page: Page, siteId: string, email: string) =>
  `${base}${await invitationLink(page, base, siteId, email)}`;

describe("a site run by a team", () => {
  it("the owner invites a Website editor, who joins, edits and publishes a page, and cannot open Orders", {
    timeout: scaled(180_000),
  }, async () => {
    const owner = await demoOwnerLogIn(browser, base);
    const { page, siteId } = owner;
    const edited = await newPage(page, siteId, `Team Notes ${stamp}`);

    // Settings → Permissions: invite by email with the Website editor role.
    await page
      .getByRole("link", { name: /Atelier Demo/ })
      .first()
      .click();
    await page.getByRole("link", { name: "Permissions", exact: true }).click();
    await page.getByRole("heading", { name: "Permissions", level: 1 }).waitFor();
    await page.getByRole("cell", { name: /Owner/ }).first().waitFor();
    await page.getByRole("button", { name: "Invite a person" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite a person" });
    // Sending without a role is refused with the server's words.
    await dialog.getByLabel("Email").fill(editorEmail);
    await dialog.getByRole("button", { name: "Send the invitation" }).click();
    await dialog.getByText("Please choose at least one role.").first().waitFor();
    await dialog.getByRole("checkbox", { name: /Website editor/ }).check();
    await screenshot(page, "team-invite-desktop");
    await dialog.getByRole("button", { name: "Send the invitation" }).click();
    await dialog.waitFor({ state: "hidden" });
    const pending = page.getByRole("region", { name: "Pending invitations" });
    await pending.getByRole("cell", { name: editorEmail, exact: true }).waitFor();
    await expect(pending.getByRole("cell", { name: "Website editor" }).count()).resolves.toBeGreaterThan(0);

    // The editor opens the emailed link in a browser of their own and creates an account.
    const link = await linkFromOutbox(page, siteId, editorEmail);
    const editorContext = await browser.newContext({ viewport: DESKTOP });
    const editor = await editorContext.newPage();
    const editorErrors: string[] = [];
    editor.on("pageerror", (e) => editorErrors.push(e.message));
    await editor.goto(link);
    await editor.getByRole("heading", { name: "Join Atelier Demo" }).waitFor();
    await editor.getByText(`Create your Atelier account for ${editorEmail}.`).waitFor();
    await screenshot(editor, "team-accept-desktop");
    await editor.getByLabel("Your name").fill("Eddie Editor");
    await editor.getByLabel("New password", { exact: true }).fill(password);
    await editor.getByLabel("New password again").fill(password);
    await editor.getByRole("button", { name: "Accept and join" }).click();
    await editor.waitForURL(new RegExp(`/config/sites/${siteId}$`));
    await editor.getByRole("heading", { name: "Atelier Demo", level: 1 }).waitFor();

    // The menu shows what the role allows, and nothing else.
    const menu = editor.getByRole("navigation");
    await menu.getByRole("link", { name: "Pages", exact: true }).waitFor();
    await expect(menu.getByRole("link", { name: "Custom CSS" }).count()).resolves.toBe(1);
    for (const hidden of ["Orders", "Products", "Billing", "Permissions", "Site settings", "API keys"])
      await expect(menu.getByRole("link", { name: hidden, exact: true }).count(), hidden).resolves.toBe(0);
    // The overview leaves out the cards of areas the role does not reach (orders, traffic).
    await expect(editor.getByRole("link", { name: "Orders", exact: true }).count()).resolves.toBe(0);
    await screenshot(editor, "team-editor-overview-desktop");

    // Edits and publishes a page.
    await menu.getByRole("link", { name: "Pages", exact: true }).click();
    await editor.getByRole("heading", { name: "Pages", level: 1 }).waitFor();
    await editor.goto(`${base}/config/sites/${siteId}/pages/${edited.id}/edit`);
    await editor.getByText(`Editing: Team Notes ${stamp}`).waitFor();
    await addTextBlock(editor, "Written by the editor of the team.");
    await editor.getByRole("button", { name: "Publish" }).click();
    await expect
      .poll(() => editor.locator(".save-state").textContent(), { timeout: 15_000 })
      .toBe("Published");
    const published = await (await fetch(`${base}${edited.fullUrl}`)).text();
    expect(published).toContain("Written by the editor of the team.");

    // Orders by its URL: the screen says the role does not allow it (and the API refuses too).
    await editor.goto(`${base}/config/sites/${siteId}/ops/orders`);
    await editor.getByText("Your role does not allow this.").waitFor();
    await screenshot(editor, "team-not-allowed-desktop");
    await editor.setViewportSize(PHONE);
    await editor.reload();
    await editor.getByText("Your role does not allow this.").waitFor();
    await screenshot(editor, "team-not-allowed-phone");
    const orders = await editor.request.get(`${base}/api/owner/sites/${siteId}/orders`);
    expect(orders.status()).toBe(403);
    expect((await orders.json()).error).toEqual({
      code: "forbidden",
      message: "Your role does not allow this.",
    });
    expect(editorErrors).toEqual([]);
    await editorContext.close();

    // The owner sees the editor as a member with the role and a last sign-in.
    await page.reload();
    const members = page.getByRole("region", { name: "Members" });
    const row = members.getByRole("row", { name: new RegExp(editorEmail) });
    await row.getByRole("cell", { name: "Website editor" }).waitFor();
    await expect(row.getByText("Never").count()).resolves.toBe(0);
    await expect(pending.getByRole("cell", { name: editorEmail, exact: true }).count()).resolves.toBe(0);
    await screenshot(page, "team-permissions-desktop");
    await page.setViewportSize(PHONE);
    await screenshot(page, "team-permissions-phone");
    await page.setViewportSize(DESKTOP);
    expect(owner.errors).toEqual([]);
    await owner.context.close();
  });

  it("resends and revokes an invitation, refuses a transfer without the password, and removes a member", {
    timeout: scaled(180_000),
  }, async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const laterEmail = `later-${stamp}@example.com`;
    const firstLink = await inviteByEmail(page, base, siteId, laterEmail, [
      "store_manager",
      "analytics_viewer",
    ]);
    await page.goto(`${base}/config/sites/${siteId}/settings/permissions`);
    const pending = page.getByRole("region", { name: "Pending invitations" });
    await pending.getByRole("cell", { name: "Store manager, Analytics viewer" }).waitFor();

    await pending.getByRole("button", { name: `Resend the invitation of ${laterEmail}` }).click();
    await page.getByText(`Sent ${laterEmail} a new link, valid 7 days.`, { exact: false }).waitFor();
    // The first link no longer works: its page says so, on a phone too.
    const stranger = await browser.newPage({ viewport: PHONE });
    await stranger.goto(`${base}${firstLink}`);
    await stranger.getByRole("heading", { name: "This invitation link does not work" }).waitFor();
    await stranger.getByText("it was used, revoked or has expired", { exact: false }).waitFor();
    await screenshot(stranger, "team-accept-refused-phone");
    // The new link opens, on a phone, then is revoked and stops working.
    const secondLink = await linkFromOutbox(page, siteId, laterEmail);
    await stranger.goto(secondLink);
    await stranger.getByRole("heading", { name: "Join Atelier Demo" }).waitFor();
    await screenshot(stranger, "team-accept-phone");
    await pending.getByRole("button", { name: `Revoke the invitation of ${laterEmail}` }).click();
    await page.getByText(`Revoked the invitation of ${laterEmail}`, { exact: false }).waitFor();
    await expect.poll(() => pending.getByRole("cell", { name: laterEmail, exact: true }).count()).toBe(0);
    await stranger.reload();
    await stranger.getByRole("heading", { name: "This invitation link does not work" }).waitFor();
    await stranger.close();

    // Transfer of ownership: what happens is said, and a wrong password changes nothing.
    await page.getByRole("button", { name: "Transfer ownership…" }).click();
    const transfer = page.getByRole("dialog", { name: "Transfer ownership" });
    await transfer.getByText("You become an Administrator", { exact: false }).waitFor();
    await transfer.getByLabel("New owner").selectOption({ label: `Eddie Editor (${editorEmail})` });
    await transfer.getByLabel("Your password, to confirm").fill("not the password");
    await screenshot(page, "team-transfer-desktop");
    await transfer.getByRole("button", { name: "Transfer ownership" }).click();
    await transfer.getByText("The password is incorrect.").first().waitFor();
    await transfer.getByRole("button", { name: "Cancel" }).click();
    const members = page.getByRole("region", { name: "Members" });
    await members.getByRole("row", { name: /Owner/ }).first().waitFor();

    // Editing roles, then removing the editor.
    await members.getByRole("button", { name: `Edit roles of ${editorEmail}` }).click();
    const roles = page.getByRole("dialog", { name: "Roles of Eddie Editor" });
    await roles.getByRole("checkbox", { name: /Analytics viewer/ }).check();
    await roles.getByRole("button", { name: "Save roles" }).click();
    await roles.waitFor({ state: "hidden" });
    await members
      .getByRole("row", { name: new RegExp(editorEmail) })
      .getByRole("cell", { name: "Website editor, Analytics viewer" })
      .waitFor();
    await members.getByRole("button", { name: `Remove ${editorEmail}` }).click();
    await page
      .getByRole("dialog", { name: "Remove Eddie Editor?" })
      .getByRole("button", { name: "Remove" })
      .click();
    await expect.poll(() => members.getByRole("row", { name: new RegExp(editorEmail) }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
