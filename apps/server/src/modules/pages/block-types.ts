/**
 * The block types a layout may hold (the published-sites blocks), with the fields owners edit.
 * The dashboard builds its block picker and property panels from these definitions
 * (`GET /api/owner/sites/:siteId/block-types`), and blocks.ts validates drafts with them.
 */
import { GALLERY_CHOICES, GALLERY_NUMBER_OPTIONS, type GalleryChoice } from "@atelier/jsont";
import type { BlockTypeDef, FieldDef } from "@atelier/forms";
import { Feature } from "@atelier/owner-api";

export type { FieldDef } from "@atelier/forms";

const opt = (...values: readonly string[]) => values.map((v) => ({ value: v, label: v }));

/** A choice among `values`, each shown as it is. */
const select = (key: string, label: string, value: string, values: readonly string[]): FieldDef => ({
  key,
  label,
  type: "select",
  default: value,
  options: opt(...values),
});

/** A gallery option of choices, with its values and default. */
const galleryChoice = (key: GalleryChoice, label: string): FieldDef =>
  select(key, label, GALLERY_CHOICES[key].default, GALLERY_CHOICES[key].values);

/** Fields that several block types share. */
const HEADING: FieldDef = { key: "title", label: "Heading", type: "text", maxLength: 300 };
const TITLE: FieldDef = { key: "title", label: "Title", type: "text", maxLength: 300 };
const CAPTION: FieldDef = { key: "caption", label: "Caption", type: "text", maxLength: 1000 };
const LINK: FieldDef = { key: "href", label: "Link", type: "url" };
const IMAGE: FieldDef = { key: "imageId", label: "Image", type: "image" };
const FORM: FieldDef = { key: "formId", label: "Form", type: "form", required: true };
const SUBMIT_LABEL: FieldDef = {
  key: "submitLabel",
  label: "Submit button label",
  type: "text",
  maxLength: 100,
};
const description = (maxLength: number): FieldDef => ({
  key: "description",
  label: "Description",
  type: "textarea",
  maxLength,
});
const buttonLabel = (value: string): FieldDef => ({
  key: "label",
  label: "Button label",
  type: "text",
  maxLength: 100,
  default: value,
});

/** A block of the premium group, shown where the site's plan enables `feature`. */
const premium = (
  type: string,
  label: string,
  about: string,
  feature: number,
  featureName: string,
  fields: FieldDef[],
): BlockTypeDef => ({ type, label, description: about, group: "Premium", feature, featureName, fields });

/** SPEC §4 aspect ratios offered for cropped gallery thumbnails. */
const ASPECT_RATIOS = ["square", "4:3", "3:2", "16:9", "2:1", "3:4", "2:3", "9:16"];

const FLAG_LABELS: [string, string][] = [
  ["autoplay", "Autoplay"],
  ["controls", "Show controls"],
  ["auto-crop", "Auto crop"],
  ["square-thumbs", "Square thumbnails"],
  ["thumbnails", "Show thumbnails"],
  ["show-meta", "Show title and description"],
  ["show-meta-basic", "Basic meta"],
  ["show-meta-only-title", "Title only"],
  ["show-meta-on-hover", "Meta on hover"],
  ["lightbox", "Open images in a lightbox"],
  ["newWindow", "Open links in a new window"],
  ["transparentBackground", "Transparent background"],
];
const NUMBER_LABELS: Record<keyof typeof GALLERY_NUMBER_OPTIONS, string> = {
  "autoplay-duration": "Autoplay delay (seconds)",
  "thumbnail-strip-height": "Thumbnail strip height (px)",
  "thumbnail-strip-margin": "Thumbnail strip margin (px)",
  "thumbnails-per-row": "Thumbnails per row",
  padding: "Padding (px)",
  "max-width": "Slide max width (%)",
};

/** The gallery option set of SPEC §3 with the ranges and defaults of SPEC §9 (as published pages read it). */
export const GALLERY_OPTION_FIELDS: FieldDef[] = [
  galleryChoice("design", "Design"),
  select("aspect-ratio", "Aspect ratio", "square", ASPECT_RATIOS),
  galleryChoice("meta-position", "Meta position"),
  galleryChoice("active-alignment", "Active slide alignment"),
  galleryChoice("lightboxTheme", "Lightbox theme"),
  ...(
    Object.entries(GALLERY_NUMBER_OPTIONS) as [
      keyof typeof GALLERY_NUMBER_OPTIONS,
      { min: number; max: number; default: number },
    ][]
  ).map(
    ([key, r]): FieldDef => ({
      key,
      label: NUMBER_LABELS[key],
      type: "number",
      min: r.min,
      max: r.max,
      default: r.default,
    }),
  ),
  ...FLAG_LABELS.map(([key, label]): FieldDef => ({ key, label, type: "boolean", default: false })),
];

/** What an empty text block says until the owner types: a placeholder, never content. */
export const TEXT_BLOCK_PLACEHOLDER = "Write something here.";

const BLOCK_TYPES: BlockTypeDef[] = [
  {
    type: "text",
    label: "Text",
    description: "Headings, paragraphs, lists and links.",
    group: "Basic",
    fields: [
      {
        key: "html",
        label: "Text",
        type: "richtext",
        maxLength: 100_000,
        placeholder: TEXT_BLOCK_PLACEHOLDER,
      },
    ],
  },
  {
    type: "image",
    label: "Image",
    description: "A picture from the media library.",
    group: "Basic",
    fields: [IMAGE, { key: "alt", label: "Alternative text", type: "text", maxLength: 500 }, CAPTION, LINK],
  },
  {
    type: "button",
    label: "Button",
    description: "A call to action that links somewhere.",
    group: "Basic",
    fields: [
      { key: "label", label: "Label", type: "text", required: true, maxLength: 200, default: "Learn more" },
      { key: "href", label: "Link", type: "url", required: true, default: "/" },
      select("style", "Style", "primary", ["primary", "secondary"]),
      select("align", "Alignment", "left", ["left", "center", "right"]),
    ],
  },
  {
    type: "quote",
    label: "Quote",
    description: "A pull quote with its source.",
    group: "Basic",
    fields: [
      {
        key: "text",
        label: "Quote",
        type: "textarea",
        required: true,
        maxLength: 5000,
        default: "A few words worth repeating.",
      },
      { key: "source", label: "Source", type: "text", maxLength: 300 },
    ],
  },
  {
    type: "summary",
    label: "Summary",
    description: "The latest items of a blog, events, store or gallery page.",
    group: "Basic",
    fields: [
      {
        key: "collectionId",
        label: "Collection",
        type: "collection",
        required: true,
        kinds: ["blog", "events", "products", "gallery", "album"],
      },
      HEADING,
      { key: "limit", label: "Number of items", type: "number", min: 1, max: 30, default: 4 },
      select("design", "Design", "grid", ["grid", "list", "carousel"]),
    ],
  },
  {
    type: "spacer",
    label: "Spacer",
    description: "Empty space between blocks.",
    group: "Basic",
    fields: [{ key: "height", label: "Height (px)", type: "number", min: 8, max: 400, default: 48 }],
  },
  {
    type: "line",
    label: "Line",
    description: "A horizontal divider.",
    group: "Basic",
    fields: [],
  },
  {
    type: "gallery",
    label: "Gallery",
    description: "Several images as a grid, slideshow, slider or stack.",
    group: "Media",
    fields: [
      HEADING,
      { key: "imageIds", label: "Images", type: "images" },
      {
        key: "collectionId",
        label: "Or the images of a gallery page",
        type: "collection",
        kinds: ["gallery"],
      },
      { key: "options", label: "Gallery settings", type: "gallery", fields: GALLERY_OPTION_FIELDS },
    ],
  },
  {
    type: "video",
    label: "Video",
    description: "A video from YouTube, Vimeo, or a video file.",
    group: "Media",
    fields: [{ key: "url", label: "Video URL", type: "url", required: true }, TITLE, CAPTION],
  },
  {
    type: "audio",
    label: "Audio",
    description: "A track to play on the page (an audio file or a SoundCloud link).",
    group: "Media",
    fields: [
      { key: "url", label: "Audio URL", type: "url", required: true },
      TITLE,
      { key: "artist", label: "Artist", type: "text", maxLength: 300 },
    ],
  },
  {
    type: "map",
    label: "Map",
    description: "A location with a map link.",
    group: "Media",
    fields: [{ key: "location", label: "Location", type: "location" }],
  },
  {
    type: "product",
    label: "Product",
    description: "One product with its price and add-to-cart button.",
    group: "Commerce",
    fields: [
      { key: "productId", label: "Product", type: "product", required: true },
      { key: "showVariantImages", label: "Show variant images", type: "boolean", default: true },
    ],
  },
  {
    type: "form",
    label: "Form",
    description: "A form visitors fill in.",
    group: "Forms",
    fields: [FORM, HEADING, SUBMIT_LABEL],
  },
  {
    type: "newsletter",
    label: "Newsletter",
    description: "An email sign-up for the mailing list.",
    group: "Forms",
    fields: [
      FORM,
      HEADING,
      description(2000),
      SUBMIT_LABEL,
      {
        key: "doubleOptIn",
        label: "Ask subscribers to confirm by email (double opt-in)",
        type: "boolean",
        default: false,
      },
    ],
  },
  {
    type: "code",
    label: "Code",
    description: "HTML of your own (scripts are removed; nothing custom runs in safe mode).",
    group: "Embeds",
    fields: [
      { key: "html", label: "HTML", type: "code", maxLength: 50_000, default: "" },
      { key: "displaySource", label: "Show the code as text", type: "boolean", default: false },
    ],
  },
  {
    type: "embed",
    label: "Embed",
    description: "Content from another site by its embed code.",
    group: "Embeds",
    fields: [{ key: "html", label: "Embed code", type: "code", maxLength: 50_000 }, CAPTION],
  },
  premium("amazon", "Amazon", "A product from Amazon.", Feature.AMAZON_BLOCK, "Amazon block", [
    { key: "asin", label: "ASIN", type: "text", required: true, maxLength: 20 },
    TITLE,
    description(1000),
    IMAGE,
  ]),
  premium(
    "donation",
    "Donation",
    "A button that takes donations.",
    Feature.DONATION_BLOCK,
    "Donation block",
    [{ ...TITLE, default: "Support our work" }, description(2000), buttonLabel("Donate")],
  ),
  premium("menu", "Menu", "A restaurant menu.", Feature.MENU_BLOCK, "Menu block", [
    TITLE,
    {
      key: "menuText",
      label: "Menu",
      type: "textarea",
      maxLength: 20_000,
      help: "A line starting with # starts a section. Then one dish a line: name | price | description.",
    },
  ]),
  premium("opentable", "OpenTable", "Restaurant reservations.", Feature.OPENTABLE_BLOCK, "OpenTable block", [
    { key: "restaurantId", label: "Restaurant ID", type: "text", required: true, maxLength: 20 },
    { key: "name", label: "Name", type: "text", maxLength: 200 },
  ]),
  premium(
    "member-area",
    "Member area",
    "A sign-up for a member area.",
    Feature.MEMBER_AREAS,
    "Member areas",
    [{ ...TITLE, default: "Members only" }, description(2000), buttonLabel("Join now"), LINK],
  ),
];

/** Options of collection pages by kind (the gallery option set for galleries). */
export const COLLECTION_OPTION_FIELDS: Record<string, FieldDef[]> = {
  blog: [{ key: "pageSize", label: "Posts per page", type: "number", min: 1, max: 100, default: 10 }],
  products: [{ key: "pageSize", label: "Products per page", type: "number", min: 1, max: 200, default: 24 }],
  events: [
    {
      key: "showPastOrUpcomingEvents",
      label: "Events shown",
      type: "select",
      default: "upcoming",
      options: [
        { value: "upcoming", label: "Upcoming events" },
        { value: "past", label: "Past events" },
      ],
    },
    { key: "calendarView", label: "Show a calendar", type: "boolean", default: false },
  ],
  gallery: GALLERY_OPTION_FIELDS,
  album: [],
  page: [],
  folder: [],
};

export const blockTypeByName = new Map(BLOCK_TYPES.map((b) => [b.type, b]));

/** Block types the site's plan enables (SPEC §6), given its enabled features. */
export function blockTypesFor(enabled: ReadonlySet<number>) {
  return BLOCK_TYPES.map((b) => ({
    ...b,
    available: b.feature === undefined || enabled.has(b.feature),
  }));
}
