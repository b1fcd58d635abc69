/** Pages made for one editor test, and their layouts, through the owner API (set-up and checks). */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { ownerCall } from "./owner.js";

export interface LayoutJson {
  rows: { columns: { span?: number; blocks: { id: string; type: string; [k: string]: unknown }[] }[] }[];
}

/** A new page of the site of its own, with a published layout, for one test to edit. */
export async function newPage(
  page: Page,
  siteId: string,
  title: string,
  layout: LayoutJson = { rows: [] },
): Promise<{ id: string; fullUrl: string }> {
  const { page: created } = await ownerCall<{ page: { id: string; fullUrl: string } }>(
    page,
    "POST",
    `/api/owner/sites/${siteId}/pages`,
    { kind: "page", title },
  );
  // Kept out of the navigation, which every browser test file shares.
  await ownerCall(page, "PATCH", `/api/owner/sites/${siteId}/pages/${created.id}`, { hiddenFromNav: true });
  await ownerCall(page, "POST", `/api/owner/sites/${siteId}/pages/${created.id}/publish`, { layout });
  return created;
}

export async function draftOf(page: Page, siteId: string, pageId: string): Promise<LayoutJson | null> {
  const r = await ownerCall<{ draft: LayoutJson | null }>(
    page,
    "GET",
    `/api/owner/sites/${siteId}/pages/${pageId}/layout`,
  );
  return r.draft;
}

export const blocksOf = (l: LayoutJson | null) =>
  (l?.rows ?? []).flatMap((r) => r.columns.flatMap((c) => c.blocks));

/** The page's published layout. */
export async function publishedOf(page: Page, siteId: string, pageId: string): Promise<LayoutJson> {
  const r = await ownerCall<{ layout: LayoutJson }>(
    page,
    "GET",
    `/api/owner/sites/${siteId}/pages/${pageId}/layout`,
  );
  return r.layout;
}

/** In the open page editor: adds a Text block, types `text` in it, and waits for the draft to save. */
export async function addTextBlock(page: Page, text: string): Promise<void> {
  await page.getByRole("button", { name: "Add block" }).first().click();
  await page.getByRole("button", { name: "Add Text block" }).click();
  await page.getByRole("button", { name: "Done editing" }).waitFor();
  await page.locator("#block-panel .ProseMirror").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
  await expect.poll(() => page.locator(".save-state").textContent(), { timeout: 15_000 }).toBe("Draft saved");
}
