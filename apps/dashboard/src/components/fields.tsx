/**
 * Inputs built from the server's field definitions: block properties, collection options and the
 * gallery settings panel all use them, so every input has its label, range and default.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { type FieldDef, type MediaItem, api, get } from "../api.js";
import { RichTextEditor } from "./RichText.js";
import { Check, ErrorNotice, Modal, errorText, usePages, useSiteId } from "./ui.js";

export function useMedia() {
  const siteId = useSiteId();
  return useQuery({
    queryKey: ["media", siteId],
    queryFn: () => get<{ media: MediaItem[] }>(`/api/owner/websites/${siteId}/media`).then((r) => r.media),
    enabled: Boolean(siteId),
  });
}

export function useUpload() {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("title", file.name.replace(/\.[^.]+$/, ""));
      form.append("file", file);
      return api<{ media: MediaItem }>(`/api/owner/websites/${siteId}/media`, { method: "POST", form }).then(
        (r) => r.media,
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["media", siteId] }),
  });
}

export function UploadButton({
  onUploaded,
  label = "Upload image",
}: {
  onUploaded?: (m: MediaItem) => void;
  label?: string;
}) {
  const upload = useUpload();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <span>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        ref={input}
        type="file"
        accept="image/*"
        style={{ display: "none" }}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) upload.mutate(file, { onSuccess: (m) => onUploaded?.(m) });
          e.target.value = "";
        }}
      />
      <button
        type="button"
        className="btn small"
        onClick={() => input.current?.click()}
        disabled={upload.isPending}
      >
        {upload.isPending ? "Uploading…" : label}
      </button>
      {upload.error ? <span className="error small"> {errorText(upload.error)}</span> : null}
    </span>
  );
}

/** Chooses one image (or several) from the media library, with upload. */
export function MediaPicker({
  multiple,
  value,
  onChange,
  onClose,
}: {
  multiple?: boolean;
  value: string[];
  onChange: (ids: string[]) => void;
  onClose: () => void;
}) {
  const media = useMedia();
  const [chosen, setChosen] = useState<string[]>(value);
  const toggle = (id: string) => {
    if (!multiple) setChosen([id]);
    else setChosen(chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id]);
  };
  return (
    <Modal
      title={multiple ? "Choose images" : "Choose an image"}
      onClose={onClose}
      wide
      footer={
        <>
          <UploadButton onUploaded={(m) => toggle(m.id)} />
          <span style={{ flex: 1 }} />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn primary"
            onClick={() => {
              onChange(chosen);
              onClose();
            }}
          >
            Use {multiple ? `${chosen.length} image${chosen.length === 1 ? "" : "s"}` : "image"}
          </button>
        </>
      }
    >
      <ErrorNotice error={media.error} />
      <div className="media-grid">
        {media.data?.map((m) => (
          <button
            type="button"
            key={m.id}
            className="media-tile"
            aria-pressed={chosen.includes(m.id)}
            onClick={() => toggle(m.id)}
            title={m.title || m.filename}
          >
            <img src={`${m.assetUrl}?format=300w`} alt="" loading="lazy" />
            <span>{m.title || m.filename}</span>
          </button>
        ))}
      </div>
      {media.data && !media.data.length ? <p className="empty">No images yet: upload one.</p> : null}
    </Modal>
  );
}

function ImageField({
  def,
  value,
  onChange,
}: {
  def: FieldDef;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const media = useMedia();
  const [open, setOpen] = useState(false);
  const multiple = def.type === "images";
  const ids = multiple
    ? Array.isArray(value)
      ? (value as string[])
      : []
    : typeof value === "string" && value
      ? [value]
      : [];
  const byId = new Map(media.data?.map((m) => [m.id, m]));
  return (
    <div className="field">
      <span className="label">{def.label}</span>
      <div className="btn-row">
        {ids.map((id) => {
          const m = byId.get(id);
          return m ? (
            <img key={id} className="thumb" src={`${m.assetUrl}?format=100w`} alt={m.title} />
          ) : null;
        })}
        <button type="button" className="btn small" onClick={() => setOpen(true)}>
          {ids.length
            ? multiple
              ? "Change images"
              : "Change image"
            : multiple
              ? "Choose images"
              : "Choose image"}
        </button>
        {ids.length ? (
          <button
            type="button"
            className="btn ghost small"
            onClick={() => onChange(multiple ? [] : undefined)}
          >
            Remove
          </button>
        ) : null}
      </div>
      {open ? (
        <MediaPicker
          multiple={multiple}
          value={ids}
          onClose={() => setOpen(false)}
          onChange={(next) => onChange(multiple ? next : next[0])}
        />
      ) : null}
    </div>
  );
}

function RefSelect({
  def,
  value,
  onChange,
  options,
  loading,
}: {
  def: FieldDef;
  value: unknown;
  onChange: (v: unknown) => void;
  options: { value: string; label: string }[];
  loading: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{def.label}</label>
      <select
        id={id}
        value={typeof value === "string" ? value : ""}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">{loading ? "Loading…" : def.required ? "Choose…" : "None"}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {def.help ? <span className="help">{def.help}</span> : null}
    </div>
  );
}

function CollectionField(props: { def: FieldDef; value: unknown; onChange: (v: unknown) => void }) {
  const pages = usePages();
  const options = (pages.data ?? [])
    .filter((p) => !props.def.kinds || props.def.kinds.includes(p.kind))
    .map((p) => ({ value: p.id, label: p.title }));
  return <RefSelect {...props} options={options} loading={pages.isLoading} />;
}

function FormField(props: { def: FieldDef; value: unknown; onChange: (v: unknown) => void }) {
  const siteId = useSiteId();
  const forms = useQuery({
    queryKey: ["forms", siteId],
    queryFn: () =>
      get<{ forms: { id: string; name: string }[] }>(`/api/owner/sites/${siteId}/forms`).then((r) => r.forms),
    // A form made in the other tab (the link below) shows up on coming back.
    refetchOnWindowFocus: true,
  });
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

function ProductField(props: { def: FieldDef; value: unknown; onChange: (v: unknown) => void }) {
  const siteId = useSiteId();
  const products = useQuery({
    queryKey: ["product-options", siteId],
    queryFn: () =>
      get<{ products: { id: string; title: string }[] }>(
        `/api/owner/sites/${siteId}/products?pageSize=200`,
      ).then((r) => r.products),
  });
  return (
    <RefSelect
      {...props}
      options={(products.data ?? []).map((p) => ({ value: p.id, label: p.title }))}
      loading={products.isLoading}
    />
  );
}

function NumberInput({
  def,
  value,
  onChange,
}: {
  def: FieldDef;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const id = useId();
  const n = typeof value === "number" ? value : typeof def.default === "number" ? def.default : "";
  const out =
    typeof value === "number" &&
    ((def.min !== undefined && value < def.min) || (def.max !== undefined && value > def.max));
  return (
    <div className={`field${out ? " invalid" : ""}`}>
      <label htmlFor={id}>{def.label}</label>
      <input
        id={id}
        type="number"
        min={def.min}
        max={def.max}
        step={1}
        value={n}
        onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
      />
      <span className={out ? "error" : "help"}>
        {def.min !== undefined ? `From ${def.min} to ${def.max}` : ""}
        {def.default !== undefined ? ` · default ${def.default}` : ""}
      </span>
    </div>
  );
}

export function FieldInput({
  def,
  value,
  onChange,
}: {
  def: FieldDef;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const id = useId();
  const str =
    typeof value === "string"
      ? value
      : value === undefined && typeof def.default === "string"
        ? def.default
        : "";
  switch (def.type) {
    case "richtext":
      return (
        <div className="field">
          <span className="label" id={id}>
            {def.label}
          </span>
          <RichTextEditor value={str} onChange={onChange} labelledBy={id} placeholder={def.placeholder} />
        </div>
      );
    case "textarea":
    case "code":
      return (
        <div className="field">
          <label htmlFor={id}>{def.label}</label>
          <textarea
            id={id}
            className={def.type === "code" ? "code" : undefined}
            value={str}
            maxLength={def.maxLength}
            onChange={(e) => onChange(e.target.value)}
          />
          {def.help ? <span className="help">{def.help}</span> : null}
        </div>
      );
    case "number":
      return <NumberInput def={def} value={value} onChange={onChange} />;
    case "boolean":
      return (
        <Check
          label={def.label}
          help={def.help}
          checked={typeof value === "boolean" ? value : Boolean(def.default)}
          onChange={onChange}
        />
      );
    case "select":
      return (
        <div className="field">
          <label htmlFor={id}>{def.label}</label>
          <select id={id} value={str || String(def.default ?? "")} onChange={(e) => onChange(e.target.value)}>
            {def.options?.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      );
    case "image":
    case "images":
      return <ImageField def={def} value={value} onChange={onChange} />;
    case "collection":
      return <CollectionField def={def} value={value} onChange={onChange} />;
    case "form":
      return <FormField def={def} value={value} onChange={onChange} />;
    case "product":
      return <ProductField def={def} value={value} onChange={onChange} />;
    case "location": {
      const loc = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
      const set = (k: string, v: unknown) => onChange({ ...loc, [k]: v === "" ? undefined : v });
      const keys: [string, string][] = [
        ["addressTitle", "Place name"],
        ["addressLine1", "Address line 1"],
        ["addressLine2", "Address line 2"],
        ["addressCountry", "Country"],
      ];
      return (
        <fieldset>
          <legend>{def.label}</legend>
          {keys.map(([k, label]) => (
            <div className="field" key={k}>
              <label htmlFor={`${id}-${k}`}>{label}</label>
              <input
                id={`${id}-${k}`}
                type="text"
                value={String(loc[k] ?? "")}
                onChange={(e) => set(k, e.target.value)}
              />
            </div>
          ))}
          <div className="grid-2">
            {(["mapLat", "mapLng"] as const).map((k) => (
              <div className="field" key={k}>
                <label htmlFor={`${id}-${k}`}>{k === "mapLat" ? "Latitude" : "Longitude"}</label>
                <input
                  id={`${id}-${k}`}
                  type="number"
                  step="any"
                  value={loc[k] === undefined ? "" : String(loc[k])}
                  onChange={(e) => set(k, e.target.value === "" ? "" : Number(e.target.value))}
                />
              </div>
            ))}
          </div>
        </fieldset>
      );
    }
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
        <div className="field">
          <label htmlFor={id}>{def.label}</label>
          <input
            id={id}
            type="text"
            value={str}
            maxLength={def.maxLength}
            placeholder={def.type === "url" ? "/page, https://… or mailto:…" : undefined}
            onChange={(e) => onChange(e.target.value)}
          />
          {def.help ? <span className="help">{def.help}</span> : null}
        </div>
      );
  }
}

/** The gallery settings panel: the SPEC's option set with its ranges and defaults. */
export function GallerySettings({
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
