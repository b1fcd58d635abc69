/** The product editor: loads the product (or starts a new one) and lays out its sections. */
import { Card } from "../../components/Card.js";
import { EditorForm } from "../../components/EditorForm.js";
import { DeleteCard } from "../../components/ConfirmDelete.js";
import { ProductType, canBeSubscription } from "@atelier/commerce";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useParams, useSearchParams } from "react-router";
import { get } from "../../api.js";
import { SeoFields } from "../../components/SeoFields.js";
import {
  DraftSaveBar,
  RichTextField,
  TextField,
  TextareaField,
  useDraft,
  binder,
} from "../../components/form/index.js";
import { useMedia } from "../../components/media.js";
import { useRecordEditor } from "../../components/useRecordEditor.js";
import { HistoryCard } from "../../components/history/HistoryPanel.js";
import { ErrorNotice, Loading, PageHead, usePages, useSite, useSiteId } from "../../components/ui.js";
import { useStoreCurrency } from "../store/useStore.js";
import { GiftCardAmounts } from "./GiftCardAmounts.js";
import { ImagesSection } from "./ImagesSection.js";
import { FormProblem, type ProductForm, type ProductJson, toBody, toForm } from "./model.js";
import { PublishingSection } from "./PublishingSection.js";
import { SubscriptionSection } from "./SubscriptionSection.js";
import { VariantsSection } from "./VariantsSection.js";

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
  const currency = useStoreCurrency();
  const [params] = useSearchParams();
  if (!isNew && product.isLoading) return <Loading />;
  if (!isNew && !product.data) return <ErrorNotice error={product.error ?? new Error("No such product.")} />;
  return (
    <ProductEditorForm
      key={`${productId}-${currency}`}
      initial={toForm(product.data, params.get("collection") ?? "")}
      product={product.data}
      currency={currency}
    />
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
  const form = useDraft<ProductForm>(initial);
  const { values: f, set } = form;
  const stores = (pages.data ?? []).filter((p) => p.kind === "products");
  const firstStore = stores[0]?.id;
  useEffect(() => {
    if (firstStore && !f.collectionId) set({ collectionId: firstStore });
  }, [firstStore, f.collectionId, set]);

  const editor = useRecordEditor<ProductJson>({
    url: `/api/owner/sites/${siteId}/products`,
    id: product?.id,
    key: "product",
    body: () => toBody(f, currency),
    lists: [["products", siteId]],
    alsoSaved: [["pages", siteId]],
    detail: (id) => ["product", siteId, id],
    page: (id) => `/sites/${siteId}/products/${id}`,
    afterDelete: `/sites/${siteId}/products`,
    trash: { type: "product", name: product?.title ?? "" },
    onUpdated: (p) => form.reset(toForm(p, p.collectionId)),
    confirm: {
      title: `Delete ${product?.title}?`,
      action: "Delete product",
      children: <p>The product disappears from the shop. Past orders keep their lines.</p>,
    },
  });
  const { save, deleteConfirm: deleteProduct } = editor;
  const errors = save.error instanceof FormProblem ? save.error.fields : editor.errors;
  const field = binder(f, set, errors);
  const mediaById = new Map(media.data?.map((m) => [m.id, m]));
  const section = { f, set, errors, currency };

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
        back={{ to: `/sites/${siteId}/products`, label: "All products" }}
      />
      <EditorForm
        onSubmit={() => save.mutate()}
        error={save.error}
        main={
          <>
            <Card title="Details">
              <TextField label="Product name" {...field("title")} />
              <RichTextField label="Description" value={f.body} onChange={(body) => set({ body })} />
              <TextareaField label="Short description" {...field("excerpt")} />
            </Card>

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

            <ImagesSection {...section} />
            {f.productType === ProductType.GIFT_CARD ? (
              <GiftCardAmounts {...section} />
            ) : (
              <VariantsSection {...section} />
            )}
            {canBeSubscription(f.productType) ? <SubscriptionSection {...section} /> : null}
          </>
        }
        side={
          <>
            <PublishingSection {...section} stores={stores} />
            {product ? (
              <HistoryCard
                entity={`product:${product.id}`}
                label={product.title}
                write="products.write"
                invalidate={[["products", siteId]]}
                onRestored={() =>
                  void get<{ product: ProductJson }>(
                    `/api/owner/sites/${siteId}/products/${product.id}`,
                  ).then(({ product: p }) => form.reset(toForm(p, p.collectionId)))
                }
              />
            ) : null}
            {product ? <DeleteCard>{deleteProduct.button}</DeleteCard> : null}
          </>
        }
        footer={
          <DraftSaveBar
            draft={form}
            save={save}
            saved="Product saved. It is live in the shop."
            savedEarlier={editor.createdJustNow}
            saveLabel="Save product"
          />
        }
      />
      {product ? deleteProduct.dialog : null}
    </>
  );
}
