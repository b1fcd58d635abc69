/**
 * The API keys panel in a browser: create a key with two scopes, copy it from the modal, use it
 * against the public commerce API, delete it in the panel and see it refused; every step sends
 * its tracking event.
 */
import type { Request } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { PHONE, screenshot, browser, useBrowser } from "./browser.js";
import { demoOwnerLogIn, ownerCall, openDemoScreen } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("the API keys panel", () => {
  it("creates a key, the key reads the inventory, and once deleted it is refused", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const events: { objectType: string; action: string }[] = [];
    page.on("request", (r: Request) => {
      if (r.method() === "POST" && r.url().endsWith("/panel-events")) events.push(r.postDataJSON());
    });
    await openDemoScreen(page, "API keys");
    await page.getByText("No API keys yet.").waitFor();

    await page.getByRole("button", { name: "Learn more" }).click();
    await page.getByText("GET /api/1/commerce/inventory?cursor=").waitFor();
    await page.getByRole("button", { name: "Terms of use" }).click();
    const terms = page.getByRole("dialog", { name: "API terms of use" });
    await terms.getByText("You keep your keys secret.", { exact: false }).waitFor();
    await screenshot(page, "dashboard-api-keys-terms-desktop");
    await terms.getByRole("button", { name: "Close", exact: true }).last().click();
    await screenshot(page, "dashboard-api-keys-learn-desktop");

    // A first try cancelled, then the real one.
    await page.getByRole("button", { name: "Create API key" }).click();
    let dialog = page.getByRole("dialog", { name: "Create API key" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByRole("button", { name: "Create API key" }).click();
    dialog = page.getByRole("dialog", { name: "Create API key" });
    await dialog.getByLabel("Key name").fill("Warehouse sync");
    await dialog.getByLabel("Read orders (orders.read)").check();
    await dialog.getByLabel("Read inventory (inventory.read)").check();
    await screenshot(page, "dashboard-api-keys-create-desktop");
    await dialog.getByRole("button", { name: "Next" }).click();
    const shown = page.getByRole("dialog", { name: "Your new API key" });
    const key = await shown.getByLabel("API key").inputValue();
    expect(key).toMatch(/^atl_[A-Za-z0-9_-]{40}$/);
    await shown.getByRole("button", { name: "Copy" }).click();
    await shown.getByText("Copied", { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await screenshot(page, "dashboard-api-keys-key-desktop");
    await shown.getByRole("button", { name: "Complete" }).click();
    const row = page.getByRole("row", { name: /Warehouse sync/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(key.slice(0, 12));
    expect(await row.textContent()).not.toContain(key);
    await screenshot(page, "dashboard-api-keys-desktop");

    // The key from the modal reads the demo's variants.
    const { products } = await ownerCall<{ products: { variants: { id: string }[] }[] }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/products?pageSize=200`,
    );
    const inventory = await fetch(`${base}/api/1/commerce/inventory`, { headers: bearer(key) });
    expect(inventory.status).toBe(200);
    const listed = ((await inventory.json()) as { inventory: { variantId: string }[] }).inventory.map(
      (v) => v.variantId,
    );
    const demoVariant = products[0]!.variants[0]!.id;
    expect(listed).toContain(demoVariant);
    const adjust = () =>
      fetch(`${base}/api/1/commerce/inventory/adjustments`, {
        method: "POST",
        headers: { ...bearer(key), "content-type": "application/json" },
        body: JSON.stringify({ adjustments: [{ variantId: demoVariant, quantityDelta: 1 }] }),
      });
    const refused = await adjust();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      "inventory.write",
    );

    // Deleted in the panel: the key no longer opens anything.
    await row.getByRole("button", { name: /Delete/ }).click();
    const confirm = page.getByRole("dialog", { name: "Delete Warehouse sync?" });
    await confirm.getByRole("button", { name: "Delete key" }).click();
    await page.getByText("No API keys yet.").waitFor();
    const after = await fetch(`${base}/api/1/commerce/inventory`, { headers: bearer(key) });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe("unauthorized");

    await expect
      .poll(() => events.map((e) => `${e.objectType}:${e.action}`))
      .toEqual([
        "api_keys_panel:learn_more",
        "api_keys_panel:terms_of_use",
        "api_keys_panel:create_key",
        "api_key_creation_modal:cancel",
        "api_keys_panel:create_key",
        "api_key_creation_modal:next",
        "api_key_creation_modal:copy",
        "api_key_creation_modal:complete",
        "api_keys_panel:delete_key",
        "api_keys_panel:delete_confirm",
      ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("looks finished on a phone", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base, PHONE);
    const made = await ownerCall<{ apiKey: { id: string } }>(
      page,
      "POST",
      `/api/owner/sites/${siteId}/api-keys`,
      {
        name: "Accounting export",
        scopes: ["orders.read", "products.read", "inventory.read", "inventory.write"],
      },
    );
    await page.goto(`${base}/config/sites/${siteId}/api-keys`);
    await page.getByRole("row", { name: /Accounting export/ }).waitFor();
    await page.getByRole("button", { name: "Learn more" }).click();
    // Nothing wider than the phone: the page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "dashboard-api-keys-phone");
    await page.getByRole("button", { name: "Create API key" }).click();
    await page.getByRole("dialog", { name: "Create API key" }).waitFor();
    await screenshot(page, "dashboard-api-keys-create-phone");
    await ownerCall(page, "DELETE", `/api/owner/sites/${siteId}/api-keys/${made.apiKey.id}`, {});
    expect(errors).toEqual([]);
    await context.close();
  });
});
