/**
 * The header navigation of every theme with many pages: on a desktop window it stays on one line
 * (the header is as tall as with two pages) and the links that do not fit are in the "More" menu;
 * on a phone every link is in the menu panel. Screenshots go to e2e/screenshots/header-*.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, PHONE, screenshot, browser, useBrowser } from "./browser.js";
import { ownerCall, ownerLogIn } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

const THEMES = ["classic", "cover", "commerce"] as const;
const TITLES = [
  "Our Story",
  "Workshops and Classes",
  "Private Commissions",
  "Journal",
  "Stockists",
  "Press",
  "Visit the Studio",
  "Frequently Asked Questions",
  "Wholesale",
  "Careers",
  "Contact",
  "Gift Cards",
];

interface Nav {
  headerHeight: number;
  inline: string[];
  inMore: string[];
  moreShown: boolean;
  /** Distinct tops of the links shown in the bar: one value when they sit on one line. */
  rows: number;
  overflow: number;
}

async function readNav(page: Page): Promise<Nav> {
  return page.evaluate(() => {
    const header = document.querySelector<HTMLElement>(".site-header")!;
    const list = document.querySelector<HTMLElement>(".nav-list")!;
    const more = list.querySelector<HTMLElement>(":scope > .nav-more")!;
    const shown = [...list.children].filter(
      (li) => li !== more && (li as HTMLElement).offsetParent !== null,
    ) as HTMLElement[];
    const tops = new Set(shown.map((li) => Math.round(li.getBoundingClientRect().top)));
    if (!more.hidden) tops.add(Math.round(more.getBoundingClientRect().top));
    return {
      headerHeight: header.getBoundingClientRect().height,
      inline: shown.map((li) => li.textContent!.trim()),
      inMore: [...more.querySelectorAll(".nav-sub > li")].map((li) => li.textContent!.trim()),
      moreShown: !more.hidden && more.offsetParent !== null,
      rows: tops.size,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    };
  });
}

describe("the header navigation with many pages", () => {
  for (const theme of THEMES) {
    it(`stays on one line in the ${theme} theme, the rest under "More"`, async () => {
      const { context, page, errors } = await ownerLogIn(browser, base);
      const title = `Nav ${theme} ${Date.now() % 100000}`;
      const { site } = await ownerCall<{ site: { id: string; slug?: string } }>(
        page,
        "POST",
        "/api/owner/sites",
        {
          title,
          theme,
        },
      );
      const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
      const siteUrl = base.replace("//localhost", `//${slug}.localhost`);
      const visitor = await browser.newPage({ viewport: DESKTOP });
      visitor.on("pageerror", (e) => errors.push(e.message));
      await visitor.goto(`${siteUrl}/`);
      const few = await readNav(visitor);
      expect(few.moreShown).toBe(false);

      for (const pageTitle of TITLES) {
        await ownerCall(page, "POST", `/api/owner/sites/${site.id}/pages`, {
          kind: "page",
          title: pageTitle,
        });
      }
      for (const width of [1280, 1024, 800]) {
        await visitor.setViewportSize({ width, height: 900 });
        await visitor.goto(`${siteUrl}/`);
        await visitor.waitForLoadState("networkidle");
        const nav = await readNav(visitor);
        expect(nav.rows, `${theme} at ${width}: one line`).toBe(1);
        expect(nav.headerHeight, `${theme} at ${width}: as tall as with few pages`).toBeCloseTo(
          few.headerHeight,
          0,
        );
        expect(nav.overflow, `${theme} at ${width}: no sideways scrolling`).toBeLessThanOrEqual(0);
        expect(nav.moreShown, `${theme} at ${width}: "More" holds the rest`).toBe(true);
        // Every page is reachable, in the navigation's order.
        const all = [...nav.inline, ...nav.inMore];
        for (const t of TITLES) expect(all, `${theme} at ${width}`).toContain(t);
        expect(all.indexOf("Our Story")).toBeLessThan(all.indexOf("Gift Cards"));
        if (width === 1280) {
          const main = visitor.getByRole("navigation", { name: "Main" });
          await main.getByText("More", { exact: true }).click();
          await main.getByRole("link", { name: "Gift Cards" }).waitFor({ state: "visible" });
          await screenshot(visitor, `header-${theme}-many-pages-desktop`);
          await main.getByRole("link", { name: "Gift Cards" }).click();
          await visitor.waitForURL(/\/gift-cards$/);
          // The current page is in "More": "More" is marked.
          const marked = await visitor.evaluate(() =>
            document.querySelector(".nav-more")!.classList.contains("is-current"),
          );
          expect(marked).toBe(true);
        }
      }

      // A phone: the menu button, every link in the panel, "More" never shown.
      await visitor.setViewportSize(PHONE);
      await visitor.goto(`${siteUrl}/`);
      await visitor.getByRole("button", { name: "Menu" }).click();
      const phone = await readNav(visitor);
      expect(phone.moreShown).toBe(false);
      for (const t of TITLES) expect(phone.inline).toContain(t);
      await screenshot(visitor, `header-${theme}-many-pages-phone`);
      expect(errors).toEqual([]);
      await visitor.close();
      await context.close();
    });
  }
});
