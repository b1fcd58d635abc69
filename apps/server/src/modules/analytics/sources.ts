/**
 * Where a visit came from and on what: the source (search engines, social networks, email, other
 * sites, direct), the referring domain, the UTM tags of the landing URL, and the device from the
 * user agent. Pure functions of the visit's first page view.
 */

export type Source = "search" | "social" | "email" | "referral" | "direct";
export type Device = "phone" | "tablet" | "desktop";

const SEARCH = [
  /(^|\.)google\.[a-z.]+$/,
  /(^|\.)bing\.com$/,
  /(^|\.)duckduckgo\.com$/,
  /(^|\.)search\.yahoo\.com$/,
  /(^|\.)yahoo\.[a-z.]+$/,
  /(^|\.)baidu\.com$/,
  /(^|\.)yandex\.[a-z.]+$/,
  /(^|\.)ecosia\.org$/,
  /(^|\.)qwant\.com$/,
  /(^|\.)startpage\.com$/,
  /(^|\.)search\.brave\.com$/,
];
const SOCIAL = [
  /(^|\.)facebook\.com$/,
  /(^|\.)fb\.me$/,
  /(^|\.)instagram\.com$/,
  /^t\.co$/,
  /(^|\.)twitter\.com$/,
  /^x\.com$/,
  /(^|\.)linkedin\.com$/,
  /^lnkd\.in$/,
  /(^|\.)pinterest\.[a-z.]+$/,
  /(^|\.)reddit\.com$/,
  /(^|\.)tiktok\.com$/,
  /(^|\.)youtube\.com$/,
  /(^|\.)threads\.net$/,
  /(^|\.)bsky\.app$/,
  /(^|\.)mastodon\.social$/,
];
const WEBMAIL = [/^mail\.google\.com$/, /^outlook\.(live|office)\.com$/, /^mail\.yahoo\.com$/];
const EMAIL_MEDIUMS = new Set(["email", "e-mail", "newsletter", "mail"]);
const SOCIAL_MEDIUMS = new Set(["social", "social-media", "social_media", "sm"]);
const SEARCH_MEDIUMS = new Set(["cpc", "ppc", "organic", "paidsearch", "search"]);

function parse(url: string | null | undefined): URL | undefined {
  if (!url) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

const bareHost = (u: URL) => u.hostname.toLowerCase().replace(/^www\./, "");
const tag = (u: URL | undefined, name: string) => {
  const v = u?.searchParams.get(name)?.trim().toLowerCase().slice(0, 200);
  return v ? v : undefined;
};

/** The device class of a user agent: tablets first (an iPad or an Android without "Mobile"). */
export function deviceOf(userAgent: string | null | undefined): Device {
  const ua = userAgent ?? "";
  if (/iPad|Tablet|PlayBook|Silk|Kindle/i.test(ua) || (/Android/i.test(ua) && !/Mobile/i.test(ua))) {
    return "tablet";
  }
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(ua)) return "phone";
  return "desktop";
}

export interface VisitOrigin {
  source: Source;
  /** The other site's domain (without www.), for visits from another site. */
  domain?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  device: Device;
}

/** Classifies a visit by its landing URL (UTM tags), its referrer and its user agent. */
export function classifyVisit(first: {
  url: string | null | undefined;
  referrer: string | null | undefined;
  userAgent: string | null | undefined;
}): VisitOrigin {
  const landing = parse(first.url);
  const from = parse(first.referrer);
  const utmSource = tag(landing, "utm_source");
  const utmMedium = tag(landing, "utm_medium");
  const utmCampaign = tag(landing, "utm_campaign");
  const external = from && (!landing || bareHost(from) !== bareHost(landing)) ? bareHost(from) : undefined;
  const matches = (list: RegExp[], host: string | undefined) => !!host && list.some((r) => r.test(host));
  let source: Source;
  if ((utmMedium && EMAIL_MEDIUMS.has(utmMedium)) || matches(WEBMAIL, external)) source = "email";
  else if (matches(SEARCH, external) || (utmMedium && SEARCH_MEDIUMS.has(utmMedium))) source = "search";
  else if (
    matches(SOCIAL, external) ||
    (utmMedium && SOCIAL_MEDIUMS.has(utmMedium)) ||
    matches(SOCIAL, utmSource ? `${utmSource}.com` : undefined)
  ) {
    source = "social";
  } else if (external) source = "referral";
  else source = "direct";
  return {
    source,
    domain: external,
    utmSource,
    utmMedium,
    utmCampaign,
    device: deviceOf(first.userAgent),
  };
}
