import { useQuery } from "@tanstack/react-query";
import { DeletedNotice } from "../components/history/DeletedNotice.js";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { formatCents, get, withQuery } from "../api.js";
import { Can } from "../components/permissions.js";
import { LoadedTable, Notice, PageHead, usePages, useSiteId } from "../components/ui.js";
import { SearchField, SelectField } from "../components/form/index.js";
import { PRODUCT_TYPES, type VariantJson } from "./products/model.js";
import { useStoreCurrency } from "./store/useStore.js";
import { SampleBadge } from "../components/SampleBadge.js";

export interface ProductRow {
  id: string;
  title: string;
  collectionId: string;
  collectionTitle: string;
  fullUrl: string;
  status: string;
  /** Placeholder a starter brought: cannot be bought. */
  isSample?: boolean;
  productType: number;
  imageUrl: string | null;
  priceCents: number | null;
  stock: number;
  unlimited: boolean;
  variantCount: number;
  variants: VariantJson[];
}

export interface ProductList {
  products: ProductRow[];
  total: number;
  page: number;
  pageSize: number;
  hasNextPage: boolean;
}

export function stockText(p: { unlimited: boolean; stock?: number; qtyInStock?: number }) {
  if (p.unlimited) return "Unlimited";
  const n = p.stock ?? p.qtyInStock ?? 0;
  return n === 0 ? "Sold out" : String(n);
}

/** The product list: every store page's products, filtered by store page. */
export function Products() {
  const siteId = useSiteId();
  const pages = usePages();
  const [params, setParams] = useSearchParams();
  const collectionId = params.get("collection") ?? "";
  const [q, setQ] = useState("");
  const currency = useStoreCurrency();
  const stores = (pages.data ?? []).filter((p) => p.kind === "products");
  const list = useQuery({
    queryKey: ["products", siteId, collectionId, q],
    queryFn: () =>
      get<ProductList>(
        withQuery(`/api/owner/sites/${siteId}/products`, { pageSize: 200, sort: "name", collectionId, q }),
      ),
  });
  const newLink = `/sites/${siteId}/products/new${collectionId ? `?collection=${collectionId}` : ""}`;
  return (
    <>
      <PageHead
        title="Products"
        sub="Everything you sell: physical goods, downloads, services and gift cards."
        actions={
          stores.length ? (
            <Can permission="products.write">
              <Link className="btn primary" to={newLink}>
                Add product
              </Link>
            </Can>
          ) : null
        }
      />
      <DeletedNotice what="product" lists={[["products", siteId]]} />
      {pages.data && !stores.length ? (
        <Notice kind="info">
          Add a store page first: <Link to={`/sites/${siteId}/pages`}>Pages</Link> → Add page → Store.
        </Notice>
      ) : null}
      <div className="toolbar">
        <SearchField label="Search products" value={q} onChange={setQ} placeholder="Name or SKU" />
        {stores.length > 1 ? (
          <SelectField
            label="Store page"
            value={collectionId}
            onChange={(v) => setParams(v ? { collection: v } : {})}
            options={[
              { value: "", label: "All store pages" },
              ...stores.map((s) => ({ value: s.id, label: s.title })),
            ]}
          />
        ) : null}
      </div>
      <LoadedTable
        query={list}
        rows={(data) => data.products}
        columns={[
          { label: "Image", srOnly: true },
          { label: "Product" },
          { label: "Type", className: "hide-phone" },
          { label: "Price", className: "num" },
          { label: "Stock", className: "num" },
        ]}
        empty="No products yet."
        row={(p) => (
          <tr key={p.id}>
            <td style={{ width: 56 }}>
              {p.imageUrl ? (
                <img className="thumb" src={`${p.imageUrl}?format=100w`} alt="" />
              ) : (
                <span className="thumb" />
              )}
            </td>
            <td>
              <Link to={`/sites/${siteId}/products/${p.id}`}>{p.title}</Link>
              <SampleBadge sample={p.isSample} />
              <div className="muted small">
                {p.collectionTitle}
                {p.status === "draft" ? " · Hidden" : ""}
                {p.variantCount > 1 ? ` · ${p.variantCount} variants` : ""}
              </div>
            </td>
            <td className="hide-phone">
              {PRODUCT_TYPES.find((t) => t.value === String(p.productType))?.label}
            </td>
            <td className="num">{p.priceCents === null ? "—" : formatCents(p.priceCents, currency)}</td>
            <td className="num">{stockText(p)}</td>
          </tr>
        )}
      />
    </>
  );
}
