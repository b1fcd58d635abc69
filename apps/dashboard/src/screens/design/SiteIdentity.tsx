/** Design → Site identity: the header logo, the site icon (favicon) and the default sharing image. */
import { useEffect, useState } from "react";
import { ApiError } from "../../api.js";
import { MediaPicker, useMedia } from "../../components/fields.js";
import { ErrorNotice, Loading, Notice, PageHead, TextField, useSite } from "../../components/ui.js";
import { RangeField } from "./controls.js";
import { type Design, useDesign, useSaveDesign } from "./design-api.js";
import { errorsByPath } from "./field-errors.js";
import "./design.css";

interface Form {
  logoMediaId: string | null;
  logoAlt: string;
  logoMaxHeight: number;
  siteIconMediaId: string | null;
  socialImageMediaId: string | null;
}

const formOf = (d: Design): Form => ({
  logoMediaId: d.logo?.mediaId ?? null,
  logoAlt: d.logo?.alt ?? "",
  logoMaxHeight: d.logo?.maxHeight ?? 48,
  siteIconMediaId: d.siteIcon?.mediaId ?? null,
  socialImageMediaId: d.socialImage?.mediaId ?? null,
});

type ImageKey = "logoMediaId" | "siteIconMediaId" | "socialImageMediaId";

export function SiteIdentity() {
  const design = useDesign();
  const site = useSite();
  const media = useMedia();
  const save = useSaveDesign();
  const [form, setForm] = useState<Form | undefined>();
  const [picking, setPicking] = useState<ImageKey | undefined>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (design.data && !form) setForm(formOf(design.data));
  }, [design.data, form]);

  if (design.isLoading || (!form && !design.error)) return <Loading />;
  if (!design.data || !form) return <ErrorNotice error={design.error} />;
  const d = design.data;
  const dirty = JSON.stringify(form) !== JSON.stringify(formOf(d));
  const errors = errorsByPath(save.error instanceof ApiError ? save.error.fields : undefined);
  const urlOf = (id: string | null, known?: { mediaId: string; url: string } | null) =>
    id ? (known?.mediaId === id ? known.url : media.data?.find((m) => m.id === id)?.assetUrl) : undefined;
  const logoUrl = urlOf(form.logoMediaId, d.logo);
  const iconUrl = urlOf(form.siteIconMediaId, d.siteIcon);
  const socialUrl = urlOf(form.socialImageMediaId, d.socialImage);
  const set = (patch: Partial<Form>) => {
    setSaved(false);
    setForm({ ...form, ...patch });
  };
  const title = site.data?.title ?? "Your site";

  return (
    <div className="design-screen">
      <PageHead
        title="Site identity"
        sub="Your logo, the icon browsers show in tabs and bookmarks, and the image shown when your site is shared."
      />
      <form
        className="identity"
        aria-label="Site identity"
        onSubmit={(e) => {
          e.preventDefault();
          if (dirty)
            save.mutate(form, {
              onSuccess: (next) => {
                setForm(formOf(next));
                setSaved(true);
              },
            });
        }}
      >
        {saved ? <Notice kind="ok">Saved. Your site shows the new identity now.</Notice> : null}
        {save.error && !Object.keys(errors).length ? <ErrorNotice error={save.error} /> : null}

        <section className="card">
          <h2>Logo</h2>
          <p className="muted small">Shown in the header instead of the site title.</p>
          <ImageChoice
            label="Logo"
            url={logoUrl}
            error={errors.logoMediaId}
            onPick={() => setPicking("logoMediaId")}
            onRemove={() => set({ logoMediaId: null })}
          />
          <TextField
            label="Logo alt text"
            value={form.logoAlt}
            maxLength={200}
            error={errors.logoAlt}
            help="What the logo says, for people who cannot see it (usually your site's name)."
            onChange={(e) => set({ logoAlt: e.target.value })}
          />
          <RangeField
            label="Logo maximum height"
            unit="px"
            min={16}
            max={200}
            step={1}
            value={form.logoMaxHeight}
            error={errors.logoMaxHeight}
            onChange={(v) => set({ logoMaxHeight: v })}
          />
          <div className="identity-preview header-mock">
            {logoUrl ? (
              <img src={logoUrl} alt={form.logoAlt} style={{ maxHeight: form.logoMaxHeight }} />
            ) : (
              <strong>{title}</strong>
            )}
            <span className="muted small">Shop · Journal · Contact</span>
          </div>
        </section>

        <section className="card">
          <h2>Site icon</h2>
          <p className="muted small">
            A square image, at least 180 × 180 pixels: the browser tab icon and the home-screen icon on
            phones.
          </p>
          <ImageChoice
            label="Site icon"
            url={iconUrl}
            error={errors.siteIconMediaId}
            onPick={() => setPicking("siteIconMediaId")}
            onRemove={() => set({ siteIconMediaId: null })}
          />
          {iconUrl ? (
            <div className="identity-preview icon-mock">
              <span className="tab-mock">
                <img src={iconUrl} alt="" width={16} height={16} /> {title}
              </span>
              <img src={iconUrl} alt="" width={60} height={60} className="home-icon" />
            </div>
          ) : null}
        </section>

        <section className="card">
          <h2>Social sharing image</h2>
          <p className="muted small">
            Shown when a page without its own image is shared; 1200 × 630 pixels works best.
          </p>
          <ImageChoice
            label="Social sharing image"
            url={socialUrl}
            error={errors.socialImageMediaId}
            onPick={() => setPicking("socialImageMediaId")}
            onRemove={() => set({ socialImageMediaId: null })}
          />
          {socialUrl ? (
            <div className="identity-preview share-mock">
              <img src={socialUrl} alt="" />
              <span className="muted small">{site.data?.url.replace(/^https?:\/\//, "")}</span>
              <strong>{title}</strong>
            </div>
          ) : null}
        </section>

        <div className="btn-row">
          <button type="submit" className="btn primary" disabled={!dirty || save.isPending}>
            {save.isPending ? "Saving…" : "Save"}
          </button>
          {dirty ? <span className="muted small">Unsaved changes</span> : null}
        </div>
      </form>
      {picking ? (
        <MediaPicker
          value={form[picking] ? [form[picking]!] : []}
          onChange={(ids) => set({ [picking]: ids[0] ?? null })}
          onClose={() => setPicking(undefined)}
        />
      ) : null}
    </div>
  );
}

function ImageChoice({
  label,
  url,
  error,
  onPick,
  onRemove,
}: {
  label: string;
  url?: string;
  error?: string;
  onPick: () => void;
  onRemove: () => void;
}) {
  return (
    <div className={`field image-choice${error ? " invalid" : ""}`}>
      <span className="label">{label}</span>
      <div className="row">
        {url ? <img src={url} alt="" className="thumb" /> : <span className="muted small">None</span>}
        <button type="button" className="btn small" onClick={onPick}>
          {url ? `Change ${label.toLowerCase()}` : `Choose ${label.toLowerCase()}`}
        </button>
        {url ? (
          <button type="button" className="btn small ghost" onClick={onRemove}>
            Remove {label.toLowerCase()}
          </button>
        ) : null}
      </div>
      {error ? <span className="error">{error}</span> : null}
    </div>
  );
}
