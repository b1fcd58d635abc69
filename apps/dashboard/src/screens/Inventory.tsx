/**
 * The inventory panel: search products, sort by name, stock or price, expand a row to change its
 * variants' stock, click a row to open the product, next page. Each of these sends the tracking
 * event SPEC §2 names for the inventory panel.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { formatCents, get, patch, post, withQuery } from "../api.js";
import { useCan } from "../components/permissions.js";
import { LoadedTable, PageHead, Pager, useSiteId } from "../components/ui.js";
import { SearchField, errorText } from "../components/form/index.js";
import { type ProductList, type ProductRow, stockText } from "./Products.js";
import { useStoreCurrency } from "./store/useStore.js";

type Sort = "name" | "stock" | "price";
const PAGE_SIZE = 20;
const SESSION = Math.random().toString(36).slice(2, 12);

function useTrack(siteId: string) {
  return (action: string, data?: Record<string, string | number | boolean>) => {
    void post(`/api/owner/sites/${siteId}/panel-events`, {
      objectType: "inventory_panel",
      action,
      pagePath: location.pathname,
      sessionId: SESSION,
      data,
    }).catch(() => {});
  };
}

function StockCell({
  siteId,
  variant,
  onSaved,
}: {
  siteId: string;
  variant: ProductRow["variants"][number];
  onSaved: () => void;
}) {
  const [value, setValue] = useState(String(variant.qtyInStock));
  const save = useMutation({
    mutationFn: (body: { qtyInStock?: number; unlimited?: boolean }) =>
      patch(`/api/owner/sites/${siteId}/variants/${variant.id}/stock`, body),
    onSuccess: onSaved,
  });
  const label = Object.values(variant.attributes).join(" / ") || variant.sku;
  // Without the right to change stock, the count is only read.
  const mayEdit = useCan().can("inventory.write");
  return (
    <span className="btn-row" style={{ justifyContent: "flex-end" }}>
      {variant.unlimited ? (
        <span>Unlimited</span>
      ) : !mayEdit ? (
        <span>{variant.qtyInStock}</span>
      ) : (
        <>
          <label className="sr-only" htmlFor={`stock-${variant.id}`}>
            Stock of {label}
          </label>
          <input
            id={`stock-${variant.id}`}
            type="number"
            min={0}
            className="input"
            style={{ width: 90 }}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
          <button
            type="button"
            className="btn small"
            disabled={save.isPending || value === String(variant.qtyInStock)}
            onClick={() => save.mutate({ qtyInStock: Number(value) })}
          >
            Save stock of {label}
          </button>
        </>
      )}
      {save.error ? <span className="error small">{errorText(save.error)}</span> : null}
    </span>
  );
}

export function Inventory() {
  const siteId = useSiteId();
  const currency = useStoreCurrency();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const track = useTrack(siteId);
  const [q, setQ] = useState("");
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<Sort>("name");
  const [dir, setDir] = useState<"asc" | "desc">("asc");
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const first = useRef(true);

  // The search runs (and is tracked) a moment after typing stops.
  // biome-ignore lint/correctness/useExhaustiveDependencies: tracks the query only
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => {
      setSearch(q);
      setPage(1);
      track("search_products", { query: q.slice(0, 100) });
    }, 350);
    return () => clearTimeout(t);
  }, [q]);

  const list = useQuery({
    queryKey: ["inventory", siteId, search, sort, dir, page],
    queryFn: () =>
      get<ProductList>(
        withQuery(`/api/owner/sites/${siteId}/products`, { sort, dir, page, pageSize: PAGE_SIZE, q: search }),
      ),
    placeholderData: (prev) => prev,
  });

  const sortBy = (s: Sort) => {
    const nextDir = sort === s && dir === "asc" ? "desc" : "asc";
    setSort(s);
    setDir(nextDir);
    setPage(1);
    track(`sort_by_${s}`, { direction: nextDir });
  };
  const toggle = (id: string) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else {
      next.add(id);
      track("expand_row", { productId: id });
    }
    setOpen(next);
  };
  const openProduct = (id: string) => {
    track("click_row", { productId: id });
    navigate(`/sites/${siteId}/products/${id}`);
  };
  const sortButton = (s: Sort, label: string) => (
    <button
      type="button"
      className="btn ghost small"
      onClick={() => sortBy(s)}
      aria-label={`Sort by ${label.toLowerCase()}`}
      aria-pressed={sort === s}
    >
      {label}
      {sort === s ? (dir === "asc" ? " ↑" : " ↓") : ""}
    </button>
  );
  return (
    <>
      <PageHead
        title="Inventory"
        sub="Stock of every product and variant. Expand a product to change its stock."
      />
      <div className="toolbar">
        <SearchField
          label="Search products"
          minWidth={260}
          value={q}
          onChange={(v) => setQ(v)}
          placeholder="Name or SKU"
        />
      </div>
      <LoadedTable
        query={list}
        rows={(data) => data.products}
        columns={[
          { label: "Expand", srOnly: true },
          { label: "Name", content: sortButton("name", "Name") },
          { label: "Price", className: "num", content: sortButton("price", "Price") },
          { label: "Stock", className: "num", content: sortButton("stock", "Stock") },
        ]}
        empty="No products match."
        footer={(data) => (
          <Pager
            status={
              data.total
                ? `${(data.page - 1) * data.pageSize + 1}–${Math.min(data.total, data.page * data.pageSize)} of ${data.total}`
                : ""
            }
            canPrev={page > 1}
            canNext={data.hasNextPage}
            onPrev={() => setPage(page - 1)}
            onNext={() => {
              setPage(page + 1);
              track("next_page", { page: page + 1 });
            }}
          />
        )}
        row={(p) => (
          <Fragment key={p.id}>
            <tr className="clickable" onClick={() => openProduct(p.id)}>
              <td style={{ width: 48 }} onClick={(e) => e.stopPropagation()} onKeyDown={undefined}>
                <button
                  type="button"
                  className="btn ghost small"
                  aria-expanded={open.has(p.id)}
                  aria-label={`${open.has(p.id) ? "Collapse" : "Expand"} ${p.title}`}
                  onClick={() => toggle(p.id)}
                >
                  {open.has(p.id) ? "▾" : "▸"}
                </button>
              </td>
              <td>
                <button
                  type="button"
                  className="btn ghost small wrap"
                  style={{ padding: 0, fontWeight: 600 }}
                  onClick={(e) => {
                    e.stopPropagation();
                    openProduct(p.id);
                  }}
                >
                  {p.title}
                </button>
                <div className="muted small">
                  {p.variantCount} variant{p.variantCount === 1 ? "" : "s"}
                </div>
              </td>
              <td className="num">{p.priceCents === null ? "—" : formatCents(p.priceCents, currency)}</td>
              <td className="num">
                {p.unlimited ? (
                  "Unlimited"
                ) : p.stock === 0 ? (
                  <span className="badge danger">Sold out</span>
                ) : (
                  p.stock
                )}
              </td>
            </tr>
            {open.has(p.id)
              ? p.variants.map((v) => (
                  <tr key={v.id}>
                    <td />
                    <td>
                      <span className="muted">{Object.values(v.attributes).join(" / ") || "Default"}</span>{" "}
                      <span className="small muted">· {v.sku}</span>
                    </td>
                    <td className="num">
                      {formatCents(v.onSale ? v.salePriceCents : v.priceCents, currency)}
                    </td>
                    <td className="num">
                      <StockCell
                        siteId={siteId}
                        variant={v}
                        onSaved={() =>
                          void queryClient.invalidateQueries({ queryKey: ["inventory", siteId] })
                        }
                      />
                      <span className="sr-only">{stockText(v)}</span>
                    </td>
                  </tr>
                ))
              : null}
          </Fragment>
        )}
      />
    </>
  );
}
