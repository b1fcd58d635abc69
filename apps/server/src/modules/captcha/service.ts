/**
 * Captcha behind one interface: reCAPTCHA, hCaptcha and Turnstile, verified over HTTP with the
 * site's secret key, and an offline test provider for development and tests. A site without a
 * configured provider has no captcha: forms that ask for one say 'ReCaptcha has not been set up!'.
 */
import { TEST_CAPTCHA_TOKEN } from "@atelier/forms";
import type { Db } from "../../db/client.js";
import { settingsOf } from "../sites/service.js";

const CAPTCHA_PROVIDERS = ["recaptcha", "hcaptcha", "turnstile", "test"] as const;
type CaptchaProviderName = (typeof CAPTCHA_PROVIDERS)[number];

/** The one token the offline test provider accepts (its widget hands it out when ticked). */
export const TEST_CAPTCHA_PASS = TEST_CAPTCHA_TOKEN;
const TEST_CAPTCHA_SITE_KEY = "test-site-key";
/** How long a verification request may take before it counts as failed. */
const CAPTCHA_VERIFY_TIMEOUT_MS = 5000;

interface CaptchaVerdict {
  success: boolean;
  errorCodes: string[];
}

interface CaptchaProvider {
  name: CaptchaProviderName;
  siteKey: string;
  verify(token: string, remoteIp?: string): Promise<CaptchaVerdict>;
}

/** What the browser needs to show the widget: no secrets. */
interface PublicCaptcha {
  provider: CaptchaProviderName;
  siteKey: string;
  /** The provider's script, loaded with explicit rendering; none for the test provider. */
  scriptUrl: string | null;
}

interface CaptchaSettings {
  captchaProvider?: string | null;
  captchaSiteKey?: string | null;
  captchaSecretKey?: string | null;
}

export const VERIFY_URLS: Record<Exclude<CaptchaProviderName, "test">, string> = {
  recaptcha: "https://www.google.com/recaptcha/api/siteverify",
  hcaptcha: "https://api.hcaptcha.com/siteverify",
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
};

export const SCRIPT_URLS: Record<Exclude<CaptchaProviderName, "test">, string> = {
  recaptcha: "https://www.google.com/recaptcha/api.js?render=explicit",
  hcaptcha: "https://js.hcaptcha.com/1/api.js?render=explicit&recaptchacompat=off",
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
};

type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

function providerName(value: string | null | undefined): CaptchaProviderName | undefined {
  const v = (value ?? "").trim().toLowerCase();
  return (CAPTCHA_PROVIDERS as readonly string[]).includes(v) ? (v as CaptchaProviderName) : undefined;
}

/** All three HTTP providers take the same form-encoded request and answer `{success, error-codes}`. */
function httpProvider(
  name: Exclude<CaptchaProviderName, "test">,
  siteKey: string,
  secret: string,
  fetchImpl: FetchLike,
): CaptchaProvider {
  return {
    name,
    siteKey,
    async verify(token, remoteIp) {
      if (!token || token.length > 4096) return { success: false, errorCodes: ["missing-input-response"] };
      const body = new URLSearchParams({ secret, response: token });
      if (remoteIp) body.set("remoteip", remoteIp);
      if (name === "hcaptcha") body.set("sitekey", siteKey);
      try {
        const res = await fetchImpl(VERIFY_URLS[name], {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: body.toString(),
          signal: AbortSignal.timeout(CAPTCHA_VERIFY_TIMEOUT_MS),
        });
        if (!res.ok) return { success: false, errorCodes: [`http-${res.status}`] };
        const answer = (await res.json()) as { success?: unknown; "error-codes"?: unknown };
        const codes = Array.isArray(answer["error-codes"]) ? answer["error-codes"].map(String) : [];
        return { success: answer.success === true, errorCodes: codes };
      } catch {
        return { success: false, errorCodes: ["verify-unavailable"] };
      }
    },
  };
}

/** The offline provider: passes exactly the token its widget hands out. */
function testProvider(siteKey: string): CaptchaProvider {
  return {
    name: "test",
    siteKey,
    async verify(token) {
      return token === TEST_CAPTCHA_PASS
        ? { success: true, errorCodes: [] }
        : { success: false, errorCodes: ["invalid-input-response"] };
    },
  };
}

/**
 * The site's captcha provider, or undefined when none is set up: the HTTP providers need both a
 * site key and a secret key; the test provider needs neither.
 */
export function captchaProvider(
  settings: CaptchaSettings,
  fetchImpl: FetchLike = fetch as unknown as FetchLike,
): CaptchaProvider | undefined {
  const name = providerName(settings.captchaProvider);
  if (!name) return undefined;
  if (name === "test") return testProvider(settings.captchaSiteKey || TEST_CAPTCHA_SITE_KEY);
  const siteKey = settings.captchaSiteKey?.trim();
  const secret = settings.captchaSecretKey?.trim();
  if (!siteKey || !secret) return undefined;
  return httpProvider(name, siteKey, secret, fetchImpl);
}

export function publicCaptcha(settings: CaptchaSettings): PublicCaptcha | null {
  const provider = captchaProvider(settings);
  if (!provider) return null;
  return {
    provider: provider.name,
    siteKey: provider.siteKey,
    scriptUrl: provider.name === "test" ? null : SCRIPT_URLS[provider.name],
  };
}

/** The public captcha settings of a website. */
export async function siteCaptcha(db: Db, websiteId: string): Promise<PublicCaptcha | null> {
  const { site } = await settingsOf(db, websiteId);
  return site ? publicCaptcha(site) : null;
}

type CaptchaCheck =
  | { ok: true }
  | { ok: false; reason: "not-set-up" | "missing" | "failed"; errorCodes: string[] };

/**
 * Verifies a visitor's captcha token against the website's provider. Other modules (restock
 * sign-ups) call this too.
 */
export async function verifySiteCaptcha(
  db: Db,
  websiteId: string,
  token: string | undefined,
  remoteIp?: string,
  fetchImpl?: FetchLike,
): Promise<CaptchaCheck> {
  const { site } = await settingsOf(db, websiteId);
  const provider = site ? captchaProvider(site, fetchImpl) : undefined;
  if (!provider) return { ok: false, reason: "not-set-up", errorCodes: [] };
  if (!token) return { ok: false, reason: "missing", errorCodes: ["missing-input-response"] };
  const verdict = await provider.verify(token, remoteIp);
  return verdict.success ? { ok: true } : { ok: false, reason: "failed", errorCodes: verdict.errorCodes };
}
