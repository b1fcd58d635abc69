/**
 * The SEO title and description an owner may give a page, item or product. Search engines show
 * about 60 and 160 characters; longer texts are kept up to the limits here and cut by them.
 */
export const SEO_TITLE_MAX = 200;
export const SEO_DESCRIPTION_MAX = 400;

interface SeoInput {
  seoTitle?: string | null;
  seoDescription?: string | null;
  seoHidden?: boolean;
}

export function seoFieldErrors(input: SeoInput): Record<string, string> {
  const f: Record<string, string> = {};
  if ((input.seoTitle ?? "").trim().length > SEO_TITLE_MAX)
    f.seoTitle = `An SEO title has at most ${SEO_TITLE_MAX} characters.`;
  if ((input.seoDescription ?? "").trim().length > SEO_DESCRIPTION_MAX)
    f.seoDescription = `An SEO description has at most ${SEO_DESCRIPTION_MAX} characters.`;
  return f;
}

/** Plain text, one line; empty means "use the title and excerpt". Absent fields are left as they are. */
export function seoValues(input: SeoInput): {
  seoTitle?: string | null;
  seoDescription?: string | null;
  seoHidden?: boolean;
} {
  const clean = (v: string | null | undefined) =>
    v === undefined ? undefined : (v ?? "").replace(/\s+/g, " ").trim() || null;
  const out: { seoTitle?: string | null; seoDescription?: string | null; seoHidden?: boolean } = {};
  if (input.seoHidden !== undefined) out.seoHidden = input.seoHidden;
  const title = clean(input.seoTitle);
  const description = clean(input.seoDescription);
  if (title !== undefined) out.seoTitle = title;
  if (description !== undefined) out.seoDescription = description;
  return out;
}
