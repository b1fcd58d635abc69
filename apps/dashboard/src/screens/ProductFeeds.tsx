import { useState } from "react";
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

/** A feed's address, read-only, with a button that copies it. */
function FeedUrl({ label, url, help }: { label: string; url: string; help: string }) {
  const [copied, setCopied] = useState<"" | "Copied" | "Select the address and copy it">("");
  const id = `feed-${label.replace(/\W+/g, "-").toLowerCase()}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("Copied");
    } catch {
      setCopied("Select the address and copy it");
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="feed-url">
        <input
          id={id}
          type="text"
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          aria-describedby={`${id}-d`}
        />
        <button type="button" className="btn small" onClick={copy} aria-label={`Copy the ${label} address`}>
          Copy
        </button>
      </div>
      <span className="help" id={`${id}-d`} aria-live="polite">
        {copied || help}
      </span>
    </div>
  );
}

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
        <FeedUrl key={f.file} label={f.label} url={`${origin}/api/commerce/feeds/${f.file}`} help={f.help} />
      ))}
    </section>
  );
}
