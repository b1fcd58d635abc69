/**
 * A WordPress site's page tree and main menu as Atelier's navigation. Atelier's navigation has
 * one level of folders: a top-level page with children becomes a folder (named after it) that
 * holds the page itself first, then its children and their children in the old tree's order
 * (depth first). The old main menu decides the order and what shows: pages that were not in it
 * are imported hidden from the navigation. Without a menu, every page shows, in WordPress's
 * page order.
 */

export interface WxrPage {
  postId: string;
  parentId: string;
  /** wp:menu_order, WordPress's page order. */
  menuOrder: number;
  /** Position in the file. */
  index: number;
  title: string;
}

export interface WxrMenuItem {
  /** The menu's slug (the item's nav_menu category). */
  menu: string;
  menuName: string;
  /** Position in the menu (wp:menu_order). */
  order: number;
  /** "post_type", "taxonomy" or "custom". */
  type: string;
  /** "page", "post", "category"… */
  object: string;
  objectId: string;
  index: number;
  title: string;
  url: string;
}

export type NavEntry =
  | { kind: "folder"; root: string; title: string; hidden: boolean }
  | { kind: "page"; postId: string; folderRoot?: string; hidden: boolean };

/** The menu that was the site's main navigation: the one named like it, else the longest. */
export function mainMenu(items: WxrMenuItem[]): WxrMenuItem[] {
  const menus = new Map<string, WxrMenuItem[]>();
  for (const item of items) menus.set(item.menu, [...(menus.get(item.menu) ?? []), item]);
  const all = [...menus.values()];
  if (!all.length) return [];
  const named = all.find((m) => /\b(main|primary|header|top)\b/i.test(`${m[0]!.menu} ${m[0]!.menuName}`));
  const chosen = named ?? all.sort((a, b) => b.length - a.length)[0]!;
  return [...chosen].sort((a, b) => a.order - b.order || a.index - b.index);
}

/** The navigation entries, in order, for the pages and the main menu. */
export function navigationPlan(pages: WxrPage[], menu: WxrMenuItem[]): NavEntry[] {
  const ids = new Set(pages.map((p) => p.postId));
  const menuPosition = new Map<string, number>();
  for (const [i, item] of menu.entries())
    if (item.type === "post_type" && item.object === "page" && !menuPosition.has(item.objectId))
      menuPosition.set(item.objectId, i);
  const hasMenu = menu.length > 0;
  const hidden = (p: WxrPage) => hasMenu && !menuPosition.has(p.postId);
  const order = (a: WxrPage, b: WxrPage) =>
    (menuPosition.get(a.postId) ?? Number.MAX_SAFE_INTEGER) -
      (menuPosition.get(b.postId) ?? Number.MAX_SAFE_INTEGER) ||
    a.menuOrder - b.menuOrder ||
    a.index - b.index;
  const children = new Map<string, WxrPage[]>();
  const tops: WxrPage[] = [];
  for (const p of pages) {
    const parent = p.parentId && p.parentId !== "0" && p.parentId !== p.postId && ids.has(p.parentId);
    if (parent) children.set(p.parentId, [...(children.get(p.parentId) ?? []), p]);
    else tops.push(p);
  }
  const descendants = (p: WxrPage, seen: Set<string>): WxrPage[] =>
    (children.get(p.postId) ?? [])
      .filter((c) => !seen.has(c.postId) && seen.add(c.postId))
      .sort(order)
      .flatMap((c) => [c, ...descendants(c, seen)]);
  const out: NavEntry[] = [];
  for (const top of tops.sort(order)) {
    const below = descendants(top, new Set([top.postId]));
    if (!below.length) {
      out.push({ kind: "page", postId: top.postId, hidden: hidden(top) });
      continue;
    }
    const group = [top, ...below];
    out.push({ kind: "folder", root: top.postId, title: top.title, hidden: group.every(hidden) });
    for (const p of group)
      out.push({ kind: "page", postId: p.postId, folderRoot: top.postId, hidden: hidden(p) });
  }
  // Pages whose parents point at each other in a loop reach no top: they stand alone.
  const placed = new Set(out.flatMap((e) => (e.kind === "page" ? [e.postId] : [])));
  for (const p of [...pages].sort(order))
    if (!placed.has(p.postId)) out.push({ kind: "page", postId: p.postId, hidden: hidden(p) });
  return out;
}
