import { CopyField } from "../components/CopyField.js";
import { useSite } from "../components/ui.js";

const FEEDS = [
  {
    file: "instagram.xml",
    label: "Instagram shopping feed",
    help: "Physical products only, as Instagram shopping takes. Add it as a data feed of your Meta catalog.",
  },
  {
    file: "dynamic-ads.xml",
    label: "Dynamic ads feed",
    help: "Every product and variant, for catalog ads on Meta and Google Merchant Center.",
  },
] as const;

/** The store's product feed addresses (SPEC §1: product feed URL copy), updated as products change. */
export function ProductFeeds() {
  const site = useSite();
  if (!site.data) return null;
  const origin = site.data.url.replace(/\/$/, "");
  return (
    <section className="card feeds-card" aria-labelledby="feeds-title">
      <h2 id="feeds-title">Product feeds</h2>
      <p className="muted small">
        Catalogs read these addresses on their own schedule; each lists your published products with price,
        stock and images, one entry per variant.
      </p>
      {FEEDS.map((f) => (
        <CopyField
          key={f.file}
          label={f.label}
          value={`${origin}/api/commerce/feeds/${f.file}`}
          help={f.help}
          buttonLabel={`Copy the ${f.label} address`}
        />
      ))}
    </section>
  );
}
