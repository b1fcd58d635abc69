/**
 * Text lengths the owner API refuses beyond, which the dashboard's fields also stop at or state, so
 * the two cannot drift apart.
 */

/** SPEC §5: each category of a product or collection item is at most 25 characters, each tag 50. */
export const MAX_CATEGORY_LENGTH = 25;
export const MAX_TAG_LENGTH = 50;

/** The store's own "Sold out" text. */
export const SOLD_OUT_TEXT_MAX_LENGTH = 60;

/** A form's name, which only the owner sees. */
export const FORM_NAME_MAX_LENGTH = 200;
