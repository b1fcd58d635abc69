/**
 * SEO title and description of a page, item or product, with character counters and a live
 * preview of the search result and of the card a share shows. Empty fields fall back to the
 * title and the short description, as the published page does.
 */
import { CheckboxField, TextField, TextareaField } from "./form/index.js";

/** What search engines show before cutting a text. */
const SEO_TITLE_SHOWN = 60;
const SEO_DESCRIPTION_SHOWN = 160;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

function Counter({ length, shown }: { length: number; shown: number }) {
  return (
    <span className={length > shown ? "error" : "help"} aria-live="polite">
      {length} / {shown} characters{length > shown ? ": search results will cut it" : ""}
    </span>
  );
}

export function SeoFields({
  title,
  description,
  fallbackTitle,
  fallbackDescription,
  siteTitle,
  url,
  imageUrl,
  errors,
  hidden,
  onChange,
}: {
  title: string;
  description: string;
  fallbackTitle: string;
  fallbackDescription: string;
  siteTitle: string;
  url: string;
  imageUrl?: string;
  errors: Record<string, string>;
  /** "Hide from search engines" (noindex, and out of the sitemap). */
  hidden: boolean;
  onChange: (patch: { seoTitle?: string; seoDescription?: string; seoHidden?: boolean }) => void;
}) {
  const shownTitle = `${title.trim() || fallbackTitle} — ${siteTitle}`;
  const shownDescription = description.trim() || fallbackDescription;
  return (
    <div className="card seo-fields">
      <h2>Search and sharing</h2>
      <TextField
        label="SEO title"
        value={title}
        placeholder={fallbackTitle}
        onChange={(v) => onChange({ seoTitle: v })}
        error={errors.seoTitle}
      />
      <Counter length={shownTitle.length} shown={SEO_TITLE_SHOWN} />
      <TextareaField
        label="SEO description"
        value={description}
        placeholder={fallbackDescription}
        onChange={(v) => onChange({ seoDescription: v })}
        error={errors.seoDescription}
      />
      <Counter length={shownDescription.length} shown={SEO_DESCRIPTION_SHOWN} />
      <CheckboxField
        label="Hide from search engines"
        help="Search engines are asked not to list it, and it is left out of the sitemap. Visitors still reach it."
        value={hidden}
        onChange={(seoHidden) => onChange({ seoHidden })}
      />
      <div className="seo-previews">
        <figure className="seo-preview search" aria-label="Search result preview">
          <figcaption className="small muted">In search results</figcaption>
          <div className="seo-url">{url}</div>
          <div className="seo-title" data-testid="seo-preview-title">
            {cut(shownTitle, SEO_TITLE_SHOWN)}
          </div>
          <div className="seo-description">{cut(shownDescription, SEO_DESCRIPTION_SHOWN)}</div>
        </figure>
        <figure className="seo-preview share" aria-label="Share preview">
          <figcaption className="small muted">When shared</figcaption>
          {imageUrl ? <img src={imageUrl} alt="" /> : <div className="seo-noimage">No image</div>}
          <div className="seo-share-text">
            <div className="seo-url">{hostOf(url)}</div>
            <div className="seo-title">{cut(title.trim() || fallbackTitle, 90)}</div>
            <div className="seo-description">{cut(shownDescription, 110)}</div>
          </div>
        </figure>
      </div>
    </div>
  );
}
