/**
 * Island `newsletter-popup`: asks the visitor to join the mailing list, after some seconds or
 * once they scroll past half of the page, at most once per visitor every `frequencyDays` (kept
 * in localStorage, never a cookie), never while the cookie banner waits for an answer. A
 * focus-trapped modal dialog: Escape or the close button closes it and focus goes back where it
 * was. A fixed overlay, so the page never moves. The server places it only on pages where it may
 * show (never the cart or checkout), so only those load this script. A plain script, no React.
 */
import { ApiCallError, MSG_UNKNOWN, apiCall } from "../../lib/api.js";
import { FOCUSABLE, lockScroll, trapTab } from "../../lib/dialog.js";
import "./newsletter-popup.css";

export interface NewsletterPopupProps {
  title: string;
  text: string;
  buttonText: string;
  trigger: { kind: "delay"; seconds: number } | { kind: "scroll" };
  frequencyDays: number;
}

export const SHOWN_KEY = "atelier:newsletter-popup-shown";
const DAY_MS = 86_400_000;

/** Whether the pop-up may show now, given when it last showed (epoch ms) and the owner's days. */
export function mayShow(lastShown: number | undefined, frequencyDays: number, now: number): boolean {
  return lastShown === undefined || !Number.isFinite(lastShown) || now - lastShown >= frequencyDays * DAY_MS;
}

function lastShown(): number | undefined {
  try {
    const v = localStorage.getItem(SHOWN_KEY);
    return v ? Number(v) : undefined;
  } catch {
    return undefined;
  }
}

function remember(now: number): void {
  try {
    localStorage.setItem(SHOWN_KEY, String(now));
  } catch {
    // Storage refused: it may show again on the next page.
  }
}

let ids = 0;

function open(host: HTMLElement, props: NewsletterPopupProps): void {
  remember(Date.now());
  const n = ++ids;
  const returnTo = document.activeElement as HTMLElement | null;
  const unlock = lockScroll();
  host.hidden = false;
  host.innerHTML = `<div class="atelier-popup-backdrop"><div class="atelier-popup" role="dialog" aria-modal="true" aria-labelledby="atelier-popup-title-${n}" tabindex="-1">
<button type="button" class="atelier-popup-close" aria-label="Close">×</button>
<h2 class="atelier-popup-title" id="atelier-popup-title-${n}"></h2>
<p class="atelier-popup-text"></p>
<form class="atelier-popup-form" novalidate>
<label class="atelier-popup-label" for="atelier-popup-email-${n}">Email address</label>
<div class="atelier-popup-row"><input id="atelier-popup-email-${n}" type="email" name="email" autocomplete="email" required maxlength="320"><button type="submit" class="atelier-popup-submit"></button></div>
<p class="atelier-popup-message" role="status" aria-live="polite"></p>
</form></div></div>`;
  const box = host.querySelector<HTMLElement>(".atelier-popup")!;
  const backdrop = host.querySelector<HTMLElement>(".atelier-popup-backdrop")!;
  host.querySelector(".atelier-popup-title")!.textContent = props.title;
  const text = host.querySelector<HTMLElement>(".atelier-popup-text")!;
  text.textContent = props.text;
  text.hidden = !props.text;
  const form = host.querySelector<HTMLFormElement>("form")!;
  const input = form.querySelector("input")!;
  const submit = form.querySelector<HTMLButtonElement>(".atelier-popup-submit")!;
  submit.textContent = props.buttonText;
  const message = form.querySelector<HTMLElement>(".atelier-popup-message")!;

  const close = () => {
    document.removeEventListener("keydown", onKey, true);
    host.innerHTML = "";
    host.hidden = true;
    unlock();
    returnTo?.focus?.({ preventScroll: true });
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      close();
    } else if (e.key === "Tab") {
      trapTab(e, box, [...box.querySelectorAll<HTMLElement>(FOCUSABLE)]);
    }
  };
  document.addEventListener("keydown", onKey, true);
  host.querySelector(".atelier-popup-close")!.addEventListener("click", close);
  backdrop.addEventListener("click", (e) => {
    if (e.target === backdrop) close();
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const email = input.value.trim();
    message.classList.remove("is-error");
    if (!input.checkValidity() || !email) {
      message.classList.add("is-error");
      message.textContent = "Enter a valid email address.";
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    input.removeAttribute("aria-invalid");
    submit.disabled = true;
    try {
      const answer = await apiCall<{ message: string }>("/api/newsletter-popup/subscribe", {
        method: "POST",
        body: { email },
      });
      form.querySelector(".atelier-popup-row")!.remove();
      form.querySelector(".atelier-popup-label")!.remove();
      message.textContent = answer.message;
      box.focus();
    } catch (err) {
      message.classList.add("is-error");
      message.textContent = err instanceof ApiCallError ? err.message : MSG_UNKNOWN;
      submit.disabled = false;
    }
  });
  input.focus();
}

/** Runs `show` once the cookie banner, if any, has been answered (the two never overlap). */
function afterCookieBanner(show: () => void): void {
  if (!document.querySelector(".atelier-cookie-banner")) {
    show();
    return;
  }
  const watch = new MutationObserver(() => {
    if (document.querySelector(".atelier-cookie-banner")) return;
    watch.disconnect();
    show();
  });
  watch.observe(document.body, { childList: true, subtree: true });
}

export function mount(host: HTMLElement, props: NewsletterPopupProps): void {
  if (!mayShow(lastShown(), props.frequencyDays, Date.now())) return;
  let done = false;
  const show = () => {
    if (done) return;
    done = true;
    // Not while another dialog is open (a lightbox, a quick view).
    afterCookieBanner(() => {
      if (!mayShow(lastShown(), props.frequencyDays, Date.now())) return;
      open(host, props);
    });
  };
  if (props.trigger.kind === "delay") {
    setTimeout(show, Math.max(0, props.trigger.seconds) * 1000);
    return;
  }
  const onScroll = () => {
    const root = document.documentElement;
    const scrollable = root.scrollHeight - window.innerHeight;
    if (scrollable <= 0 || window.scrollY >= scrollable / 2) {
      window.removeEventListener("scroll", onScroll);
      show();
    }
  };
  window.addEventListener("scroll", onScroll, { passive: true });
}
