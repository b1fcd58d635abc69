/**
 * Codes of the platform enumerations the content plugins test (record types, background
 * sources, collection types, folder behaviours, slice types, block and product types).
 * Each table maps the name templates use to its numeric code.
 */

/** Record types of content items; the names are also predicate names (`store-item?`). */
export const RECORD_TYPES: Readonly<Record<string, number>> = {
  undefined: -1,
  text: 1,
  image: 2,
  quote: 4,
  link: 5,
  audio: 7,
  video: 8,
  "store-item": 11,
  event: 12,
  gallery: 14,
  binary: 15,
  "css-asset": 16,
  "tweak-asset": 17,
  "digital-good": 18,
  attachment: 19,
  "wordpress-export": 20,
  "json-export": 21,
  "site-search": 30,
  "active-time": 31,
  tweet: 50,
  checkin: 52,
  kbarticle: 54,
};

export const RECORD_TYPE_STORE_ITEM = 11;

/** Where a page's background comes from (`background-source-<name>?`). */
export const BACKGROUND_SOURCES: Readonly<Record<string, number>> = {
  undefined: -1,
  upload: 1,
  instagram: 2,
  video: 3,
  none: 4,
};

/** Collection type codes the predicates compare against. */
export const COLLECTION_TYPE_TEMPLATE_PAGE = 7;
export const COLLECTION_TYPE_PAGE = 10;

/** Folder behaviours: index 1, redirect 2, none 3. */
export const FOLDER_BEHAVIOR_INDEX = 1;
export const FOLDER_BEHAVIOR_REDIRECT = 2;

/** Slice types of cover-page slides (`current-type? <name>`). */
export const SLICE_TYPES: Readonly<Record<string, number>> = {
  undefined: -1,
  heading: 1,
  body: 3,
  image: 4,
  gallery: 5,
  video: 6,
  "social-icons": 7,
  buttons: 8,
  navigation: 9,
  "custom-form": 10,
  newsletter: 11,
  album: 12,
  map: 13,
  logo: 14,
  action: 15,
  form: 16,
  lock: 17,
  password: 18,
  twitter: 19,
};

/** The block type of an image block: its content item carries the alt text to use. */
export const BLOCK_TYPE_IMAGE = 5;

/** Promoted block types a blog item can carry (`promoted<TYPE>?`). */
export const PROMOTED_BLOCK_TYPES: readonly string[] = [
  "map",
  "embed",
  "image",
  "code",
  "quote",
  "twitter",
  "link",
  "video",
  "foursquare",
  "instagram",
  "form",
];
