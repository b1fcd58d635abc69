/**
 * The announcement bar and the newsletter pop-up in a real Chromium: the bar is there from the
 * first paint, dismissed stays dismissed (no cookie, no layout shift on the next page); the pop-up
 * is a focus-trapped dialog that Escape closes, giving focus back, that does not come again, whose
 * script never loads on the cart; both pass axe. Also the dashboard screen, at desktop and phone.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { websites } from "../apps/server/src/db/schema.js";
import { storePopups } from "../apps/server/src/modules/site-popups/settings.js";
import { STOREFRONT_DIST } from "../apps/server/src/render/storefront-assets.js";
import { seedDemoIfEmpty } from "../apps/server/src/seed/demo.js";
import { expectNoAxeViolations } from "./axe.js";
import { DESKTOP, PHONE, browser, screenshot, visitorPage } from "./browser.js";
import { ownerLogIn } from "./owner.js";
import { useOwnServer } from "./own-server.js";

const server = useOwnServer("popups", async (database, config) => {
  await seedDemoIfEmpty(database.db, config, { now: () => new Date() });
  const [site] = await database.db.select().from(websites).where(eq(websites.isDefault, true));
  await database.db.transaction((tx) =>
    storePopups(
      tx,
      site!.id,
      {
        announcementBar: {
          enabled: true,
          text: "Free shipping on orders over $50",
          linkUrl: "/shop",
          linkText: "Shop now",
          startsAt: null,
          endsAt: null,
          dismissible: true,
        },
        newsletterPopup: {
          enabled: true,
          title: "Join the studio letter",
          text: "New pieces and studio news, once a month.",
          buttonText: "Sign me up",
          trigger: { kind: "delay", seconds: 1 },
          frequencyDays: 30,
          doubleOptIn: false,
        },
      },
      new Date(),
    ),
  );
});
const base = () => `http://localhost:${server.port}`;

/** The popup island's chunk, as Vite's manifest names it. */
function popupChunk(): string {
  const manifest = JSON.parse(
    readFileSync(path.join(STOREFRONT_DIST, ".vite/manifest.json"), "utf8"),
  ) as Record<string, { file: string }>;
  const key = Object.keys(manifest).find((k) => k.startsWith("src/islands/newsletter-popup/index."));
  if (!key) throw new Error("the storefront build has no newsletter-popup island");
  return manifest[key]!.file;
}

/**
 * Chromium's Layout Instability API, the measure Lighthouse's CLS is computed from: every
 * `layout-shift` entry of the document from its first paint (observed before navigation, buffered),
 * those within 500 ms of an input left out as Lighthouse does. Lighthouse itself is not installed;
 * a sum of 0 is a CLS of 0 whatever its session windows.
 */
type Shifts = { sum: number; seen: string[]; afterInput: number };
async function watchShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: Shifts };
    w.__shifts = { sum: 0, seen: [], afterInput: 0 };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      })[]) {
        const nodes = (e.sources ?? []).map((x) => {
          const el = x.node instanceof Element ? (x.node.closest("a, button, [id]") ?? x.node) : undefined;
          const r = x as unknown as { previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
          const at = (d: DOMRectReadOnly) =>
            `${Math.round(d.x)},${Math.round(d.y)} ${Math.round(d.width)}x${Math.round(d.height)}`;
          return `${el ? el.outerHTML.slice(0, 120) : String(x.node?.nodeName)} ${at(r.previousRect)}→${at(r.currentRect)}`;
        });
        w.__shifts.seen.push(
          `${e.hadRecentInput ? "after input " : ""}${e.value.toFixed(4)} ${nodes.join(" | ")}`,
        );
        if (e.hadRecentInput) w.__shifts.afterInput += e.value;
        else w.__shifts.sum += e.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}
/**
 * The shifts so far: `sum` is what CLS counts, `seen` names what moved (for a failure's message),
 * `afterInput` what moved right after a key press or click (CLS excuses it; we ask for 0 too).
 */
const shifted = async (page: Page) => {
  // Entries reach the observer after the frame that moved: let two frames pass first.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))),
  );
  return page.evaluate(() => (window as unknown as { __shifts: Shifts }).__shifts);
};
const noShift = { sum: 0, seen: [], afterInput: 0 };

const bar = (page: Page) => page.getByRole("region", { name: "Announcement" });
const dialog = (page: Page) => page.getByRole("dialog", { name: "Join the studio letter" });

describe("the announcement bar", () => {
  it("is on the page from the first paint, and once dismissed stays dismissed without a cookie", async () => {
    const { page, errors } = await visitorPage(PHONE);
    // The pop-up would cover the bar: this visitor saw it yesterday.
    await page.addInitScript(() =>
      localStorage.setItem("atelier:newsletter-popup-shown", String(Date.now())),
    );
    await watchShifts(page);
    await page.goto(`${base()}/`);
    await expect.poll(() => bar(page).isVisible()).toBe(true);
    expect(await bar(page).textContent()).toContain("Free shipping on orders over $50");
    await page.getByRole("link", { name: "Shop now" }).waitFor();
    await page.waitForLoadState("networkidle");
    // Loading the page with the bar showing moved nothing (its space is there from the first paint).
    expect(await shifted(page)).toEqual(noShift);
    await expectNoAxeViolations(page, "home with the announcement bar");
    await screenshot(page, "site-popups-bar-phone");

    const cookiesBefore = (await page.context().cookies()).map((c) => c.name).sort();
    await page.getByRole("button", { name: "Dismiss announcement" }).click();
    await expect.poll(() => bar(page).isVisible()).toBe(false);
    // Kept in localStorage, not in a cookie (whatever the cookie banner says).
    expect((await page.context().cookies()).map((c) => c.name).sort()).toEqual(cookiesBefore);
    expect(await page.evaluate(() => localStorage.getItem("atelier:dismissed-bars"))).toMatch(
      /^[0-9a-f]{12}$/,
    );

    // The next page: hidden before the first paint, so nothing moves.
    await page.goto(`${base()}/shop`);
    await page.waitForLoadState("networkidle");
    expect(await bar(page).isVisible()).toBe(false);
    expect(await page.locator("#atelier-announcement").count()).toBe(1);
    expect(await shifted(page)).toEqual(noShift);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("the newsletter pop-up", () => {
  it("is a focus-trapped dialog that Escape closes, giving focus back, and does not come again", async () => {
    const { page, errors } = await visitorPage(DESKTOP);
    await watchShifts(page);
    await page.goto(`${base()}/`);
    // Someone reading: focus on the first link of the page when the pop-up opens.
    const firstLink = page.locator("header a[href]").first();
    await firstLink.focus();
    const before = await firstLink.evaluate((el) => el.outerHTML);
    await dialog(page).waitFor();
    expect(await dialog(page).getAttribute("aria-modal")).toBe("true");
    const focusedInDialog = () =>
      page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
    expect(await focusedInDialog()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("type"))).toBe("email");
    // Tab and Shift+Tab go round the dialog's controls, never out of it.
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Tab");
      expect(await focusedInDialog()).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Shift+Tab");
      expect(await focusedInDialog()).toBe(true);
    }
    // Loading the page, the bar, the pop-up appearing, focus going round it: no layout shift, not
    // even one CLS would excuse as following a key (CLS 0).
    expect(await shifted(page)).toEqual(noShift);
    await expectNoAxeViolations(page, "home with the newsletter pop-up open");
    await screenshot(page, "site-popups-popup-desktop");
    // (A full-page screenshot lays the page out again at its full height: a shift of the tool's
    // making, which Chromium reports as following input. Closing is measured from here.)
    const beforeClose = await shifted(page);
    expect(beforeClose.sum).toBe(0);

    // A fixed overlay: the page under it does not move.
    expect(
      await page.locator(".atelier-popup-backdrop").evaluate((el) => getComputedStyle(el).position),
    ).toBe("fixed");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.outerHTML)).toBe(before);
    // Closing it moved nothing either, not even what CLS would excuse as following the key.
    expect(await shifted(page)).toEqual(beforeClose);

    // Not again for this visitor: another page, longer than the delay.
    await page.goto(`${base()}/shop`);
    await page.waitForTimeout(2500);
    expect(await dialog(page).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("signs a visitor up, on a phone", async () => {
    const { page, errors } = await visitorPage(PHONE);
    await watchShifts(page);
    await page.goto(`${base()}/`);
    await dialog(page).waitFor();
    expect(await shifted(page)).toEqual(noShift);
    await page.getByRole("button", { name: "Sign me up" }).click();
    await dialog(page).getByText("Enter a valid email address.").waitFor();
    await dialog(page).getByLabel("Email address").fill("reader@example.com");
    await page.getByRole("button", { name: "Sign me up" }).click();
    await dialog(page).getByText("Thanks for signing up!").waitFor();
    await screenshot(page, "site-popups-popup-phone-done");
    await page.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    // The answer replacing the form, even when it comes long after the click, moves nothing CLS counts.
    expect((await shifted(page)).sum).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("never shows on the cart, whose page does not even load its script", async () => {
    const { page, errors } = await visitorPage(DESKTOP);
    const chunk = popupChunk();
    const loaded: string[] = [];
    page.on("request", (r) => loaded.push(r.url()));
    await page.goto(`${base()}/cart`);
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(2000);
    expect(await dialog(page).count()).toBe(0);
    expect(loaded.some((u) => u.endsWith(chunk))).toBe(false);
    // Where it shows, that script is what opens it.
    await page.goto(`${base()}/`);
    await dialog(page).waitFor();
    expect(loaded.some((u) => u.endsWith(chunk))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("the dashboard screen", () => {
  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`edits both at ${label} size`, async () => {
      const { page, context } = await ownerLogIn(browser, base(), viewport);
      const { sites } = (await (await page.request.get(`${base()}/api/owner/sites`)).json()) as {
        sites: { id: string; title: string }[];
      };
      const siteId = sites.find((x) => x.title === "Atelier Demo")!.id;
      await page.goto(`${base()}/config/sites/${siteId}/marketing/announcements`);
      await page.getByRole("heading", { name: "Announcement bar and pop-up", level: 1 }).waitFor();
      await page.getByLabel("Text", { exact: true }).first().waitFor();
      await expectNoAxeViolations(page, `announcement bar and pop-up screen, ${label}`);
      await screenshot(page, `site-popups-dashboard-${label}`);
      // A refusal shows beside its field.
      await page.getByLabel("Ends (optional)").fill("2020-01-01T10:00");
      await page.getByLabel("Starts (optional)").fill("2020-02-01T10:00");
      await page.getByRole("button", { name: "Save announcement bar" }).click();
      await page.getByText("The end must be after the start.").first().waitFor();
      await page.getByLabel("Ends (optional)").fill("");
      await page.getByLabel("Starts (optional)").fill("");
      await page.getByRole("button", { name: "Save announcement bar" }).click();
      await page.getByText("Announcement bar saved.").waitFor();
      await context.close();
    });
  }
});
