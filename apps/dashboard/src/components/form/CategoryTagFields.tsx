/**
 * The categories and tags of a product or collection item: two comma-separated lists (read them with
 * textToList), each entry held to the server's length limits.
 */
import { MAX_CATEGORY_LENGTH, MAX_TAG_LENGTH } from "@atelier/owner-api";
import type { ValueFieldProps } from "./Field.js";
import { TextField } from "./inputs.js";

type ListText = Omit<ValueFieldProps<string>, "label" | "help">;

export function CategoryTagFields({ categories, tags }: { categories: ListText; tags: ListText }) {
  return (
    <>
      <TextField
        label="Categories"
        {...categories}
        help={`Separated by commas, ${MAX_CATEGORY_LENGTH} characters each at most`}
      />
      <TextField
        label="Tags"
        {...tags}
        help={`Separated by commas, ${MAX_TAG_LENGTH} characters each at most`}
      />
    </>
  );
}
