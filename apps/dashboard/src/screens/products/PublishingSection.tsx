/** The editor's side column: type, store page and visibility; categories and tags; product page options. */
import { Card } from "../../components/Card.js";
import {
  CategoryTagFields,
  CheckboxField,
  SelectField,
  TextField,
  binder,
} from "../../components/form/index.js";
import { useForms } from "../../components/ui.js";
import { PRODUCT_TYPES, type SectionProps } from "./model.js";

export function PublishingSection({
  f,
  set,
  errors,
  stores,
}: SectionProps & { stores: { id: string; title: string }[] }) {
  const field = binder(f, set, errors);
  const plain = binder(f, set);
  const forms = useForms();
  return (
    <>
      <Card title="Publishing">
        <SelectField
          label="Product type"
          value={String(f.productType)}
          onChange={(v) => set({ productType: Number(v), isSubscribable: false })}
          options={PRODUCT_TYPES}
          error={errors.productType}
        />
        <SelectField
          label="Store page"
          {...plain("collectionId")}
          options={stores.map((s) => ({ value: s.id, label: s.title }))}
          error={errors.collectionId}
        />
        <CheckboxField label="Visible in the shop" {...plain("visible")} />
        <TextField
          label="URL slug"
          {...field("urlId")}
          help={f.urlId ? undefined : "Made from the name when empty"}
        />
      </Card>
      <Card title="Organization">
        <CategoryTagFields categories={field("categories")} tags={field("tags")} />
      </Card>
      <Card title="Product page">
        <TextField
          label="Scarcity text"
          {...field("scarcityText")}
          help="Shown when stock is low, e.g. Only {qtyInStock} left"
        />
        <CheckboxField label="Custom add-to-cart button text" {...plain("useCustomAddButtonText")} />
        {f.useCustomAddButtonText ? (
          <TextField label="Button text" {...field("customAddButtonText")} />
        ) : null}
        <SelectField
          label="Additional fields form"
          {...plain("additionalFieldsFormId")}
          options={[
            { value: "", label: "None" },
            ...(forms.data ?? []).map((x) => ({ value: x.id, label: x.name })),
          ]}
          help="Questions shoppers answer when they add the product to the cart"
          error={errors.additionalFieldsFormId}
        />
      </Card>
    </>
  );
}
