/**
 * Inputs built from the server's field definitions: block properties, collection options and the
 * gallery settings panel all use them, so every input has its label, range and default.
 */
import { html } from "@codemirror/lang-html";
import { useQuery } from "@tanstack/react-query";
import { type FieldDef, get } from "../api.js";
import {
  CheckboxField,
  CodeField,
  ImageField,
  NumberField,
  type Option,
  RichTextField,
  SelectField,
  TextareaField,
  TextField,
} from "./form/index.js";
import { useForms, usePages, useSiteId } from "./ui.js";

const htmlLanguage = html();

/** What every input made from a definition takes. */
interface DefProps {
  def: FieldDef;
  value: unknown;
  onChange: (v: unknown) => void;
}

/** The label and help a definition gives its input. */
const labelOf = (def: FieldDef) => ({ label: def.label, help: def.help });

function DefImageField({ def, value, onChange }: DefProps) {
  return def.type === "images" ? (
    <ImageField
      {...labelOf(def)}
      multiple
      value={Array.isArray(value) ? (value as string[]) : []}
      onChange={onChange}
    />
  ) : (
    <ImageField
      {...labelOf(def)}
      value={typeof value === "string" && value ? value : undefined}
      onChange={onChange}
    />
  );
}

function RefSelect({
  def,
  value,
  onChange,
  options,
  loading,
}: DefProps & {
  options: Option[];
  loading: boolean;
}) {
  const none = { value: "", label: loading ? "Loading…" : def.required ? "Choose…" : "None" };
  return (
    <SelectField
      {...labelOf(def)}
      value={typeof value === "string" ? value : ""}
      onChange={(v) => onChange(v || undefined)}
      options={[none, ...options]}
    />
  );
}

function CollectionField(props: DefProps) {
  const pages = usePages();
  const options = (pages.data ?? [])
    .filter((p) => !props.def.kinds || props.def.kinds.includes(p.kind))
    .map((p) => ({ value: p.id, label: p.title }));
  return <RefSelect {...props} options={options} loading={pages.isLoading} />;
}

function FormField(props: DefProps) {
  const siteId = useSiteId();
  // A form made in the other tab (the link below) shows up on coming back.
  const forms = useForms({ refetchOnWindowFocus: true });
  const none = forms.data !== undefined && forms.data.length === 0;
  const chosen = typeof props.value === "string" && forms.data?.some((f) => f.id === props.value);
  return (
    <>
      <RefSelect
        {...props}
        options={(forms.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
        loading={forms.isLoading}
      />
      {forms.data ? (
        <p className="help small" style={{ marginTop: "-0.6rem" }}>
          {none ? "This site has no forms yet. " : null}
          <a
            href={`/config/sites/${siteId}/forms/${chosen ? props.value : "new"}`}
            target="_blank"
            rel="noreferrer"
          >
            {chosen ? "Edit this form's fields" : "Create a form"}
          </a>{" "}
          <span className="muted">(opens in a new tab)</span>
        </p>
      ) : null}
    </>
  );
}

/** The site's products (the first 200), for choosing some by title. */
export function useProductOptions() {
  const siteId = useSiteId();
  return useQuery({
    queryKey: ["product-options", siteId],
    queryFn: () =>
      get<{ products: { id: string; title: string }[] }>(
        `/api/owner/sites/${siteId}/products?pageSize=200`,
      ).then((r) => r.products),
  });
}

function ProductField(props: DefProps) {
  const products = useProductOptions();
  return (
    <RefSelect
      {...props}
      options={(products.data ?? []).map((p) => ({ value: p.id, label: p.title }))}
      loading={products.isLoading}
    />
  );
}

function DefNumberField({ def, value, onChange }: DefProps) {
  const out =
    typeof value === "number" &&
    ((def.min !== undefined && value < def.min) || (def.max !== undefined && value > def.max));
  const range = def.min !== undefined ? `From ${def.min} to ${def.max}` : "";
  const fallback = def.default !== undefined ? ` · default ${def.default}` : "";
  return (
    <NumberField
      label={def.label}
      min={def.min}
      max={def.max}
      step={1}
      value={typeof value === "number" ? value : typeof def.default === "number" ? def.default : undefined}
      onChange={onChange}
      help={range + fallback}
      error={out ? range + fallback : undefined}
    />
  );
}

/** The address fields of a location, then its map point. */
function LocationField({ def, value, onChange }: DefProps) {
  const loc = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const set = (k: string, v: unknown) => onChange({ ...loc, [k]: v === "" ? undefined : v });
  return (
    <fieldset>
      <legend>{def.label}</legend>
      {ADDRESS_PARTS.map(([k, label]) => (
        <TextField key={k} label={label} value={String(loc[k] ?? "")} onChange={(v) => set(k, v)} />
      ))}
      <div className="grid-2">
        {MAP_POINT.map(([k, label]) => (
          <NumberField
            key={k}
            label={label}
            step="any"
            value={loc[k] as number | undefined}
            onChange={(v) => set(k, v ?? "")}
          />
        ))}
      </div>
    </fieldset>
  );
}

const ADDRESS_PARTS = [
  ["addressTitle", "Place name"],
  ["addressLine1", "Address line 1"],
  ["addressLine2", "Address line 2"],
  ["addressCountry", "Country"],
] as const;
const MAP_POINT = [
  ["mapLat", "Latitude"],
  ["mapLng", "Longitude"],
] as const;

function FieldInput({ def, value, onChange }: DefProps) {
  const str =
    typeof value === "string"
      ? value
      : value === undefined && typeof def.default === "string"
        ? def.default
        : "";
  switch (def.type) {
    case "richtext":
      return (
        <RichTextField label={def.label} value={str} onChange={onChange} placeholder={def.placeholder} />
      );
    case "textarea":
      return <TextareaField {...labelOf(def)} value={str} maxLength={def.maxLength} onChange={onChange} />;
    case "code":
      return <CodeField {...labelOf(def)} value={str} onChange={onChange} language={htmlLanguage} />;
    case "number":
      return <DefNumberField def={def} value={value} onChange={onChange} />;
    case "boolean":
      return (
        <CheckboxField
          {...labelOf(def)}
          value={typeof value === "boolean" ? value : Boolean(def.default)}
          onChange={onChange}
        />
      );
    case "select":
      return (
        <SelectField
          {...labelOf(def)}
          value={str || String(def.default ?? "")}
          onChange={onChange}
          options={def.options ?? []}
        />
      );
    case "image":
    case "images":
      return <DefImageField def={def} value={value} onChange={onChange} />;
    case "collection":
      return <CollectionField def={def} value={value} onChange={onChange} />;
    case "form":
      return <FormField def={def} value={value} onChange={onChange} />;
    case "product":
      return <ProductField def={def} value={value} onChange={onChange} />;
    case "location":
      return <LocationField def={def} value={value} onChange={onChange} />;
    case "gallery":
      return (
        <GallerySettings
          fields={def.fields ?? []}
          value={(value as Record<string, unknown>) ?? {}}
          onChange={onChange}
        />
      );
    default:
      return (
        <TextField
          {...labelOf(def)}
          value={str}
          maxLength={def.maxLength}
          placeholder={def.type === "url" ? "/page, https://… or mailto:…" : undefined}
          onChange={onChange}
        />
      );
  }
}

/** The gallery settings panel: the SPEC's option set with its ranges and defaults. */
function GallerySettings({
  value,
  onChange,
  fields,
}: {
  value: Record<string, unknown>;
  onChange: (v: Record<string, unknown>) => void;
  fields: FieldDef[];
}) {
  return (
    <fieldset>
      <legend>Gallery settings</legend>
      {fields.map((f) => (
        <FieldInput
          key={f.key}
          def={f}
          value={value[f.key]}
          onChange={(v) => onChange({ ...value, [f.key]: v })}
        />
      ))}
    </fieldset>
  );
}

export function FieldList({
  fields,
  values,
  onChange,
}: {
  fields: FieldDef[];
  values: Record<string, unknown>;
  onChange: (key: string, v: unknown) => void;
}) {
  return (
    <>
      {fields.map((f) => (
        <FieldInput key={f.key} def={f} value={values[f.key]} onChange={(v) => onChange(f.key, v)} />
      ))}
    </>
  );
}
