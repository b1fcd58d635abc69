/**
 * Marketing → Email campaigns in a real Chromium, on a server with a real SMTP server in the test
 * process: the owner writes a campaign with a product block (it saves itself; a missing subject is
 * named beside the field), sees the product in the live preview at desktop and phone width, sends
 * a test to themself (it arrives), schedules it, then sends it now to the two subscribers and
 * reads the report. The screens pass axe; screenshots of the list, compose and report.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mailingListSubscribers, websites } from "../apps/server/src/db/schema.js";
import { newId } from "../apps/server/src/lib/ids.js";
import { seedDemoIfEmpty } from "../apps/server/src/seed/demo.js";
import { DEMO_OWNER } from "../apps/server/test/fixtures.js";
import { type TestSmtp, startTestSmtp } from "../apps/server/test/smtp.js";
import { expectNoAxeViolations } from "./axe.js";
import { PHONE, browser, described, screenshot, screenshotFromTop } from "./browser.js";
import { ownerLogIn } from "./owner.js";
import { useOwnServer } from "./own-server.js";

const SUBSCRIBERS = ["ada@example.com", "grace@example.com"];
let smtp: TestSmtp;
const env: Record<string, string> = { EMAIL_RATE_PER_MINUTE: "100000" };
beforeAll(async () => {
  smtp = await startTestSmtp();
  env.SMTP_URL = smtp.url;
});
afterAll(() => smtp?.close());

let siteId = "";
const server = useOwnServer(
  "campaigns",
  async (database, config) => {
    await seedDemoIfEmpty(database.db, config, { now: () => new Date() });
    const [site] = await database.db.select().from(websites).where(eq(websites.isDefault, true));
    siteId = site!.id;
    for (const email of SUBSCRIBERS)
      await database.db
        .insert(mailingListSubscribers)
        .values({ id: newId(), websiteId: siteId, email, source: "newsletter" });
  },
  env,
);
const base = () => `http://localhost:${server.port}`;
const received = (to: string) => smtp.received.filter((m) => m.envelopeTo.includes(to));

describe("email campaigns in the dashboard", () => {
  it("writes a campaign with a product, previews it, sends a test, schedules it, sends it and reads its report", async () => {
    const { page, errors, context } = await ownerLogIn(browser, base(), { width: 1440, height: 900 });
    const products = (await (
      await page.request.get(`${base()}/api/owner/sites/${siteId}/products`)
    ).json()) as { products: { id: string; title: string }[] };
    const product = products.products[1] ?? products.products[0]!;

    await page.goto(`${base()}/config/sites/${siteId}/marketing/campaigns`);
    await page.getByRole("heading", { name: "Email campaigns", level: 1 }).waitFor();
    await expect.poll(() => page.getByText("No campaigns yet").count()).toBe(1);
    await expectNoAxeViolations(page, "campaigns list (empty)");

    await page.getByRole("link", { name: "New campaign" }).click();
    await page.getByRole("heading", { name: "New campaign", level: 1 }).waitFor();
    await expect.poll(() => page.getByText("Reaches 2 people who agreed").count()).toBe(1);
    // The first change creates the draft; the screen stays, now at the campaign's own address.
    await page.getByLabel("Subject").fill("Spring pieces");
    await page
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    await page.waitForURL(/\/marketing\/campaigns\/[\w-]{10,}$/);

    // The server's message for a missing subject stands beside the field.
    await page.getByLabel("Subject").fill("");
    await page.getByText("Not saved: see the fields marked below").waitFor();
    expect(await described(page, page.getByLabel("Subject"))).toBe("Give the campaign a subject.");
    await page.getByLabel("Subject").fill("Spring pieces");
    await page.getByLabel("Preview text").fill("Three new bowls from the studio");
    await page.getByRole("textbox", { name: "Text block 1" }).click();
    await page.keyboard.type("Hello from the studio");
    await page.getByRole("button", { name: "+ Product" }).click();
    await page.getByLabel("Product", { exact: true }).selectOption({ label: product.title });

    const frame = page.locator('iframe[title="Email preview"]');
    await expect
      .poll(async () => (await frame.getAttribute("srcdoc")) ?? "", { timeout: 15_000 })
      .toContain(product.title);
    expect(await frame.getAttribute("srcdoc")).toContain("Hello from the studio");
    // No script may run in the preview; the product's picture loads.
    expect(await frame.getAttribute("sandbox")).toBe("allow-same-origin");
    const picture = page.frameLocator('iframe[title="Email preview"]').locator(`img[alt="${product.title}"]`);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await page
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    await expectNoAxeViolations(page, "campaign compose");
    await screenshotFromTop(page, "campaign-compose-desktop");
    await page.getByRole("button", { name: "Phone" }).click();
    await expect.poll(async () => (await frame.boundingBox())?.width).toBeLessThanOrEqual(432);

    // A test copy to the signed-in author.
    await page.getByRole("button", { name: "Send a test" }).click();
    await page.getByText(`A test was sent to ${DEMO_OWNER.email}.`).waitFor();
    await vi.waitFor(
      () => {
        const [test] = received(DEMO_OWNER.email);
        expect(test?.parsed.subject).toBe("[Test] Spring pieces");
        expect(test?.parsed.html).toContain(product.title);
      },
      { timeout: 30_000, interval: 250 },
    );

    // Scheduled for tomorrow morning on the site's clock, after a confirmation with the count.
    await page.getByRole("button", { name: "Schedule…" }).click();
    const schedule = page.getByRole("dialog", { name: "Schedule this campaign" });
    await schedule.getByText("2 people").waitFor();
    await schedule.getByRole("button", { name: "Schedule", exact: true }).click();
    await page.getByText("Goes out").waitFor();
    await page.getByRole("button", { name: "Cancel schedule" }).waitFor();
    const campaignId = /campaigns\/([\w-]+)$/.exec(page.url())![1]!;
    const { campaigns } = (await (
      await page.request.get(`${base()}/api/owner/sites/${siteId}/campaigns`)
    ).json()) as { campaigns: { id: string; status: string }[] };
    expect(campaigns.find((c) => c.id === campaignId)?.status).toBe("scheduled");

    // The list shows it; then it is sent now, and the report counts both copies.
    await page.getByRole("button", { name: "Send now…" }).click();
    const confirm = page.getByRole("dialog", { name: "Send this campaign now?" });
    await confirm.getByRole("button", { name: "Send to 2 people" }).click();
    await page.waitForURL(/\/report$/);
    const figure = (label: string) =>
      page
        .locator(".analytics-figure")
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator("strong");
    await expect.poll(() => figure("Sent").textContent(), { timeout: 45_000 }).toBe("2");
    expect(await figure("Recipients").textContent()).toBe("2");
    expect(await figure("Revenue").textContent()).toMatch(/\$0\.00/);
    await page.getByRole("heading", { name: "Links" }).waitFor();
    await page.locator(".badge", { hasText: "Sent" }).waitFor();
    for (const to of SUBSCRIBERS)
      expect(received(to).map((m) => m.parsed.subject)).toEqual(["Spring pieces"]);
    await expectNoAxeViolations(page, "campaign report");
    await screenshot(page, "campaign-report-desktop");

    await page.getByRole("link", { name: "All campaigns" }).click();
    const row = page.getByRole("row", { name: /Spring pieces/ });
    await row.getByText("Sent").waitFor();
    await expect.poll(() => row.locator("td").nth(2).textContent()).toBe("2");
    await expectNoAxeViolations(page, "campaigns list");
    await screenshot(page, "campaigns-list-desktop");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("composes at phone width", async () => {
    const { page, errors, context } = await ownerLogIn(browser, base(), PHONE);
    await page.goto(`${base()}/config/sites/${siteId}/marketing/campaigns/new`);
    await page.getByRole("heading", { name: "New campaign", level: 1 }).waitFor();
    await page.getByLabel("Subject").fill("Phone draft");
    await page
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    await page.getByRole("button", { name: "+ Button" }).click();
    await expect
      .poll(async () => (await page.locator('iframe[title="Email preview"]').getAttribute("srcdoc")) ?? "")
      .toContain("Shop now");
    await expectNoAxeViolations(page, "campaign compose (phone)");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await screenshotFromTop(page, "campaign-compose-phone");
    await page.locator(".campaign-preview").scrollIntoViewIfNeeded();
    await screenshot(page, "campaign-preview-phone", { fullPage: false });
    await page.goto(`${base()}/config/sites/${siteId}/marketing/campaigns`);
    await page.getByRole("row", { name: /Phone draft/ }).waitFor();
    await screenshot(page, "campaigns-list-phone");
    await page.getByRole("link", { name: "Spring pieces" }).click();
    await page.getByRole("heading", { name: "Links" }).waitFor();
    await expectNoAxeViolations(page, "campaign report (phone)");
    await screenshot(page, "campaign-report-phone");
    expect(errors).toEqual([]);
    await context.close();
  });
});
