/**
 * A version's content, read-only, as it was: a page's blocks in order with their text, a product's
 * variants as a table, a template's source, and every other field by name.
 */
import type { Content } from "./history-api.js";
import { pathLabel, plainText, shortValue } from "./text.js";

type Block = { id: string; type: string; [k: string]: unknown };
type Layout = { rows?: { columns?: { blocks?: Block[] }[] }[] };

/** The words a block shows: its text fields, HTML read as words. */
function blockText(b: Block): string {
  const texts: string[] = [];
  for (const [k, v] of Object.entries(b)) {
    if (k === "id" || k === "type") continue;
    if (typeof v === "string" && v.trim() && !/^[a-z0-9_-]{16,}$/i.test(v)) texts.push(plainText(v));
  }
  return texts.filter(Boolean).join(" · ");
}

function Blocks({ layout, title }: { layout: Layout; title: string }) {
  const blocks = (layout.rows ?? []).flatMap((r) => (r.columns ?? []).flatMap((c) => c.blocks ?? []));
  return (
    <section className="history-blocks">
      <h3>{title}</h3>
      {blocks.length ? (
        <ol>
          {blocks.map((b) => (
            <li key={b.id}>
              <span className="badge">{b.type}</span> <span>{shortValue(blockText(b), 600)}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">No blocks.</p>
      )}
    </section>
  );
}

const SKIP = new Set(["layout", "draft", "variants", "source", "name"]);

export function VersionContent({ content, entity }: { content: Content; entity: string }) {
  const type = entity.split(":")[0];
  const variants = Array.isArray(content.variants) ? (content.variants as Record<string, unknown>[]) : [];
  const fields = Object.entries(content).filter(([k]) => !SKIP.has(k));
  return (
    <div className="history-content">
      {type === "template" ? (
        <section>
          <h3>Template source</h3>
          {typeof content.source === "string" ? (
            <pre className="history-source">{content.source}</pre>
          ) : (
            <p className="muted">The theme's version (the site had no version of its own).</p>
          )}
        </section>
      ) : null}
      {content.draft ? <Blocks layout={content.draft as Layout} title="Draft" /> : null}
      {content.layout ? <Blocks layout={content.layout as Layout} title="Published" /> : null}
      {variants.length ? (
        <section>
          <h3>Variants</h3>
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  <th>SKU</th>
                  <th>Options</th>
                  <th className="num">Price</th>
                </tr>
              </thead>
              <tbody>
                {variants.map((v) => (
                  <tr key={String(v.id)}>
                    <td>{shortValue(v.sku)}</td>
                    <td>{shortValue(v.attributes ?? v.options)}</td>
                    <td className="num">
                      {typeof v.priceCents === "number"
                        ? (v.priceCents / 100).toFixed(2)
                        : shortValue(v.price)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      {fields.length ? (
        <section>
          <h3>Fields</h3>
          <dl className="history-fields">
            {fields.map(([k, v]) => (
              <div key={k}>
                <dt>{pathLabel(k)}</dt>
                <dd>
                  {k === "customCss" && typeof v === "string" && v ? <pre>{v}</pre> : shortValue(v, 800)}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
    </div>
  );
}
