/** Design → Site identity: the header logo, the site icon (favicon) and the default sharing image. */
import { DesignHistory } from "./DesignHistory.js";
import { LOGO_ALT_MAX_LENGTH } from "@atelier/owner-api";
import { useState } from "react";
import { ApiError } from "../../api.js";
import { Card } from "../../components/Card.js";
import { ImageField, SaveBar, TextField, useDraft, binder } from "../../components/form/index.js";
import { useMedia } from "../../components/media.js";
import { ErrorNotice, Loading, PageHead, useSite } from "../../components/ui.js";
import { RangeField } from "./controls.js";
import { type Design, useDesign, useSaveDesign } from "./design-api.js";
import { errorsByPath } from "./field-errors.js";
import { useLeaveGuard } from "./use-style-history.js";
import "./design.css";

interface Identity {
  logoMediaId: string | undefined;
  logoAlt: string;
  logoMaxHeight: number;
  siteIconMediaId: string | undefined;
  socialImageMediaId: string | undefined;
}

const identityOf = (d: Design): Identity => ({
  logoMediaId: d.logo?.mediaId,
  logoAlt: d.logo?.alt ?? "",
  logoMaxHeight: d.logo?.maxHeight ?? 48,
  siteIconMediaId: d.siteIcon?.mediaId,
  socialImageMediaId: d.socialImage?.mediaId,
});

export function SiteIdentity() {
  const design = useDesign();
  if (!design.data) return design.error ? <ErrorNotice error={design.error} /> : <Loading />;
  return <IdentityForm design={design.data} />;
}

function IdentityForm({ design }: { design: Design }) {
  const site = useSite();
  const media = useMedia();
  const save = useSaveDesign();
  const form = useDraft(identityOf(design));
  const [saved, setSaved] = useState(false);
  useLeaveGuard(form.dirty);
  const v = form.values;
  const errors = errorsByPath(save.error instanceof ApiError ? save.error.fields : undefined);
  const urlOf = (id: string | undefined, known: { mediaId: string; url: string } | null) =>
    id ? (known?.mediaId === id ? known.url : media.data?.find((m) => m.id === id)?.assetUrl) : undefined;
  const logoUrl = urlOf(v.logoMediaId, design.logo);
  const iconUrl = urlOf(v.siteIconMediaId, design.siteIcon);
  const socialUrl = urlOf(v.socialImageMediaId, design.socialImage);
  const title = site.data?.title ?? "Your site";
  const set = (patch: Partial<Identity>) => {
    setSaved(false);
    form.set(patch);
  };
  const field = binder(v, set, errors);

  return (
    <div className="design-screen">
      <PageHead
        title="Site identity"
        sub="Your logo, the icon browsers show in tabs and bookmarks, and the image shown when your site is shared."
        actions={<DesignHistory />}
      />
      <form
        className="identity"
        aria-label="Site identity"
        onSubmit={(e) => {
          e.preventDefault();
          if (!form.dirty || save.isPending) return;
          save.mutate(
            {
              logoMediaId: v.logoMediaId ?? null,
              logoAlt: v.logoAlt,
              logoMaxHeight: v.logoMaxHeight,
              siteIconMediaId: v.siteIconMediaId ?? null,
              socialImageMediaId: v.socialImageMediaId ?? null,
            },
            {
              onSuccess: (next) => {
                form.reset(identityOf(next));
                setSaved(true);
              },
            },
          );
        }}
      >
        {save.error && !Object.keys(errors).length ? <ErrorNotice error={save.error} /> : null}

        <Card title="Logo" as="section">
          <ImageField
            label="Logo"
            help="Shown in the header instead of the site title."
            {...field("logoMediaId")}
          />
          <TextField
            label="Logo alt text"
            value={v.logoAlt}
            maxLength={LOGO_ALT_MAX_LENGTH}
            error={errors.logoAlt}
            help="What the logo says, for people who cannot see it (usually your site's name)."
            onChange={(logoAlt) => set({ logoAlt })}
          />
          <RangeField
            label="Logo maximum height"
            unit="px"
            min={24}
            max={200}
            step={1}
            {...field("logoMaxHeight")}
          />
          <p className="preview-caption">Header preview</p>
          <div className="identity-preview header-mock">
            {logoUrl ? (
              <img src={logoUrl} alt={v.logoAlt} style={{ maxHeight: v.logoMaxHeight }} />
            ) : (
              <strong>{title}</strong>
            )}
            <span className="muted small">Shop · Journal · Contact</span>
          </div>
        </Card>

        <Card title="Site icon" as="section">
          <ImageField
            label="Site icon"
            help="A square image of at least 180 × 180 pixels: the browser tab icon and the phone home-screen icon."
            {...field("siteIconMediaId")}
          />
          {iconUrl ? (
            <>
              <p className="preview-caption">Tab and home-screen preview</p>
              <div className="identity-preview icon-mock">
                <span className="tab-mock">
                  <img src={iconUrl} alt="" width={16} height={16} /> {title}
                </span>
                <img src={iconUrl} alt="" width={60} height={60} className="home-icon" />
              </div>
            </>
          ) : null}
        </Card>

        <Card title="Social sharing image" as="section">
          <ImageField
            label="Social sharing image"
            help="Shown when a page without its own image is shared; 1200 × 630 pixels works best."
            {...field("socialImageMediaId")}
          />
          {socialUrl ? (
            <>
              <p className="preview-caption">Sharing preview</p>
              <div className="identity-preview share-mock">
                <img src={socialUrl} alt="" />
                <span className="muted small">{site.data?.url.replace(/^https?:\/\//, "")}</span>
                <strong>{title}</strong>
              </div>
            </>
          ) : null}
        </Card>

        <SaveBar
          dirty={form.dirty}
          pending={save.isPending}
          saved={saved && "Site identity saved."}
          onDiscard={form.discard}
          saveLabel="Save identity"
        />
      </form>
    </div>
  );
}
