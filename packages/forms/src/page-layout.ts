/**
 * Page layouts as the pages API answers them (rows of columns of blocks) and the fields owners
 * edit in a block's settings: one set of shapes for the server, which checks drafts against the
 * block types, and the dashboard's page editor, which draws its block picker and panels from them.
 */

/** What a block setting holds, and so which input the editor shows for it. */
export type BlockFieldType =
  | "text"
  | "textarea"
  | "richtext"
  | "code"
  | "url"
  | "number"
  | "boolean"
  | "select"
  | "image"
  | "images"
  | "form"
  | "collection"
  | "product"
  | "location"
  | "gallery";

/** One setting of a block (or of a collection page's options). */
export interface FieldDef {
  key: string;
  label: string;
  type: BlockFieldType;
  required?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  default?: string | number | boolean;
  options?: { value: string; label: string }[];
  /** Shown under the input. */
  help?: string;
  /** Shown in the empty input (and in the editing frame for an empty text block), never saved. */
  placeholder?: string;
  /** For "collection": the kinds that may be chosen. */
  kinds?: string[];
  /** For "gallery": the options of the set. */
  fields?: FieldDef[];
}

export interface BlockTypeDef {
  type: string;
  label: string;
  description: string;
  group: "Basic" | "Media" | "Commerce" | "Forms" | "Embeds" | "Premium";
  fields: FieldDef[];
  /** The feature the site's plan must enable (SPEC §6). */
  feature?: number;
  featureName?: string;
}

export interface Block {
  id: string;
  type: string;
  [key: string]: unknown;
}
export interface Column {
  span: number;
  blocks: Block[];
}
export interface Row {
  columns: Column[];
}
export interface Layout {
  rows: Row[];
}
