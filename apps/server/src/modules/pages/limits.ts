/** The limits of SPEC §9, enforced by the owner API, with the messages owners see. */
import { URL_MAX_LENGTH } from "@atelier/forms";
import { MAX_CATEGORY_LENGTH, MAX_TAG_LENGTH } from "@atelier/owner-api";

export const MAX_BLOCKS_PER_LAYOUT = 60;
export const MAX_ITEMS_PER_ORDERABLE_COLLECTION = 250;
export const MAX_PRODUCTS_PER_COLLECTION = 200;
export const MAX_TRACKS_PER_ALBUM = 60;
export const MAX_NESTED_CATEGORIES = 10000;

export const LIMIT_MESSAGES = {
  blocks: `A layout can have at most ${MAX_BLOCKS_PER_LAYOUT} blocks. Remove a block before adding another.`,
  items: `A collection can have at most ${MAX_ITEMS_PER_ORDERABLE_COLLECTION} items.`,
  products: `A store page can have at most ${MAX_PRODUCTS_PER_COLLECTION} products.`,
  tracks: `An album can have at most ${MAX_TRACKS_PER_ALBUM} tracks.`,
  categories: `A collection can have at most ${MAX_NESTED_CATEGORIES} categories.`,
  url: `URLs must be under ${URL_MAX_LENGTH} characters.`,
  category: `Categories can be at most ${MAX_CATEGORY_LENGTH} characters.`,
  tag: `Tags can be at most ${MAX_TAG_LENGTH} characters.`,
} as const;

/** Whether a URL (absolute or a path) is under the SPEC's 2083 characters. */
export function urlWithinLimit(url: string): boolean {
  return url.length < URL_MAX_LENGTH;
}

/** The most items a collection of this kind may hold, and the message when it is full. */
export function itemLimitOf(kind: string): { max: number; message: string } | undefined {
  if (kind === "products") return { max: MAX_PRODUCTS_PER_COLLECTION, message: LIMIT_MESSAGES.products };
  if (kind === "album") return { max: MAX_TRACKS_PER_ALBUM, message: LIMIT_MESSAGES.tracks };
  // Galleries are ordered by hand: the user-orderable limit.
  if (kind === "gallery") return { max: MAX_ITEMS_PER_ORDERABLE_COLLECTION, message: LIMIT_MESSAGES.items };
  return undefined;
}
