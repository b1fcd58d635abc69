/**
 * The product form: makes the commerce formatters' markup work (SPEC §4, §5). Variant pickers
 * (dropdowns and radio buttons kept in step), the price of the chosen variant, the sold-out note,
 * the scarcity alert and restock form of the chosen variant, sold-out choices disabled when the
 * store says so, the quantity input, and the add-to-cart button with its exact states.
 */
import {
  MSG_GIFT_CARD_DENOMINATION,
  MSG_NOT_ENOUGH_STOCK,
  MSG_VARIANT_UNAVAILABLE,
  checkoutUrl,
  giftCardUrl,
  tracksStock,
  validateQuantity,
} from "@atelier/commerce";
import { AddButtonMachine, type AddKind, failureTitle, labelFor } from "../../lib/add-button.js";
import { announce } from "../../lib/announce.js";
import { ApiCallError, apiCall } from "../../lib/api.js";
import { addToCart, startSubscription } from "../../lib/cart.js";
import type { CaptchaSettings } from "../../lib/captcha.js";
import {
  type ProductInfo,
  type SelectionState,
  type VariantData,
  isGiftCard,
  missingMessage,
  planOf,
  selectionState,
  soldOutValues,
  variantAvailable,
  variantPriceHtml,
} from "../../lib/product.js";

/** What screen readers hear once an item is in the cart (the button itself shows "Added!"). */
const ADDED_TO_CART = "Added to cart.";

export interface AdditionalForm {
  name?: string;
  fields?: unknown[];
}

export interface ProductFormOptions {
  itemId?: string;
  productType?: number;
  isSubscribable?: boolean;
  subscriptionPlan?: unknown;
  variants?: VariantData[];
  currency?: string;
  useCLDRMoneyFormat?: boolean;
  locale?: string;
  soldOutText?: string;
  soldOutVariantsDropdownDisabled?: boolean;
  /** "dropdown" (default) or "radio": which of the two pickers the page shows. */
  variantDisplay?: "dropdown" | "radio";
  captcha?: CaptchaSettings | null;
  restockSuccessText?: string;
}

interface ProductFormUi {
  alert(title: string, message: string): void;
  /** Shows the additional-fields form; resolves with the answers, or null when cancelled. */
  askAdditionalFields(form: AdditionalForm): Promise<Record<string, unknown> | null>;
  navigate(url: string): void;
  /** The chosen variant changed (undefined while options are missing). */
  variantChanged?(variant: VariantData | undefined, state: SelectionState): void;
}

export interface ProductFormController {
  product: ProductInfo;
  /** Runs the add flow as a click on the add button would (or an express purchase). */
  add(kind?: AddKind): Promise<void>;
  state(): SelectionState;
  /** True when the product's variants have no options to pick them by (the island shows a picker). */
  ownPicker: boolean;
  /** Chooses a variant by id (or sku) in the island's own picker; "" clears it. */
  choose(key: string): void;
  dispose(): void;
}

const VARIANT_CHANGE_EVENT = "atelier:variant-change";

function parseJson<T>(text: string | undefined | null): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/**
 * The element holding one product's form: the nearest ancestor of `from` with its add-to-cart
 * button (of `itemId` when given), widened while it holds no other product's button until it
 * also holds the price.
 */
export function findProductRoot(from: Element, itemId?: string): Element | undefined {
  const selector = itemId
    ? `.sqs-add-to-cart-button[data-item-id="${CSS.escape(itemId)}"]`
    : ".sqs-add-to-cart-button";
  let root: Element | undefined;
  for (let el: Element | null = from.parentElement; el; el = el.parentElement) {
    if (!root) {
      if (el.querySelector(selector)) root = el;
      else continue;
    }
    if (el.querySelectorAll(".sqs-add-to-cart-button").length > 1) break;
    root = el;
    if (el.querySelector(".product-price")) break;
  }
  return root;
}

export function enhanceProductForm(
  root: Element,
  opts: ProductFormOptions,
  ui: ProductFormUi,
): ProductFormController | undefined {
  const found = root.querySelector<HTMLElement>(
    opts.itemId
      ? `.sqs-add-to-cart-button[data-item-id="${CSS.escape(opts.itemId)}"]`
      : ".sqs-add-to-cart-button",
  );
  if (!found) return undefined;
  const button: HTMLElement = found;
  const itemId = opts.itemId ?? button.dataset.itemId ?? "";
  const idSel = CSS.escape(itemId);
  const picker = root.querySelector<HTMLElement>(`.product-variants[data-item-id="${idSel}"]`);
  const variants = opts.variants ?? parseJson<VariantData[]>(picker?.dataset.variants) ?? [];
  const optionNames = [
    ...new Set(
      [...(picker?.querySelectorAll<HTMLElement>("[data-variant-option-name]") ?? [])].map(
        (el) => el.dataset.variantOptionName!,
      ),
    ),
  ];
  const product: ProductInfo = {
    itemId,
    productType: opts.productType ?? (Number(button.dataset.productType) || 1),
    isSubscribable:
      opts.isSubscribable ??
      (button.dataset.isSubscription === "true" || picker?.dataset.isSubscribable === "true"),
    subscriptionPlan: planOf(opts.subscriptionPlan ?? parseJson(picker?.dataset.subscriptionPlan)),
    variants,
    optionNames,
  };
  const priceEl = root.querySelector<HTMLElement>(".product-price");
  const originalPrice = priceEl?.innerHTML ?? "";
  const currency =
    opts.currency ?? ((variants[0]?.priceMoney as { currency?: string } | undefined)?.currency || "USD");
  const cldr = opts.useCLDRMoneyFormat ?? (priceEl ? !priceEl.querySelector(".sqs-money-native") : false);
  const soldOutText = opts.soldOutText || "Sold Out";
  const quantityInput = root.querySelector<HTMLInputElement>(
    `.product-quantity-input[data-item-id="${idSel}"] input`,
  );
  const labelEl = button.querySelector<HTMLElement>(".sqs-add-to-cart-button-inner") ?? button;
  const idleLabel = button.dataset.originalLabel || labelEl.textContent?.trim() || "Add To Cart";
  const scarcity = [...root.querySelectorAll<HTMLElement>(".product-scarcity[data-variant-attributes]")];
  const restock = [
    ...root.querySelectorAll<HTMLElement>(`.product-restock-notification[data-product-id="${idSel}"]`),
  ];
  const cleanups: (() => void)[] = [];
  const selection: Record<string, string> = {};

  // ── The two pickers of each option, kept in step ───────────────────────────────────────────
  const selects = new Map<string, HTMLSelectElement>();
  const radios = new Map<string, HTMLInputElement[]>();
  for (const name of optionNames) {
    const sel = picker?.querySelector<HTMLSelectElement>(
      `select[data-variant-option-name="${CSS.escape(name)}"]`,
    );
    if (sel) selects.set(name, sel);
    const wrap = picker?.querySelector<HTMLElement>(
      `.variant-radiobtn-wrapper[data-variant-option-name="${CSS.escape(name)}"]`,
    );
    if (wrap) {
      wrap.setAttribute("role", "radiogroup");
      wrap.setAttribute("aria-label", name);
      radios.set(name, [...wrap.querySelectorAll<HTMLInputElement>("input.variant-radiobtn")]);
    }
    selection[name] = sel?.value ?? "";
  }
  if (picker) picker.dataset.variantDisplay = opts.variantDisplay ?? "dropdown";
  // The radio labels are the visible choices (role="button" in the markup): keys pick them too.
  for (const list of radios.values()) {
    for (const input of list) {
      const label = root.querySelector<HTMLElement>(`label[for="${CSS.escape(input.id)}"]`);
      if (!label) continue;
      const onKey = (e: KeyboardEvent) => {
        if ((e.key === "Enter" || e.key === " ") && !input.disabled) {
          e.preventDefault();
          input.click();
        }
      };
      label.addEventListener("keydown", onKey);
      cleanups.push(() => label.removeEventListener("keydown", onKey));
    }
  }

  const setOption = (name: string, value: string) => {
    selection[name] = value;
    const sel = selects.get(name);
    if (sel && sel.value !== value) sel.value = value;
    for (const r of radios.get(name) ?? []) r.checked = r.value === value;
    update();
  };
  for (const [name, sel] of selects) {
    const onChange = () => setOption(name, sel.value);
    sel.addEventListener("change", onChange);
    cleanups.push(() => sel.removeEventListener("change", onChange));
  }
  for (const [name, list] of radios) {
    for (const r of list) {
      const onChange = () => {
        if (r.checked) setOption(name, r.value);
      };
      r.addEventListener("change", onChange);
      cleanups.push(() => r.removeEventListener("change", onChange));
    }
  }

  // ── Restock forms (their code loaded only by products that show one) ───────────────────────
  let disposed = false;
  if (restock.length) {
    void import("../restock-form/enhance.js").then(({ enhanceRestockForm }) => {
      if (disposed) return;
      for (const block of restock) {
        cleanups.push(
          enhanceRestockForm(block, { captcha: opts.captcha, successText: opts.restockSuccessText }),
        );
      }
    });
  }
  cleanups.push(() => {
    disposed = true;
  });

  // ── What the selection shows ───────────────────────────────────────────────────────────────
  let lastVariantKey: string | undefined;
  const sameAttributes = (a: Record<string, string> | undefined, b: Record<string, string> | undefined) => {
    const ka = Object.keys(a ?? {});
    const kb = Object.keys(b ?? {});
    return ka.length === kb.length && ka.every((k) => a?.[k] === b?.[k]);
  };

  function disableSoldOut() {
    if (!opts.soldOutVariantsDropdownDisabled) return;
    for (const name of optionNames) {
      const closed = soldOutValues(product, name, selection);
      const sel = selects.get(name);
      if (sel) {
        for (const o of sel.options) {
          if (o.value === "") continue;
          o.disabled = closed.has(o.value);
          o.textContent = closed.has(o.value) ? `${o.value} (${soldOutText})` : o.value;
        }
      }
      for (const r of radios.get(name) ?? []) {
        r.disabled = closed.has(r.value);
        const label = root.querySelector<HTMLElement>(`label[for="${CSS.escape(r.id)}"]`);
        label?.classList.toggle("variant-radiobtn--sold-out", r.disabled);
      }
    }
  }

  /**
   * Several variants but no option to pick them by (gift card amounts are variants without
   * attributes): the island's own picker chooses the variant.
   */
  const ownPicker = optionNames.length === 0 && variants.length > 1;
  let chosenKey: string | undefined;
  const keyOf = (v: VariantData) => String(v.id ?? v.sku ?? "");

  function currentState(): SelectionState {
    if (!ownPicker) return selectionState(product, selection);
    const variant = variants.find((v) => keyOf(v) === chosenKey);
    if (!variant)
      return { missing: [isGiftCard(product) ? "Value" : "Option"], unavailable: false, soldOut: false };
    return { missing: [], variant, unavailable: false, soldOut: !variantAvailable(product, variant) };
  }

  function update() {
    const state = currentState();
    const complete =
      state.missing.length === 0 && (optionNames.length > 0 || variants.length === 1 || ownPicker);
    if (optionNames.length > 0 || ownPicker) {
      if (!complete && priceEl) priceEl.innerHTML = originalPrice;
      if (complete && priceEl) {
        priceEl.innerHTML = variantPriceHtml(product, state, {
          currency,
          cldr,
          locale: opts.locale,
          soldOutText,
        });
      }
      for (const el of scarcity) {
        const attrs = parseJson<Record<string, string>>(el.dataset.variantAttributes);
        el.hidden = !(state.variant && sameAttributes(attrs, state.variant.attributes));
      }
      for (const el of restock) {
        el.hidden = !(state.variant && state.soldOut && el.dataset.variantId === String(state.variant.id));
      }
      if (picker) {
        if (state.variant?.id) picker.dataset.selectedVariant = String(state.variant.id);
        else delete picker.dataset.selectedVariant;
      }
    }
    button.classList.toggle("sold-out", Boolean(state.variant && state.soldOut));
    disableSoldOut();
    const key = state.variant ? String(state.variant.id ?? state.variant.sku) : undefined;
    if (key !== lastVariantKey) {
      lastVariantKey = key;
      // A visitor's choice changed the price or made it sold out: screen readers hear the new price.
      if (state.variant && button.dataset.ready === "true") announce(variantNews(state.soldOut));
      ui.variantChanged?.(state.variant, state);
      root.dispatchEvent(
        new CustomEvent(VARIANT_CHANGE_EVENT, {
          bubbles: true,
          detail: { itemId, variant: state.variant, soldOut: state.soldOut },
        }),
      );
    }
    return state;
  }

  /** The chosen variant's price as the page shows it, and whether it is sold out. */
  function variantNews(soldOut: boolean): string {
    const price = (priceEl?.textContent ?? "").replace(/\s+/g, " ").trim();
    return soldOut && !price.includes(soldOutText) ? `${price} ${soldOutText}`.trim() : price;
  }

  // ── The add-to-cart button ─────────────────────────────────────────────────────────────────
  const machine = new AddButtonMachine((s) => {
    if (s === "added") announce(ADDED_TO_CART);
    labelEl.textContent = labelFor(s, idleLabel);
    button.classList.toggle("cart-adding", s === "adding");
    button.classList.toggle("cart-added", s === "added");
    button.setAttribute("aria-disabled", s === "idle" ? "false" : "true");
    button.dataset.state = s;
  });
  cleanups.push(() => machine.dispose());
  button.dataset.state = "idle";

  function kindOf(requested?: AddKind): AddKind {
    if (isGiftCard(product)) return "gift-card";
    if (product.isSubscribable) return "subscription";
    return requested ?? (button.dataset.express === "true" ? "express" : "cart");
  }

  /** The checks the server repeats, in the order a visitor meets them. */
  function check(state: SelectionState): { error?: string; quantity: number } {
    if (state.missing.length > 0) {
      return { error: isGiftCard(product) ? MSG_GIFT_CARD_DENOMINATION : missingMessage(state), quantity: 0 };
    }
    if (state.unavailable || (!state.variant && variants.length > 0))
      return { error: MSG_VARIANT_UNAVAILABLE, quantity: 0 };
    const q = validateQuantity(quantityInput && !quantityInput.closest("[hidden]") ? quantityInput.value : 1);
    if (!q.ok) return { error: q.error, quantity: 0 };
    const v = state.variant;
    if (v && state.soldOut) return { error: MSG_NOT_ENOUGH_STOCK, quantity: 0 };
    const limited = tracksStock(product.productType) && v && v.unlimited !== true;
    if (limited && q.quantity > Number(v.qtyInStock ?? 0))
      return { error: MSG_NOT_ENOUGH_STOCK, quantity: 0 };
    return { quantity: q.quantity };
  }

  async function add(requested?: AddKind) {
    const kind = kindOf(requested);
    if (!machine.press()) return;
    const fail = (message: string) => {
      ui.alert(failureTitle(kind), message);
      machine.failed();
    };
    const state = update();
    const { error, quantity } = check(state);
    if (error) return fail(error);
    const sku = state.variant?.sku;
    if (kind === "gift-card") {
      ui.navigate(giftCardUrl(itemId, sku ?? ""));
      return;
    }
    let additionalFields: Record<string, unknown> | null = null;
    let form = button.classList.contains("use-form")
      ? parseJson<AdditionalForm>(button.dataset.form)
      : undefined;
    const ask = async (f: AdditionalForm) => {
      additionalFields = await ui.askAdditionalFields(f);
      return additionalFields !== null;
    };
    if (form && !(await ask(form))) {
      machine.cancel();
      return;
    }
    const send = async () => {
      const input = { itemId, sku, quantity, additionalFields };
      if (kind === "subscription") {
        ui.navigate(checkoutUrl(await startSubscription(input)));
      } else if (kind === "express") {
        const answer = await addToCart(input, true);
        ui.navigate(checkoutUrl(answer.cartToken));
      } else {
        await addToCart(input);
        machine.succeeded();
      }
    };
    try {
      try {
        await send();
      } catch (err) {
        // The product asks for additional fields the page did not carry: fetch its form, ask, retry.
        if (form || !(err instanceof ApiCallError) || err.code !== "invalid_fields") throw err;
        form = (
          await apiCall<{ form: AdditionalForm }>(
            `/api/commerce/products/${encodeURIComponent(itemId)}/additional-fields-form`,
          )
        ).form;
        if (!(await ask(form))) {
          machine.cancel();
          return;
        }
        await send();
      }
    } catch (err) {
      fail((err as Error).message);
    }
  }

  const onClick = (e: Event) => {
    e.preventDefault();
    void add();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      void add();
    }
  };
  button.addEventListener("click", onClick);
  button.addEventListener("keydown", onKey);
  cleanups.push(() => {
    button.removeEventListener("click", onClick);
    button.removeEventListener("keydown", onKey);
  });

  update();
  button.dataset.ready = "true";

  return {
    product,
    add,
    state: currentState,
    ownPicker,
    choose: (key: string) => {
      chosenKey = key || undefined;
      update();
    },
    dispose: () => {
      for (const c of cleanups.splice(0)) c();
    },
  };
}
