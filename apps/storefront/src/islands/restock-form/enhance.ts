/**
 * Restock sign-up forms (SPEC §4, §5, §7): the `.product-restock-notification` markup of the
 * product-restock-notification formatter, made to work. Blank email 'Email cannot be blank',
 * invalid 'Email is invalid', captcha shown and incomplete 'Complete CAPTCHA before submitting.';
 * success replaces the form with the success message; a failure shows the server's message and
 * resets the captcha.
 */
import { isValidEmail } from "@atelier/forms";
import { apiCall } from "../../lib/api.js";
import { type CaptchaSettings, type CaptchaWidget, renderCaptcha, siteCaptcha } from "../../lib/captcha.js";

const MSG_EMAIL_BLANK = "Email cannot be blank";
const MSG_EMAIL_INVALID = "Email is invalid";
/** @atelier/forms's MSG_CAPTCHA_INCOMPLETE (the server's answer), not imported: see lib/captcha.ts. */
const MSG_CAPTCHA_INCOMPLETE = "Complete CAPTCHA before submitting.";
const DEFAULT_RESTOCK_SUCCESS = "Thank you! We will email you when it is back in stock.";

/** The email rule of SPEC §5, with the restock form's messages. */
function checkEmail(value: string): string | undefined {
  const email = value.trim();
  if (email === "") return MSG_EMAIL_BLANK;
  return isValidEmail(email) ? undefined : MSG_EMAIL_INVALID;
}

interface RestockOptions {
  captcha?: CaptchaSettings | null;
  successText?: string;
}

let seq = 0;

/** Makes one restock block work; answers a function that undoes it. */
export function enhanceRestockForm(block: HTMLElement, opts: RestockOptions = {}): () => void {
  const form = block.querySelector<HTMLFormElement>("form.product-restock-form");
  const input = form?.querySelector<HTMLInputElement>('input[name="email"]');
  if (!form || !input || block.dataset.restockReady) return () => {};
  block.dataset.restockReady = "true";
  const id = `restock-${++seq}`;

  // The call to action is the input's visible label; errors are announced next to it.
  const cta = block.querySelector<HTMLElement>(".product-restock-cta");
  if (cta) {
    cta.id ||= `${id}-cta`;
    input.setAttribute("aria-labelledby", cta.id);
  } else {
    input.setAttribute("aria-label", input.placeholder || "Email");
  }
  input.type = "email";
  // The SPEC's messages, not the browser's, say what is wrong with the address.
  form.noValidate = true;
  input.autocomplete = "email";
  const error = document.createElement("p");
  error.className = "product-restock-error";
  error.id = `${id}-error`;
  error.setAttribute("role", "alert");
  error.hidden = true;
  form.after(error);
  input.setAttribute("aria-describedby", error.id);

  let container = block.querySelector<HTMLElement>(".captcha-container");
  let widget: CaptchaWidget | undefined;
  let destroyed = false;
  if (container && opts.captcha) {
    widget = renderCaptcha(container, opts.captcha);
  } else if (opts.captcha !== null) {
    // The page did not say whether the site has a captcha: ask, and show it when it has one.
    void siteCaptcha().then((captcha) => {
      if (!captcha || destroyed) return;
      if (!container) {
        container = document.createElement("div");
        container.className = "captcha-container";
        error.before(container);
      }
      widget = renderCaptcha(container, captcha);
    });
  }

  const showError = (message: string) => {
    error.textContent = message;
    error.hidden = false;
    input.setAttribute("aria-invalid", "true");
  };
  const clearError = () => {
    error.hidden = true;
    error.textContent = "";
    input.removeAttribute("aria-invalid");
  };

  const submit = form.querySelector<HTMLInputElement | HTMLButtonElement>('[type="submit"]');
  let busy = false;
  const onSubmit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    const problem = checkEmail(input.value);
    if (problem) {
      showError(problem);
      input.focus();
      return;
    }
    let captchaToken: string | undefined;
    if (container) {
      captchaToken = widget?.token();
      if (!captchaToken) {
        showError(MSG_CAPTCHA_INCOMPLETE);
        return;
      }
    }
    clearError();
    busy = true;
    if (submit) submit.disabled = true;
    const joining = block.querySelector<HTMLInputElement>('input[name="isJoinMailingList"]');
    try {
      const answer = await apiCall<{ success: boolean; message?: string }>(
        "/api/site-users/account/notifications/restock",
        {
          method: "POST",
          body: {
            productId: block.dataset.productId,
            variantId: block.dataset.variantId,
            siteVisitorEmail: input.value.trim(),
            isJoinMailingList: joining?.checked === true,
            captchaToken,
          },
        },
      );
      const done = document.createElement("p");
      done.className = "product-restock-success";
      done.setAttribute("role", "status");
      done.textContent = answer.message || opts.successText || DEFAULT_RESTOCK_SUCCESS;
      block.replaceChildren(done);
    } catch (err) {
      showError((err as Error).message);
      widget?.reset();
    } finally {
      busy = false;
      if (submit) submit.disabled = false;
    }
  };
  form.addEventListener("submit", onSubmit);
  input.addEventListener("input", clearError);
  return () => {
    form.removeEventListener("submit", onSubmit);
    input.removeEventListener("input", clearError);
    destroyed = true;
    widget?.destroy();
  };
}
