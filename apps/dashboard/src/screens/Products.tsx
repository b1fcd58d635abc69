import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { centsToText, del, formatCents, get, post, put, textToCents } from "../api.js";
import { RichTextEditor } from "../components/RichText.js";
import { MediaPicker, useMedia } from "../components/media.js";
import {
  ErrorNotice,
  Loading,
  Modal,
  Notice,
  PageHead,
  usePages,
  useSite,
  useSiteId,
} from "../components/ui.js";
import {
  CheckboxField,
  SelectField,
  TextField,
  TextareaField,
  fieldErrors,
} from "../components/form/index.js";
import { SeoFields } from "../components/SeoFields.js";

export const PRODUCT_TYPES = [
  { value: "1", label: "Physical" },
  { value: "2", label: "Digital" },
  { value: "3", label: "Service" },
  { value: "4", label: "Gift card" },
];

export interface ProductRow {
  id: string;
  title: string;
  collectionId: string;
  collectionTitle: string;
  fullUrl: string;
  status: string;
  productType: number;
  imageUrl: string | null;
  priceCents: number | null;
  stock: number;
  unlimited: boolean;
  variantCount: number;
  variants: {
    id: string;
    sku: string;
    attributes: Record<string, string>;
    priceCents: number;
    salePriceCents: number;
    onSale: boolean;
    qtyInStock: number;
    unlimited: boolean;
  }[];
}

export interface ProductList {
  products: ProductRow[];
  total: number;
  page: number;
  pageSize: number;
  hasNextPage: boolean;
}

export function useCurrency() {
  const siteId = useSiteId();
  const q = useQuery({
    queryKey: ["store", siteId],
    queryFn: () => get<{ settings: { currency: string } }>(`/api/owner/sites/${siteId}/store`),
  });
  return q.data?.settings.currency ?? "USD";
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
  const currency = useCurrency();
  const stores = (pages.data ?? []).filter((p) => p.kind === "products");
  const list = useQuery({
    queryKey: ["products", siteId, collectionId, q],
    queryFn: () =>
      get<ProductList>(
        `/api/owner/sites/${siteId}/products?pageSize=200&sort=name${collectionId ? `&collectionId=${collectionId}` : ""}${q ? `&q=${encodeURIComponent(q)}` : ""}`,
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
            <Link className="btn primary" to={newLink}>
              Add product
            </Link>
          ) : null
        }
      />
      {pages.data && !stores.length ? (
        <Notice kind="info">
          Add a store page first: <Link to={`/sites/${siteId}/pages`}>Pages</Link> → Add page → Store.
        </Notice>
      ) : null}
      <div className="toolbar">
        <div className="field">
          <label htmlFor="product-search">Search products</label>
          <input
            id="product-search"
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder="Name or SKU"
          />
        </div>
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
      <ErrorNotice error={list.error} />
      {list.isLoading ? <Loading /> : null}
      {list.data ? (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th>
                  <span className="sr-only">Image</span>
                </th>
                <th>Product</th>
                <th className="hide-phone">Type</th>
                <th className="num">Price</th>
                <th className="num">Stock</th>
              </tr>
            </thead>
            <tbody>
              {list.data.products.map((p) => (
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
              ))}
            </tbody>
          </table>
          {!list.data.products.length ? <p className="empty">No products yet.</p> : null}
        </div>
      ) : null}
    </>
  );
}

// ─── Product editor ─────────────────────────────────────────────────────────────────────────

interface VariantForm {
  id?: string;
  sku: string;
  attributes: Record<string, string>;
  price: string;
  salePrice: string;
  onSale: boolean;
  qtyInStock: string;
  unlimited: boolean;
  weightGrams: string;
}

interface ProductForm {
  collectionId: string;
  title: string;
  urlId: string;
  productType: number;
  visible: boolean;
  body: string;
  excerpt: string;
  seoTitle: string;
  seoDescription: string;
  seoHidden: boolean;
  tags: string;
  categories: string;
  imageIds: string[];
  options: string[];
  variants: VariantForm[];
  isSubscribable: boolean;
  billingValue: string;
  billingUnit: "WEEK" | "MONTH" | "YEAR";
  numBillingCycles: string;
  denominations: string[];
  scarcityText: string;
  useCustomAddButtonText: boolean;
  customAddButtonText: string;
  additionalFieldsFormId: string;
}

interface ProductJson {
  id: string;
  collectionId: string;
  title: string;
  urlId: string;
  fullUrl: string;
  status: string;
  body: string;
  excerpt: string;
  seoTitle: string;
  seoDescription: string;
  seoHidden?: boolean;
  tags: string[];
  categories: string[];
  imageIds: string[];
  productType: number;
  variantOptionOrdering: string[];
  isSubscribable: boolean;
  subscriptionPlan: {
    billingPeriod: { value: number; unit: "WEEK" | "MONTH" | "YEAR" };
    numBillingCycles: number;
  } | null;
  giftCardDenominations: number[];
  scarcityText: string;
  useCustomAddButtonText: boolean;
  customAddButtonText: string;
  additionalFieldsFormId: string | null;
  variants: {
    id: string;
    sku: string;
    attributes: Record<string, string>;
    priceCents: number;
    salePriceCents: number;
    onSale: boolean;
    qtyInStock: number;
    unlimited: boolean;
    weightGrams: number;
  }[];
}

const emptyVariant = (options: string[]): VariantForm => ({
  sku: "",
  attributes: Object.fromEntries(options.map((o) => [o, ""])),
  price: "",
  salePrice: "",
  onSale: false,
  qtyInStock: "0",
  unlimited: false,
  weightGrams: "",
});

function toForm(p: ProductJson | undefined, collectionId: string, currency: string): ProductForm {
  if (!p) {
    return {
      collectionId,
      title: "",
      urlId: "",
      productType: 1,
      visible: true,
      body: "",
      excerpt: "",
      seoTitle: "",
      seoDescription: "",
      seoHidden: false,
      tags: "",
      categories: "",
      imageIds: [],
      options: [],
      variants: [emptyVariant([])],
      isSubscribable: false,
      billingValue: "1",
      billingUnit: "MONTH",
      numBillingCycles: "0",
      denominations: ["25.00", "50.00"],
      scarcityText: "",
      useCustomAddButtonText: false,
      customAddButtonText: "",
      additionalFieldsFormId: "",
    };
  }
  return {
    collectionId: p.collectionId,
    title: p.title,
    urlId: p.urlId,
    productType: p.productType,
    visible: p.status !== "draft",
    body: p.body,
    excerpt: p.excerpt,
    seoTitle: p.seoTitle ?? "",
    seoDescription: p.seoDescription ?? "",
    seoHidden: Boolean(p.seoHidden),
    tags: p.tags.join(", "),
    categories: p.categories.join(", "),
    imageIds: p.imageIds,
    options: p.variantOptionOrdering,
    variants: p.variants.map((v) => ({
      id: v.id,
      sku: v.sku,
      attributes: v.attributes,
      price: centsToText(v.priceCents, currency),
      salePrice: v.onSale || v.salePriceCents ? centsToText(v.salePriceCents, currency) : "",
      onSale: v.onSale,
      qtyInStock: String(v.qtyInStock),
      unlimited: v.unlimited,
      weightGrams: v.weightGrams ? String(v.weightGrams) : "",
    })),
    isSubscribable: p.isSubscribable,
    billingValue: String(p.subscriptionPlan?.billingPeriod.value ?? 1),
    billingUnit: p.subscriptionPlan?.billingPeriod.unit ?? "MONTH",
    numBillingCycles: String(p.subscriptionPlan?.numBillingCycles ?? 0),
    denominations: p.giftCardDenominations.map((c) => centsToText(c, currency)),
    scarcityText: p.scarcityText,
    useCustomAddButtonText: p.useCustomAddButtonText,
    customAddButtonText: p.customAddButtonText,
    additionalFieldsFormId: p.additionalFieldsFormId ?? "",
  };
}

const list = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

class FormProblem extends Error {
  constructor(
    message: string,
    readonly fields: Record<string, string>,
  ) {
    super(message);
  }
}

function toBody(f: ProductForm, currency: string) {
  const fields: Record<string, string> = {};
  const cents = (text: string, key: string, required = true) => {
    if (!text.trim() && !required) return undefined;
    const c = textToCents(text, currency);
    if (c === undefined) fields[key] = "Enter an amount such as 12.50.";
    return c ?? 0;
  };
  const whole = (text: string, key: string) => {
    if (!/^\d+$/.test(text.trim())) {
      fields[key] = "Enter a whole number.";
      return 0;
    }
    return Number(text);
  };
  const body = {
    collectionId: f.collectionId,
    title: f.title,
    urlId: f.urlId || undefined,
    productType: f.productType,
    status: f.visible ? "published" : "draft",
    body: f.body,
    excerpt: f.excerpt,
    seoTitle: f.seoTitle,
    seoDescription: f.seoDescription,
    seoHidden: f.seoHidden,
    tags: list(f.tags),
    categories: list(f.categories),
    imageIds: f.imageIds,
    mainImageId: f.imageIds[0] ?? null,
    variantOptionOrdering: f.options,
    variants:
      f.productType === 4
        ? []
        : f.variants.map((v, i) => ({
            id: v.id,
            sku: v.sku.trim() || undefined,
            attributes: Object.fromEntries(f.options.map((o) => [o, v.attributes[o] ?? ""])),
            priceCents: cents(v.price, `variants.${i}.priceCents`),
            salePriceCents: v.onSale ? cents(v.salePrice, `variants.${i}.salePriceCents`) : undefined,
            onSale: v.onSale,
            qtyInStock:
              v.unlimited || f.productType === 2
                ? undefined
                : whole(v.qtyInStock || "0", `variants.${i}.qtyInStock`),
            unlimited: v.unlimited,
            weightGrams: v.weightGrams.trim() ? whole(v.weightGrams, `variants.${i}.weightGrams`) : undefined,
          })),
    giftCardDenominations:
      f.productType === 4
        ? f.denominations
            .map((d, i) => cents(d, `giftCardDenominations.${i}`)!)
            .filter((x) => x !== undefined)
        : undefined,
    isSubscribable: f.isSubscribable,
    subscriptionPlan: f.isSubscribable
      ? {
          billingPeriod: {
            value: whole(f.billingValue, "subscriptionPlan.billingPeriod.value"),
            unit: f.billingUnit,
          },
          numBillingCycles: whole(f.numBillingCycles, "subscriptionPlan.numBillingCycles"),
        }
      : null,
    scarcityText: f.scarcityText,
    useCustomAddButtonText: f.useCustomAddButtonText,
    customAddButtonText: f.customAddButtonText,
    additionalFieldsFormId: f.additionalFieldsFormId || null,
  };
  if (Object.keys(fields).length) throw new FormProblem("Please check the highlighted fields.", fields);
  return body;
}

export function ProductEditor() {
  const siteId = useSiteId();
  const { productId = "new" } = useParams();
  const isNew = productId === "new";
  const product = useQuery({
    queryKey: ["product", siteId, productId],
    queryFn: () =>
      get<{ product: ProductJson }>(`/api/owner/sites/${siteId}/products/${productId}`).then(
        (r) => r.product,
      ),
    enabled: !isNew,
  });
  const currency = useCurrency();
  const [params] = useSearchParams();
  if (!isNew && product.isLoading) return <Loading />;
  if (!isNew && !product.data) return <ErrorNotice error={product.error ?? new Error("No such product.")} />;
  return (
    <ProductEditorForm
      key={`${productId}-${currency}`}
      initial={toForm(product.data, params.get("collection") ?? "", currency)}
      product={product.data}
      currency={currency}
    />
  );
}

function MoneyInput({
  label,
  value,
  onChange,
  error,
  currency,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  currency: string;
}) {
  const id = useId();
  return (
    <div className={`field${error ? " invalid" : ""}`}>
      <label htmlFor={id}>
        {label} <span className="muted">({currency})</span>
      </label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="0.00"
      />
      {error ? <span className="error">{error}</span> : null}
    </div>
  );
}

function ProductEditorForm({
  initial,
  product,
  currency,
}: {
  initial: ProductForm;
  product?: ProductJson;
  currency: string;
}) {
  const siteId = useSiteId();
  const site = useSite();
  const pages = usePages();
  const media = useMedia();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [f, setF] = useState<ProductForm>(initial);
  const [newOption, setNewOption] = useState("");
  const [picking, setPicking] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [params] = useSearchParams();
  const [saved, setSaved] = useState(params.get("saved") === "1");
  const forms = useQuery({
    queryKey: ["forms", siteId],
    queryFn: () =>
      get<{ forms: { id: string; name: string }[] }>(`/api/owner/sites/${siteId}/forms`).then((r) => r.forms),
  });
  const stores = (pages.data ?? []).filter((p) => p.kind === "products");
  const firstStore = stores[0]?.id;
  useEffect(() => {
    if (firstStore) setF((old) => (old.collectionId ? old : { ...old, collectionId: firstStore }));
  }, [firstStore]);
  const set = (patch: Partial<ProductForm>) => {
    setSaved(false);
    setF((old) => ({ ...old, ...patch }));
  };
  const setVariant = (i: number, patch: Partial<VariantForm>) =>
    set({ variants: f.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) });

  const save = useMutation({
    mutationFn: async () => {
      const body = toBody(f, currency);
      if (product)
        return put<{ product: ProductJson }>(`/api/owner/sites/${siteId}/products/${product.id}`, body);
      return post<{ product: ProductJson }>(`/api/owner/sites/${siteId}/products`, body);
    },
    onSuccess: ({ product: p }) => {
      void queryClient.invalidateQueries({ queryKey: ["products", siteId] });
      void queryClient.invalidateQueries({ queryKey: ["pages", siteId] });
      queryClient.setQueryData(["product", siteId, p.id], p);
      setSaved(true);
      if (!product) navigate(`/sites/${siteId}/products/${p.id}?saved=1`, { replace: true });
      else setF(toForm(p, p.collectionId, currency));
    },
  });
  const remove = useMutation({
    mutationFn: () => del(`/api/owner/sites/${siteId}/products/${product!.id}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["products", siteId] });
      navigate(`/sites/${siteId}/products`);
    },
  });
  const errors = save.error instanceof FormProblem ? save.error.fields : fieldErrors(save.error);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const mediaById = new Map(media.data?.map((m) => [m.id, m]));
  const physicalLike = f.productType === 1 || f.productType === 3;
  const moveOption = (i: number, d: -1 | 1) => {
    const next = [...f.options];
    const j = i + d;
    if (j < 0 || j >= next.length) return;
    [next[i], next[j]] = [next[j]!, next[i]!];
    set({ options: next });
  };
  const addOption = () => {
    const name = newOption.trim();
    if (!name || f.options.includes(name)) return;
    set({
      options: [...f.options, name],
      variants: f.variants.map((v) => ({ ...v, attributes: { ...v.attributes, [name]: "" } })),
    });
    setNewOption("");
  };
  const removeOption = (name: string) =>
    set({
      options: f.options.filter((o) => o !== name),
      variants: f.variants.map((v) => {
        const { [name]: _gone, ...rest } = v.attributes;
        return { ...v, attributes: rest };
      }),
    });

  return (
    <>
      <PageHead
        title={product ? product.title : "New product"}
        sub={
          product ? (
            <a href={product.fullUrl} target="_blank" rel="noreferrer">
              {product.fullUrl}
            </a>
          ) : (
            "Fill in the details, then save."
          )
        }
        actions={
          <Link className="btn" to={`/sites/${siteId}/products`}>
            All products
          </Link>
        }
      />
      <form onSubmit={onSubmit} noValidate>
        {saved ? <Notice kind="ok">Product saved. It is live in the shop.</Notice> : null}
        <ErrorNotice error={save.error} />
        <div className="split">
          <div>
            <div className="card">
              <h2>Details</h2>
              <TextField
                label="Product name"
                value={f.title}
                onChange={(v) => set({ title: v })}
                error={errors.title}
              />
              <div className="field">
                <span className="label" id="desc-label">
                  Description
                </span>
                <RichTextEditor value={f.body} onChange={(body) => set({ body })} labelledBy="desc-label" />
              </div>
              <TextareaField
                label="Short description"
                value={f.excerpt}
                onChange={(v) => set({ excerpt: v })}
                error={errors.excerpt}
              />
            </div>

            <SeoFields
              title={f.seoTitle}
              description={f.seoDescription}
              fallbackTitle={f.title || "Product name"}
              fallbackDescription={f.excerpt.replace(/<[^>]*>/g, "").trim() || site.data?.tagline || ""}
              siteTitle={site.data?.title ?? ""}
              url={`${(site.data?.url ?? "").replace(/\/+$/, "")}/${stores.find((s) => s.id === f.collectionId)?.urlSlug ?? "shop"}/p/${f.urlId || product?.urlId || "…"}`}
              imageUrl={f.imageIds[0] ? mediaById.get(f.imageIds[0])?.assetUrl : undefined}
              errors={errors}
              hidden={f.seoHidden}
              onChange={set}
            />

            <div className="card">
              <h2>Images</h2>
              <div className="btn-row">
                {f.imageIds.map((id, i) => {
                  const m = mediaById.get(id);
                  return (
                    <span
                      key={id}
                      style={{
                        display: "inline-flex",
                        flexDirection: "column",
                        gap: 4,
                        alignItems: "center",
                      }}
                    >
                      {m ? (
                        <img
                          className="thumb"
                          style={{ width: 72, height: 72 }}
                          src={`${m.assetUrl}?format=100w`}
                          alt={m.title}
                        />
                      ) : null}
                      <span className="small muted">{i === 0 ? "Main" : `#${i + 1}`}</span>
                    </span>
                  );
                })}
                <button type="button" className="btn small" onClick={() => setPicking(true)}>
                  {f.imageIds.length ? "Change images" : "Add images"}
                </button>
              </div>
              {errors.imageIds ? <p className="error small">{errors.imageIds}</p> : null}
            </div>

            {f.productType === 4 ? (
              <div className="card">
                <h2>Gift card amounts</h2>
                {errors.giftCardDenominations ? (
                  <Notice kind="error">{errors.giftCardDenominations}</Notice>
                ) : null}
                {f.denominations.map((d, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: amounts are edited in place
                  <div className="btn-row" key={i} style={{ alignItems: "flex-end" }}>
                    <MoneyInput
                      label={`Amount ${i + 1}`}
                      value={d}
                      currency={currency}
                      error={errors[`giftCardDenominations.${i}`]}
                      onChange={(v) =>
                        set({ denominations: f.denominations.map((x, j) => (j === i ? v : x)) })
                      }
                    />
                    <button
                      type="button"
                      className="btn small"
                      style={{ marginBottom: "0.95rem" }}
                      onClick={() => set({ denominations: f.denominations.filter((_, j) => j !== i) })}
                    >
                      Remove amount {i + 1}
                    </button>
                  </div>
                ))}
                <button
                  type="button"
                  className="btn small"
                  onClick={() => set({ denominations: [...f.denominations, ""] })}
                >
                  Add amount
                </button>
              </div>
            ) : (
              <div className="card">
                <h2>Variants and stock</h2>
                {errors.variants ? <Notice kind="error">{errors.variants}</Notice> : null}
                <fieldset>
                  <legend>Options</legend>
                  <p className="muted small">
                    Options such as Size or Color, in the order shoppers choose them.
                  </p>
                  {errors.variantOptionOrdering ? (
                    <p className="error small">{errors.variantOptionOrdering}</p>
                  ) : null}
                  <ol style={{ paddingLeft: "1.2rem" }}>
                    {f.options.map((o, i) => (
                      <li key={o} style={{ marginBottom: 6 }}>
                        <span className="btn-row">
                          <strong style={{ minWidth: 90 }}>{o}</strong>
                          <button
                            type="button"
                            className="btn ghost small"
                            aria-label={`Move option ${o} up`}
                            disabled={i === 0}
                            onClick={() => moveOption(i, -1)}
                          >
                            ↑
                          </button>
                          <button
                            type="button"
                            className="btn ghost small"
                            aria-label={`Move option ${o} down`}
                            disabled={i === f.options.length - 1}
                            onClick={() => moveOption(i, 1)}
                          >
                            ↓
                          </button>
                          <button type="button" className="btn ghost small" onClick={() => removeOption(o)}>
                            Remove {o}
                          </button>
                        </span>
                      </li>
                    ))}
                  </ol>
                  <div className="btn-row" style={{ alignItems: "flex-end" }}>
                    <TextField label="New option name" value={newOption} onChange={(v) => setNewOption(v)} />
                    <button
                      type="button"
                      className="btn small"
                      style={{ marginBottom: "0.95rem" }}
                      onClick={addOption}
                      disabled={f.options.length >= 6}
                    >
                      Add option
                    </button>
                  </div>
                </fieldset>
                {f.variants.map((v, i) => (
                  <fieldset key={v.id ?? `new-${i}`}>
                    <legend>
                      Variant {i + 1}
                      {f.options.length
                        ? `: ${f.options.map((o) => v.attributes[o] || "…").join(" / ")}`
                        : ""}
                    </legend>
                    {errors[`variants.${i}.attributes`] ? (
                      <p className="error small">{errors[`variants.${i}.attributes`]}</p>
                    ) : null}
                    {f.options.length ? (
                      <div className="grid-2">
                        {f.options.map((o) => (
                          <TextField
                            key={o}
                            label={o}
                            value={v.attributes[o] ?? ""}
                            onChange={(value) =>
                              setVariant(i, { attributes: { ...v.attributes, [o]: value } })
                            }
                          />
                        ))}
                      </div>
                    ) : null}
                    <div className="grid-2">
                      <MoneyInput
                        label="Price"
                        value={v.price}
                        currency={currency}
                        error={errors[`variants.${i}.priceCents`]}
                        onChange={(price) => setVariant(i, { price })}
                      />
                      <TextField
                        label="SKU"
                        value={v.sku}
                        onChange={(v) => setVariant(i, { sku: v })}
                        error={errors[`variants.${i}.sku`]}
                        help={v.sku ? undefined : "Made for you when empty"}
                      />
                    </div>
                    <CheckboxField
                      label="On sale"
                      value={v.onSale}
                      onChange={(onSale) => setVariant(i, { onSale })}
                    />
                    {v.onSale ? (
                      <MoneyInput
                        label="Sale price"
                        value={v.salePrice}
                        currency={currency}
                        error={errors[`variants.${i}.salePriceCents`]}
                        onChange={(salePrice) => setVariant(i, { salePrice })}
                      />
                    ) : null}
                    {physicalLike ? (
                      <>
                        <CheckboxField
                          label="Unlimited stock"
                          value={v.unlimited}
                          onChange={(unlimited) => setVariant(i, { unlimited })}
                        />
                        <div className="grid-2">
                          {!v.unlimited ? (
                            <TextField
                              label="Stock"
                              type="number"
                              min={0}
                              value={v.qtyInStock}
                              onChange={(v) => setVariant(i, { qtyInStock: v })}
                              error={errors[`variants.${i}.qtyInStock`]}
                            />
                          ) : null}
                          {f.productType === 1 ? (
                            <TextField
                              label="Weight (grams)"
                              type="number"
                              min={0}
                              value={v.weightGrams}
                              onChange={(v) => setVariant(i, { weightGrams: v })}
                              error={errors[`variants.${i}.weightGrams`]}
                            />
                          ) : null}
                        </div>
                      </>
                    ) : (
                      <p className="muted small">Digital products never sell out.</p>
                    )}
                    {f.variants.length > 1 ? (
                      <button
                        type="button"
                        className="btn small danger"
                        onClick={() => set({ variants: f.variants.filter((_, j) => j !== i) })}
                      >
                        Remove variant {i + 1}
                      </button>
                    ) : null}
                  </fieldset>
                ))}
                <button
                  type="button"
                  className="btn small"
                  onClick={() => set({ variants: [...f.variants, emptyVariant(f.options)] })}
                >
                  Add variant
                </button>
              </div>
            )}

            {physicalLike ? (
              <div className="card">
                <h2>Subscription</h2>
                <CheckboxField
                  label="Sell as a subscription"
                  help="Shoppers pay again every period until the number of payments is reached."
                  value={f.isSubscribable}
                  onChange={(isSubscribable) => set({ isSubscribable })}
                />
                {errors.isSubscribable ? <Notice kind="warn">{errors.isSubscribable}</Notice> : null}
                {f.isSubscribable ? (
                  <div className="grid-3">
                    <TextField
                      label="Bill every"
                      type="number"
                      min={1}
                      value={f.billingValue}
                      onChange={(v) => set({ billingValue: v })}
                      error={errors["subscriptionPlan.billingPeriod.value"]}
                    />
                    <SelectField
                      label="Period"
                      value={f.billingUnit}
                      onChange={(v) => set({ billingUnit: v as ProductForm["billingUnit"] })}
                      options={[
                        { value: "WEEK", label: "Weeks" },
                        { value: "MONTH", label: "Months" },
                        { value: "YEAR", label: "Years" },
                      ]}
                    />
                    <TextField
                      label="Number of payments"
                      type="number"
                      min={0}
                      value={f.numBillingCycles}
                      onChange={(v) => set({ numBillingCycles: v })}
                      error={errors["subscriptionPlan.numBillingCycles"]}
                      help="0 means until cancelled"
                    />
                  </div>
                ) : null}
              </div>
            ) : null}
          </div>

          <div>
            <div className="card">
              <h2>Publishing</h2>
              <SelectField
                label="Product type"
                value={String(f.productType)}
                onChange={(v) => set({ productType: Number(v), isSubscribable: false })}
                options={PRODUCT_TYPES}
                error={errors.productType}
              />
              <SelectField
                label="Store page"
                value={f.collectionId}
                onChange={(v) => set({ collectionId: v })}
                options={stores.map((s) => ({ value: s.id, label: s.title }))}
                error={errors.collectionId}
              />
              <CheckboxField
                label="Visible in the shop"
                value={f.visible}
                onChange={(visible) => set({ visible })}
              />
              <TextField
                label="URL slug"
                value={f.urlId}
                onChange={(v) => set({ urlId: v })}
                error={errors.urlId}
                help={f.urlId ? undefined : "Made from the name when empty"}
              />
            </div>
            <div className="card">
              <h2>Organization</h2>
              <TextField
                label="Categories"
                value={f.categories}
                onChange={(v) => set({ categories: v })}
                error={errors.categories}
                help="Separated by commas, 25 characters each at most"
              />
              <TextField
                label="Tags"
                value={f.tags}
                onChange={(v) => set({ tags: v })}
                error={errors.tags}
                help="Separated by commas, 50 characters each at most"
              />
            </div>
            <div className="card">
              <h2>Product page</h2>
              <TextField
                label="Scarcity text"
                value={f.scarcityText}
                onChange={(v) => set({ scarcityText: v })}
                error={errors.scarcityText}
                help="Shown when stock is low, e.g. Only {qtyInStock} left"
              />
              <CheckboxField
                label="Custom add-to-cart button text"
                value={f.useCustomAddButtonText}
                onChange={(useCustomAddButtonText) => set({ useCustomAddButtonText })}
              />
              {f.useCustomAddButtonText ? (
                <TextField
                  label="Button text"
                  value={f.customAddButtonText}
                  onChange={(v) => set({ customAddButtonText: v })}
                  error={errors.customAddButtonText}
                />
              ) : null}
              <SelectField
                label="Additional fields form"
                value={f.additionalFieldsFormId}
                onChange={(v) => set({ additionalFieldsFormId: v })}
                options={[
                  { value: "", label: "None" },
                  ...(forms.data ?? []).map((x) => ({ value: x.id, label: x.name })),
                ]}
                help="Questions shoppers answer when they add the product to the cart"
                error={errors.additionalFieldsFormId}
              />
            </div>
            {product ? (
              <div className="card">
                <h2>Delete</h2>
                <button type="button" className="btn small danger" onClick={() => setConfirmDelete(true)}>
                  Delete product
                </button>
              </div>
            ) : null}
          </div>
        </div>
        <div
          className="btn-row"
          style={{ position: "sticky", bottom: 0, padding: "0.8rem 0", background: "var(--bg)" }}
        >
          <button type="submit" className="btn primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save product"}
          </button>
        </div>
      </form>
      {picking ? (
        <MediaPicker
          multiple
          value={f.imageIds}
          onChange={(imageIds) => set({ imageIds })}
          onClose={() => setPicking(false)}
        />
      ) : null}
      {confirmDelete && product ? (
        <Modal
          title={`Delete ${product.title}?`}
          onClose={() => setConfirmDelete(false)}
          footer={
            <>
              <button type="button" className="btn" onClick={() => setConfirmDelete(false)}>
                Cancel
              </button>
              <button type="button" className="btn danger" onClick={() => remove.mutate()}>
                Delete product
              </button>
            </>
          }
        >
          <ErrorNotice error={remove.error} />
          <p>The product disappears from the shop. Past orders keep their lines.</p>
        </Modal>
      ) : null}
    </>
  );
}
