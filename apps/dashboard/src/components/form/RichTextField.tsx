/** Formatted text (bold, links, lists) in the rich-text editor, named by its label. */
import { RichTextEditor } from "../RichText.js";
import { Field, type ValueFieldProps } from "./Field.js";

export function RichTextField({
  value,
  onChange,
  placeholder,
  ...frame
}: ValueFieldProps<string> & {
  placeholder?: string;
}) {
  return (
    <Field {...frame} labelFor={false}>
      {({ labelId }) => (
        <RichTextEditor value={value} onChange={onChange} labelledBy={labelId} placeholder={placeholder} />
      )}
    </Field>
  );
}
