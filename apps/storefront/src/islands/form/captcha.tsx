/**
 * The captcha of a form: the site's provider widget (reCAPTCHA, hCaptcha, Turnstile) loaded with
 * explicit rendering, or the offline test provider's checkbox. Without a provider it says
 * 'ReCaptcha has not been set up!'.
 */
import { MSG_CAPTCHA_DESTROYED, MSG_CAPTCHA_NOT_SET_UP, TEST_CAPTCHA_TOKEN } from "@atelier/forms";
import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState } from "react";
import { type CaptchaSettings, apiOf, loadScript, renderWidget } from "../../lib/captcha.js";

/** The site's captcha provider, as the form's settings give it. */
export type CaptchaConfig = CaptchaSettings;

export interface CaptchaHandle {
  token(): string | undefined;
  reset(): void;
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
    loadScript(config.scriptUrl, true)
      .then(() => {
        const api = apiOf(config.provider);
        // The form went away while the script loaded.
        if (!live || !slot.current?.isConnected) throw new Error(MSG_CAPTCHA_DESTROYED);
        if (!api) throw new Error(`${config.provider} did not load`);
        const onToken = (t: string | undefined) => {
          token.current = t;
        };
        widget.current = renderWidget(
          api,
          slot.current,
          config.siteKey,
          onToken,
          theme === 2 ? "dark" : "light",
        );
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
