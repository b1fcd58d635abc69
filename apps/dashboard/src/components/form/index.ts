/** The dashboard form kit: one set of labelled fields, API field errors, and the save bar. */
export {
  CheckboxField,
  NumberField,
  type Option,
  SearchField,
  SelectField,
  TextareaField,
  TextField,
} from "./inputs.js";
export { CategoryTagFields } from "./CategoryTagFields.js";
export { CodeField } from "./CodeField.js";
export { ColorField } from "./ColorField.js";
export { errorText, errorsUnder, fieldErrors } from "./errors.js";
export { Field } from "./Field.js";
export { ImageField } from "./ImageField.js";
export { listToText, textToList } from "./list-text.js";
export { MoneyField, type MoneyValue, amountHint } from "./MoneyField.js";
export { RichTextField } from "./RichTextField.js";
export { DraftSaveBar, SaveBar } from "./SaveBar.js";
export { binder, useDraft } from "./useDraft.js";
