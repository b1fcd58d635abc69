/**
 * The add-to-cart button's states (SPEC §4): idle → adding ('Adding…') → added ('Added!') → idle.
 * After the call returns, added shows about 1 s later and idle 2 s after that; on an error the
 * button returns to idle after 1 s; a button that is not idle ignores clicks. Express checkout,
 * subscriptions and gift cards leave the page instead of showing added. Timers are injected so
 * the machine is testable without waiting.
 */

export type AddButtonState = "idle" | "adding" | "added";
export type AddKind = "cart" | "express" | "subscription" | "gift-card";

export const LABEL_ADDING = "Adding…";
export const LABEL_ADDED = "Added!";
/** From the answer to 'Added!'. */
export const ADDED_AFTER_MS = 1000;
/** How long 'Added!' stays. */
export const ADDED_FOR_MS = 2000;
/** From a failure back to idle. */
export const ERROR_IDLE_AFTER_MS = 1000;

const TITLE_ADD_FAILED = "Unable to Add Item";
const TITLE_PURCHASE_FAILED = "Unable to Purchase Item";
const TITLE_GIFT_CARD_FAILED = "Unable to purchase Gift Card";

/** The failure alert's title for each kind of add (SPEC §8). */
export function failureTitle(kind: AddKind): string {
  switch (kind) {
    case "express":
    case "subscription":
      return TITLE_PURCHASE_FAILED;
    case "gift-card":
      return TITLE_GIFT_CARD_FAILED;
    default:
      return TITLE_ADD_FAILED;
  }
}

/** The button's label in a state; idle shows the product's own label. */
export function labelFor(state: AddButtonState, idleLabel: string): string {
  return state === "adding" ? LABEL_ADDING : state === "added" ? LABEL_ADDED : idleLabel;
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const browserTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class AddButtonMachine {
  #state: AddButtonState = "idle";
  #timer: unknown;
  readonly #timers: Timers;
  readonly #onChange: (state: AddButtonState) => void;

  constructor(onChange: (state: AddButtonState) => void, timers: Timers = browserTimers) {
    this.#onChange = onChange;
    this.#timers = timers;
  }

  get state(): AddButtonState {
    return this.#state;
  }

  #go(state: AddButtonState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#onChange(state);
  }

  #later(ms: number, fn: () => void): void {
    if (this.#timer !== undefined) this.#timers.clear(this.#timer);
    this.#timer = this.#timers.set(() => {
      this.#timer = undefined;
      fn();
    }, ms);
  }

  /** A click. True when it starts an add: only an idle button does. */
  press(): boolean {
    if (this.#state !== "idle") return false;
    this.#go("adding");
    return true;
  }

  /** The item is in the cart: 'Added!' about 1 s later, idle 2 s after that. */
  succeeded(): void {
    if (this.#state !== "adding") return;
    this.#later(ADDED_AFTER_MS, () => {
      this.#go("added");
      this.#later(ADDED_FOR_MS, () => this.#go("idle"));
    });
  }

  /** The add failed (the alert is up): idle again after 1 s. */
  failed(): void {
    if (this.#state === "idle") return;
    this.#later(ERROR_IDLE_AFTER_MS, () => this.#go("idle"));
  }

  /** Back to idle at once (the visitor cancelled a form before anything was sent). */
  cancel(): void {
    if (this.#timer !== undefined) this.#timers.clear(this.#timer);
    this.#timer = undefined;
    this.#go("idle");
  }

  dispose(): void {
    if (this.#timer !== undefined) this.#timers.clear(this.#timer);
    this.#timer = undefined;
  }
}
