/**
 * Island `product-form`: placed inside a product's form markup (the commerce formatters'
 * variants-select, quantity-input, add-to-cart-btn, product-scarcity and
 * product-restock-notification output), it makes that markup work and shows what the markup
 * cannot: the failure alert, the additional-fields form, the pay-in-instalments line and an
 * optional express "Buy Now" button.
 *
 * Props (all optional; read from the markup when absent): itemId, productType, isSubscribable,
 * subscriptionPlan, variants, currency, useCLDRMoneyFormat, locale, soldOutText,
 * soldOutVariantsDropdownDisabled, variantDisplay, captcha, restockSuccessText, express,
 * expressLabel, instalments.
 */
import { formatMoney } from "@atelier/commerce";
import { Suspense, lazy, useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { loadCartAtStart } from "../../lib/cart.js";
import {
  type VariantData,
  isGiftCard,
  priceMinorOf,
  productSoldOut,
  selectionState,
} from "../../lib/product.js";
import { Instalments } from "../instalments/Instalments.js";
import {
  type AdditionalForm,
  type ProductFormController,
  type ProductFormOptions,
  enhanceProductForm,
  findProductRoot,
} from "./enhance.js";
import "../restock-form/restock-form.css";
import "./product-form.css";

// Loaded only when a buyer meets them (an alert, a product's additional fields), not with the page.
const Modal = lazy(() => import("../../lib/modal.js").then((m) => ({ default: m.Modal })));
const AdditionalFieldsForm = lazy(() =>
  import("./AdditionalFieldsForm.js").then((m) => ({ default: m.AdditionalFieldsForm })),
);

export interface ProductFormProps extends ProductFormOptions {
  /** Show an express "Buy Now" button going straight to checkout. */
  express?: boolean;
  expressLabel?: string;
  /** Show the pay-in-instalments line (default true). */
  instalments?: boolean;
}

interface Asking {
  form: AdditionalForm;
  resolve: (values: Record<string, unknown> | null) => void;
}

function lowestPrice(variants: VariantData[], currency: string): number {
  const prices = variants.map((v) => priceMinorOf(v, currency)).filter((n) => n > 0);
  return prices.length ? Math.min(...prices) : 0;
}

export default function ProductForm(props: ProductFormProps) {
  const ref = useRef<HTMLDivElement>(null);
  const controller = useRef<ProductFormController | undefined>(undefined);
  const [alert, setAlert] = useState<{ title: string; message: string } | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [submitLabel, setSubmitLabel] = useState("Add To Cart");
  const [priceMinor, setPriceMinor] = useState(0);
  const [ready, setReady] = useState(false);
  const [soldOut, setSoldOut] = useState(false);
  const [picker, setPicker] = useState<{
    host: HTMLElement;
    variants: VariantData[];
    giftCard: boolean;
  } | null>(null);
  const [chosen, setChosen] = useState("");
  const pickerId = useId();
  const currency = props.currency ?? "USD";

  useEffect(() => {
    const host = ref.current!;
    const root = findProductRoot(host, props.itemId) ?? document.body;
    const c = enhanceProductForm(root, props, {
      alert: (title, message) => setAlert({ title, message }),
      askAdditionalFields: (form) => new Promise((resolve) => setAsking({ form, resolve })),
      navigate: (url) => window.location.assign(url),
      variantChanged: (variant) => {
        if (controller.current) {
          setPriceMinor(
            variant
              ? priceMinorOf(variant, currency)
              : lowestPrice(controller.current.product.variants, currency),
          );
        }
      },
    });
    controller.current = c;
    if (c) {
      const label = root.querySelector<HTMLElement>(".sqs-add-to-cart-button")?.dataset.originalLabel;
      if (label) setSubmitLabel(label);
      const state = selectionState(c.product, {});
      setPriceMinor(
        state.variant ? priceMinorOf(state.variant, currency) : lowestPrice(c.product.variants, currency),
      );
      setSoldOut(productSoldOut(c.product));
      if (c.ownPicker) {
        // Variants without options (gift card amounts): a picker of our own, before the button.
        const button = root.querySelector<HTMLElement>(".sqs-add-to-cart-button");
        const anchor = button?.closest(".sqs-add-to-cart-button-wrapper") ?? button;
        const host = document.createElement("div");
        host.className = "product-variants product-variants--amounts";
        anchor?.before(host);
        setPicker({ host, variants: c.product.variants, giftCard: isGiftCard(c.product) });
      }
      setReady(true);
    }
    // At start the cart loads only when there can be one (SPEC §4).
    loadCartAtStart();
    return () => {
      c?.dispose();
      setPicker((p) => {
        p?.host.remove();
        return null;
      });
    };
  }, [props, currency]);

  return (
    <div ref={ref} className="product-form-extras">
      {picker
        ? createPortal(
            <div className="variant-option">
              <label className="variant-option-title" htmlFor={pickerId}>
                {picker.giftCard ? "Value" : "Option"}
              </label>
              <div className="variant-select-wrapper">
                <select
                  id={pickerId}
                  value={chosen}
                  onChange={(e) => {
                    setChosen(e.target.value);
                    controller.current?.choose(e.target.value);
                  }}
                >
                  <option value="">Select Value</option>
                  {picker.variants.map((v) => (
                    <option key={String(v.id ?? v.sku)} value={String(v.id ?? v.sku)}>
                      {formatMoney(priceMinorOf(v, currency), currency)}
                    </option>
                  ))}
                </select>
              </div>
            </div>,
            picker.host,
          )
        : null}
      {ready && props.express ? (
        <button
          type="button"
          className="sqs-express-checkout-button atelier-button"
          onClick={() => void controller.current?.add("express")}
        >
          {props.expressLabel || "Buy Now"}
        </button>
      ) : null}
      {ready && props.instalments !== false && !soldOut && priceMinor > 0 ? (
        <Instalments priceCents={priceMinor} currency={currency} locale={props.locale} />
      ) : null}
      <Suspense fallback={null}>
        {alert ? (
          <Modal
            title={alert.title}
            onClose={() => setAlert(null)}
            role="alertdialog"
            className="add-to-cart-alert"
          >
            <p>{alert.message}</p>
            <div className="atelier-modal-actions">
              <button type="button" className="atelier-button" data-autofocus onClick={() => setAlert(null)}>
                OK
              </button>
            </div>
          </Modal>
        ) : null}
        {asking ? (
          <AdditionalFieldsForm
            form={asking.form}
            submitLabel={submitLabel}
            onSubmit={(values) => {
              asking.resolve(values);
              setAsking(null);
            }}
            onCancel={() => {
              asking.resolve(null);
              setAsking(null);
            }}
          />
        ) : null}
      </Suspense>
    </div>
  );
}
