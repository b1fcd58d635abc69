/**
 * /api/docs in Chromium: the interactive reference loads every file from the server itself (no
 * request leaves the machine), runs under the server's Content-Security-Policy without a
 * violation, and lists the webhooks calls from /api/openapi.json.
 */
import { describe, expect, inject, it } from "vitest";
import { PHONE, browser, screenshot, useBrowser } from "./browser.js";

const base = inject("baseUrl");
useBrowser();

describe("the API reference", () => {
  it("loads with no request leaving the machine, and shows the owner API's webhooks", async () => {
    for (const [name, viewport] of [
      ["desktop", { width: 1440, height: 900 }],
      ["phone", PHONE],
    ] as const) {
      const page = await browser.newPage({ viewport });
      const hosts = new Set<string>();
      const problems: string[] = [];
      page.on("request", (r) => hosts.add(new URL(r.url()).hostname));
      page.on("pageerror", (e) => problems.push(e.message));
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(m.text());
      });
      await page.goto(`${base}/api/docs`);
      await page.getByRole("heading", { name: /Atelier API/ }).waitFor();
      await page.getByText("/api/owner/sites/{siteId}/webhooks/{webhookId}/rotate-secret").first().waitFor();
      await page.waitForLoadState("networkidle");
      await screenshot(page, `api-docs-${name}`);
      await page.getByText("Subscribes an https endpoint to events").first().click();
      await page.getByText("Request body").first().waitFor();
      await screenshot(page, `api-docs-${name}-open`, { fullPage: false });
      expect([...hosts]).toEqual(["localhost"]);
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
