/**
 * Text lengths the owner API refuses beyond, which the dashboard's fields also stop at or state, so
 * the two cannot drift apart.
 */

/** SPEC §5: each category of a product or collection item is at most 25 characters, each tag 50. */
export const MAX_CATEGORY_LENGTH = 25;
export const MAX_TAG_LENGTH = 50;
