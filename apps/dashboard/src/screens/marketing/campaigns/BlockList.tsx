/**
 * A campaign's body: its blocks in order, each with its own fields, moved up and down or removed,
 * and the buttons that add one of each kind the server renders.
 */
import { useId, useState } from "react";
import { useProductOptions } from "../../../components/fields.js";
import { Field, SelectField, TextField, errorsUnder } from "../../../components/form/index.js";
import { MediaPicker, useMedia } from "../../../components/media.js";
import { MoveButtons } from "../../../components/MoveButtons.js";
import { RichTextEditor } from "../../../components/RichText.js";
import type { BlockType, CampaignBlock } from "./model.js";

const BLOCK_LABEL: Record<BlockType, string> = {
  text: "Text",
  image: "Image",
  button: "Button",
  product: "Product",
  products: "Row of products",
  divider: "Divider",
  spacer: "Spacer",
  social: "Social links",
};

type Products = { id: string; title: string }[];

function newBlock(type: BlockType, products: Products): CampaignBlock {
  switch (type) {
    case "text":
      return { type, html: "" };
    case "image":
      return { type, mediaId: "", alt: "" };
    case "button":
      return { type, text: "Shop now", url: "/shop" };
    case "product":
      return { type, productId: products[0]?.id ?? "" };
    case "products":
      return { type, productIds: products.slice(0, 3).map((p) => p.id) };
    default:
      return { type };
  }
}

export function BlockList({
  blocks,
  onChange,
  errors,
  disabled,
}: {
  blocks: CampaignBlock[];
  onChange: (blocks: CampaignBlock[]) => void;
  errors: Record<string, string>;
  disabled?: boolean;
}) {
  const products = useProductOptions();
  const setAt = (i: number, block: CampaignBlock) => onChange(blocks.map((b, j) => (j === i ? block : b)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...blocks];
    const [b] = next.splice(i, 1);
    next.splice(i + by, 0, b!);
    onChange(next);
  };
  return (
    <div className="campaign-blocks">
      {blocks.length ? null : <p className="empty">No blocks yet: add text, an image or a product below.</p>}
      <ol className="campaign-block-list">
        {blocks.map((block, i) => {
          const label = `${BLOCK_LABEL[block.type]} block ${i + 1}`;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no ids; a block's place is its identity while editing
            <li key={i} className="campaign-block">
              <div className="campaign-block-head">
                <strong>{BLOCK_LABEL[block.type]}</strong>
                <span style={{ flex: 1 }} />
                {disabled ? null : (
                  <>
                    <MoveButtons
                      name={label}
                      index={i}
                      count={blocks.length}
                      onMove={(by) => move(i, by)}
                      className="btn small ghost"
                    />
                    <button
                      type="button"
                      className="btn small ghost"
                      aria-label={`Remove ${label}`}
                      onClick={() => onChange(blocks.filter((_, j) => j !== i))}
                    >
                      Remove
                    </button>
                  </>
                )}
              </div>
              <BlockFields
                block={block}
                onChange={(b) => setAt(i, b)}
                errors={errorsUnder(errors, `blocks.${i}.`)}
                products={products.data ?? []}
                label={label}
              />
            </li>
          );
        })}
      </ol>
      {disabled ? null : (
        <fieldset className="campaign-add">
          <legend>Add a block</legend>
          {(Object.keys(BLOCK_LABEL) as BlockType[]).map((type) => (
            <button
              key={type}
              type="button"
              className="btn small"
              onClick={() => onChange([...blocks, newBlock(type, products.data ?? [])])}
            >
              + {BLOCK_LABEL[type]}
            </button>
          ))}
        </fieldset>
      )}
    </div>
  );
}

function BlockFields({
  block,
  onChange,
  errors,
  products,
  label,
}: {
  block: CampaignBlock;
  onChange: (b: CampaignBlock) => void;
  errors: Record<string, string>;
  products: Products;
  label: string;
}) {
  const labelId = useId();
  const productOptions = [
    { value: "", label: "Choose a product" },
    ...products.map((p) => ({ value: p.id, label: p.title })),
  ];
  switch (block.type) {
    case "text":
      return (
        <>
          <span id={labelId} className="sr-only">
            {label}
          </span>
          <RichTextEditor
            value={block.html}
            onChange={(html) => onChange({ ...block, html })}
            labelledBy={labelId}
            placeholder="Write your message…"
          />
        </>
      );
    case "image":
      return <ImageFields block={block} onChange={onChange} errors={errors} />;
    case "button":
      return (
        <div className="field-row">
          <TextField
            label="Button text"
            value={block.text}
            maxLength={100}
            onChange={(text) => onChange({ ...block, text })}
            error={errors.text}
          />
          <TextField
            label="Link"
            value={block.url}
            maxLength={2000}
            help="A page of your site (/shop) or a web address."
            onChange={(url) => onChange({ ...block, url })}
            error={errors.url}
          />
        </div>
      );
    case "product":
      return (
        <SelectField
          label="Product"
          value={block.productId}
          onChange={(productId) => onChange({ ...block, productId })}
          options={productOptions}
          error={errors.productId}
        />
      );
    case "products":
      return (
        <div className="field-row">
          {[0, 1, 2].map((n) => (
            <SelectField
              key={n}
              label={`Product ${n + 1}`}
              value={block.productIds[n] ?? ""}
              onChange={(id) => {
                const ids = [...block.productIds];
                ids[n] = id;
                onChange({ ...block, productIds: ids.filter(Boolean) });
              }}
              options={n === 0 ? productOptions : [{ value: "", label: "None" }, ...productOptions.slice(1)]}
              error={n === 0 ? errors.productIds : undefined}
            />
          ))}
        </div>
      );
    case "divider":
      return <p className="muted small">A thin line across the email.</p>;
    case "spacer":
      return <p className="muted small">Some empty space.</p>;
    case "social":
      return <p className="muted small">Links to your social profiles, from Site settings.</p>;
  }
}

function ImageFields({
  block,
  onChange,
  errors,
}: {
  block: Extract<CampaignBlock, { type: "image" }>;
  onChange: (b: CampaignBlock) => void;
  errors: Record<string, string>;
}) {
  const media = useMedia();
  const [picking, setPicking] = useState(false);
  const chosen = media.data?.find((m) => m.id === block.mediaId);
  return (
    <>
      <Field label="Image" labelFor={false} error={errors.mediaId}>
        {({ labelId }) => (
          <div className="campaign-image-pick">
            {chosen ? <img src={`${chosen.assetUrl}?format=300w`} alt="" /> : null}
            <button
              type="button"
              className="btn small"
              aria-describedby={labelId}
              onClick={() => setPicking(true)}
            >
              {block.mediaId ? "Change image" : "Choose image"}
            </button>
          </div>
        )}
      </Field>
      <div className="field-row">
        <TextField
          label="Alt text"
          help="What the image shows, for people who cannot see it."
          value={block.alt}
          maxLength={300}
          onChange={(alt) => onChange({ ...block, alt })}
          error={errors.alt}
        />
        <TextField
          label="Link (optional)"
          value={block.url ?? ""}
          maxLength={2000}
          onChange={(url) => {
            const { url: _old, ...rest } = block;
            onChange(url ? { ...rest, url } : rest);
          }}
          error={errors.url}
        />
      </div>
      {picking ? (
        <MediaPicker
          value={block.mediaId ? [block.mediaId] : []}
          onChange={([id]) =>
            onChange({
              ...block,
              mediaId: id ?? "",
              alt: block.alt || (media.data?.find((m) => m.id === id)?.title ?? ""),
            })
          }
          onClose={() => setPicking(false)}
        />
      ) : null}
    </>
  );
}
