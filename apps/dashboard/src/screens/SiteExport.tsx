/**
 * Settings → Export: the whole site as one archive (pages, products, orders, customers, media…),
 * which Sites → Import a site (here or on another Atelier server) turns back into a site.
 */
import { Can } from "../components/permissions.js";
import { Card } from "../components/Card.js";
import { Notice, PageHead, useSiteId } from "../components/ui.js";
import { BackgroundExport } from "./BackgroundExport.js";
import { PlatformImports } from "./PlatformImports.js";

const CONTENTS = [
  "Site settings, domains, navigation and every page with its layout and draft",
  "Blog posts, events and gallery items, with comments and likes",
  "Products with variants, stock, options and images",
  "Store settings: shipping, tax, coupons and gift cards with their balances",
  "Forms with their submissions, and the mailing list",
  "Site users (passwords only as secure hashes), open carts, orders with payments, refunds and fulfilment, subscriptions, restock requests",
  "API key names and scopes (never the keys themselves), traffic figures",
  "The original files of your media library",
];

export function SiteExport() {
  const siteId = useSiteId();
  return (
    <>
      <PageHead title="Export" sub="Take your whole site with you: no lock-in." />
      <Card title="Download an archive of this site" as="section">
        <p>One zip file holds everything needed to bring the site back, here or on another Atelier server:</p>
        <ul>
          {CONTENTS.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <p>
          <a className="btn primary" href={`/api/owner/sites/${siteId}/export`} download>
            Download archive
          </a>
        </p>
        <BackgroundExport siteId={siteId} />
        <p>
          <a href={`/api/owner/sites/${siteId}/export/shopify-products.csv`} download>
            Download products as a Shopify CSV
          </a>
        </p>
        <Notice>
          To bring an archive in, go to <strong>Sites → Import a site</strong>: it becomes a new site, and
          this one is left as it is. The format is documented in <code>docs/site-archive.md</code>.
        </Notice>
      </Card>
      <Can permission="settings.write">
        <PlatformImports siteId={siteId} />
      </Can>
    </>
  );
}
