/** The robots rules of a site: the public site open, the private and transactional parts closed. */

/** Paths no search engine should crawl: the dashboard, the API, carts, checkout, accounts, search. */
const DISALLOWED = ["/config", "/api/", "/cart", "/checkout", "/commerce/", "/account", "/search"];

export function robotsTxt(origin: string, hiddenFromSearch: boolean): string {
  if (hiddenFromSearch) return "User-agent: *\nDisallow: /\n";
  return [
    "User-agent: *",
    ...DISALLOWED.map((p) => `Disallow: ${p}`),
    "Allow: /",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}
