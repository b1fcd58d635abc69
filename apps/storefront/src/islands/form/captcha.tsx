/**
 * The captcha of a form: the site's provider widget (reCAPTCHA, hCaptcha, Turnstile) loaded with
 * explicit rendering, or the offline test provider's checkbox. Without a provider it says
 * 'ReCaptcha has not been set up!'.
 */
import { MSG_CAPTCHA_DESTROYED, MSG_CAPTCHA_NOT_SET_UP, TEST_CAPTCHA_TOKEN } from "@atelier/forms";
import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState } from "react";

export interface CaptchaConfig {
  provider: "recaptcha" | "hcaptcha" | "turnstile" | "test";
  siteKey: string;
  scriptUrl: string | null;
}

export interface CaptchaHandle {
  token(): string | undefined;
  reset(): void;
}

type ProviderApi = {
  render(el: HTMLElement, opts: Record<string, unknown>): unknown;
  reset(id?: unknown): void;
  remove?(id?: unknown): void;
};

const scripts = new Map<string, Promise<void>>();
function loadScript(url: string): Promise<void> {
  let p = scripts.get(url);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const s = document.createElement("script");
      s.src = url;
      s.async = true;
      s.onload = () => resolve();
      s.onerror = () => {
        scripts.delete(url);
        reject(new Error(`could not load ${url}`));
      };
      document.head.append(s);
    });
    scripts.set(url, p);
  }
  return p;
}

function apiOf(provider: CaptchaConfig["provider"]): ProviderApi | undefined {
  const w = window as unknown as Record<string, ProviderApi | undefined>;
  return provider === "recaptcha" ? w.grecaptcha : provider === "hcaptcha" ? w.hcaptcha : w.turnstile;
}

interface Props {
  config: CaptchaConfig | null | undefined;
  /** dark or light, from the form's captchaTheme (2 is dark). */
  theme?: number;
}

export const Captcha = forwardRef<CaptchaHandle, Props>(function Captcha({ config, theme }, ref) {
  const id = useId();
  const slot = useRef<HTMLDivElement>(null);
  const widget = useRef<unknown>(undefined);
  const token = useRef<string | undefined>(undefined);
  const [checked, setChecked] = useState(false);
  const [failed, setFailed] = useState<string | undefined>();

  useImperativeHandle(
    ref,
    () => ({
      token: () => (config?.provider === "test" ? (checked ? TEST_CAPTCHA_TOKEN : undefined) : token.current),
      reset: () => {
        token.current = undefined;
        setChecked(false);
        if (config && config.provider !== "test") apiOf(config.provider)?.reset(widget.current);
      },
    }),
    [config, checked],
  );

  useEffect(() => {
    if (!config || config.provider === "test" || !config.scriptUrl) return;
    let live = true;
    loadScript(config.scriptUrl)
      .then(() => {
        const api = apiOf(config.provider);
        // The form went away while the script loaded.
        if (!live || !slot.current?.isConnected) throw new Error(MSG_CAPTCHA_DESTROYED);
        if (!api) throw new Error(`${config.provider} did not load`);
        widget.current = api.render(slot.current, {
          sitekey: config.siteKey,
          theme: theme === 2 ? "dark" : "light",
          callback: (t: string) => {
            token.current = t;
          },
          "expired-callback": () => {
            token.current = undefined;
          },
        });
      })
      .catch((err: Error) => {
        if (err.message === MSG_CAPTCHA_DESTROYED) return;
        console.error(err);
        if (live) setFailed("The CAPTCHA could not load. Check your connection and reload the page.");
      });
    return () => {
      live = false;
      apiOf(config.provider)?.remove?.(widget.current);
    };
  }, [config, theme]);

  if (config === undefined) return <p className="form-captcha-loading">Loading CAPTCHA…</p>;
  if (config === null)
    return (
      <p className="form-captcha-missing" role="alert">
        {MSG_CAPTCHA_NOT_SET_UP}
      </p>
    );
  if (config.provider === "test") {
    return (
      <label className="form-captcha-test" htmlFor={id}>
        <input id={id} type="checkbox" checked={checked} onChange={(e) => setChecked(e.target.checked)} /> I'm
        not a robot
      </label>
    );
  }
  return (
    <>
      <div ref={slot} className="form-captcha-widget" />
      {failed && (
        <p className="form-message-error" role="alert">
          {failed}
        </p>
      )}
    </>
  );
});
