/** The editor's side column: type, store page and visibility; categories and tags; product page options. */
import { useQuery } from "@tanstack/react-query";
import { get } from "../../api.js";
import { CheckboxField, SelectField, TextField } from "../../components/form/index.js";
import { useSiteId } from "../../components/ui.js";
import { PRODUCT_TYPES, type SectionProps } from "./model.js";

export function PublishingSection({
  f,
  set,
  errors,
  stores,
}: SectionProps & { stores: { id: string; title: string }[] }) {
  const siteId = useSiteId();
  const forms = useQuery({
    queryKey: ["forms", siteId],
    queryFn: () =>
      get<{ forms: { id: string; name: string }[] }>(`/api/owner/sites/${siteId}/forms`).then((r) => r.forms),
  });
  return (
    <>
      <div className="card">
        <h2>Publishing</h2>
        <SelectField
          label="Product type"
          value={String(f.productType)}
          onChange={(v) => set({ productType: Number(v), isSubscribable: false })}
          options={PRODUCT_TYPES}
          error={errors.productType}
        />
        <SelectField
          label="Store page"
          value={f.collectionId}
          onChange={(v) => set({ collectionId: v })}
          options={stores.map((s) => ({ value: s.id, label: s.title }))}
          error={errors.collectionId}
        />
        <CheckboxField
          label="Visible in the shop"
          value={f.visible}
          onChange={(visible) => set({ visible })}
        />
        <TextField
          label="URL slug"
          value={f.urlId}
          onChange={(v) => set({ urlId: v })}
          error={errors.urlId}
          help={f.urlId ? undefined : "Made from the name when empty"}
        />
      </div>
      <div className="card">
        <h2>Organization</h2>
        <TextField
          label="Categories"
          value={f.categories}
          onChange={(v) => set({ categories: v })}
          error={errors.categories}
          help="Separated by commas, 25 characters each at most"
        />
        <TextField
          label="Tags"
          value={f.tags}
          onChange={(v) => set({ tags: v })}
          error={errors.tags}
          help="Separated by commas, 50 characters each at most"
        />
      </div>
      <div className="card">
        <h2>Product page</h2>
        <TextField
          label="Scarcity text"
          value={f.scarcityText}
          onChange={(v) => set({ scarcityText: v })}
          error={errors.scarcityText}
          help="Shown when stock is low, e.g. Only {qtyInStock} left"
        />
        <CheckboxField
          label="Custom add-to-cart button text"
          value={f.useCustomAddButtonText}
          onChange={(useCustomAddButtonText) => set({ useCustomAddButtonText })}
        />
        {f.useCustomAddButtonText ? (
          <TextField
            label="Button text"
            value={f.customAddButtonText}
            onChange={(v) => set({ customAddButtonText: v })}
            error={errors.customAddButtonText}
          />
        ) : null}
        <SelectField
          label="Additional fields form"
          value={f.additionalFieldsFormId}
          onChange={(v) => set({ additionalFieldsFormId: v })}
          options={[
            { value: "", label: "None" },
            ...(forms.data ?? []).map((x) => ({ value: x.id, label: x.name })),
          ]}
          help="Questions shoppers answer when they add the product to the cart"
          error={errors.additionalFieldsFormId}
        />
      </div>
    </>
  );
}
