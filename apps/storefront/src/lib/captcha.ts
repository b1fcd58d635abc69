/**
 * The captcha widget in the browser, for the site's provider (reCAPTCHA, hCaptcha, Turnstile, or
 * the offline test provider). The widget hands out a token the server verifies.
 */

export interface CaptchaSettings {
  provider: "recaptcha" | "hcaptcha" | "turnstile" | "test";
  siteKey: string;
  scriptUrl: string | null;
}

export interface CaptchaWidget {
  /** The token once the visitor completed the captcha, else undefined. */
  token(): string | undefined;
  reset(): void;
  destroy(): void;
}

/**
 * The token the offline test provider's widget hands out when its box is ticked: @atelier/forms's
 * TEST_CAPTCHA_TOKEN, the one the server passes. Written here rather than imported so that the
 * restock form, which loads this module, does not also load the forms package's messages (2 kB).
 */
const TEST_CAPTCHA_TOKEN = "test-captcha-pass";

/** What a provider's script puts on `window` (grecaptcha, hcaptcha, turnstile). */
type ProviderApi = {
  render(el: HTMLElement, opts: Record<string, unknown>): unknown;
  reset(id?: unknown): void;
  getResponse?(id?: unknown): string;
  remove?(id?: unknown): void;
};

const scripts = new Map<string, Promise<void>>();

/**
 * Loads a provider's script once per address. With `retry`, a load that failed is forgotten,
 * so that the next call tries again.
 */
export function loadScript(url: string, retry = false): Promise<void> {
  let p = scripts.get(url);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const s = document.createElement("script");
      s.src = url;
      s.async = true;
      s.onload = () => resolve();
      s.onerror = () => {
        if (retry) scripts.delete(url);
        reject(new Error(`could not load ${url}`));
      };
      document.head.append(s);
    });
    scripts.set(url, p);
  }
  return p;
}

/** The loaded provider's API, if its script has run. */
export function apiOf(provider: CaptchaSettings["provider"]): ProviderApi | undefined {
  const w = window as unknown as Record<string, ProviderApi | undefined>;
  return provider === "recaptcha" ? w.grecaptcha : provider === "hcaptcha" ? w.hcaptcha : w.turnstile;
}

/**
 * Renders a provider's widget into `slot` (answers its id): `onToken` hears each token the
 * visitor earns, and undefined when it expires.
 */
export function renderWidget(
  api: ProviderApi,
  slot: HTMLElement,
  siteKey: string,
  onToken: (token: string | undefined) => void,
  theme?: "dark" | "light",
): unknown {
  return api.render(slot, {
    sitekey: siteKey,
    ...(theme ? { theme } : {}),
    callback: (t: string) => onToken(t),
    "expired-callback": () => onToken(undefined),
  });
}

let seq = 0;

/** Renders the captcha into a container. */
export function renderCaptcha(container: HTMLElement, settings: CaptchaSettings): CaptchaWidget {
  if (settings.provider === "test") {
    const id = `captcha-test-${++seq}`;
    const label = document.createElement("label");
    label.className = "captcha-test";
    label.htmlFor = id;
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = id;
    label.append(box, " I'm not a robot");
    container.replaceChildren(label);
    return {
      token: () => (box.checked ? TEST_CAPTCHA_TOKEN : undefined),
      reset: () => {
        box.checked = false;
      },
      destroy: () => container.replaceChildren(),
    };
  }
  let token: string | undefined;
  let widgetId: unknown;
  let destroyed = false;
  const slot = document.createElement("div");
  container.replaceChildren(slot);
  if (settings.scriptUrl) {
    loadScript(settings.scriptUrl)
      .then(() => {
        const api = apiOf(settings.provider);
        if (!api || destroyed) return;
        widgetId = renderWidget(api, slot, settings.siteKey, (t) => {
          token = t;
        });
      })
      .catch((err) => console.error(err));
  }
  return {
    token: () => token,
    reset: () => {
      token = undefined;
      apiOf(settings.provider)?.reset(widgetId);
    },
    destroy: () => {
      destroyed = true;
      apiOf(settings.provider)?.remove?.(widgetId);
      container.replaceChildren();
    },
  };
}

let siteCaptchaPromise: Promise<CaptchaSettings | null> | undefined;

/**
 * The site's captcha (provider and site key, no secrets), or null when it has none: asked once per
 * page for every form on it. A failed ask is not kept, so the next form to ask tries again.
 */
export function siteCaptcha(): Promise<CaptchaSettings | null> {
  siteCaptchaPromise ??= fetch("/api/form/CaptchaSettings", { credentials: "same-origin" })
    .then((r) => {
      if (!r.ok) throw new Error(`captcha settings: ${r.status}`);
      return r.json() as Promise<{ captcha: CaptchaSettings | null }>;
    })
    .then((a) => a.captcha ?? null)
    .catch(() => {
      siteCaptchaPromise = undefined;
      return null;
    });
  return siteCaptchaPromise;
}
