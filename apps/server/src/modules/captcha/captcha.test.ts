import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { SCRIPT_URLS, TEST_CAPTCHA_PASS, VERIFY_URLS, captchaProvider, publicCaptcha } from "./service.js";

type Call = { url: string; body: URLSearchParams; headers: Record<string, string> };

function fakeFetch(answer: { status?: number; json?: unknown; throws?: boolean }, calls: Call[]) {
  return async (url: string, init: { headers: Record<string, string>; body: string }) => {
    calls.push({ url, body: new URLSearchParams(init.body), headers: init.headers });
    if (answer.throws) throw new Error("network down");
    return { ok: (answer.status ?? 200) < 300, status: answer.status ?? 200, json: async () => answer.json };
  };
}

describe("captcha providers", () => {
  for (const name of ["recaptcha", "hcaptcha", "turnstile"] as const) {
    it(`verifies ${name} tokens over HTTP with the secret key`, async () => {
      const calls: Call[] = [];
      const provider = captchaProvider(
        { captchaProvider: name, captchaSiteKey: "site-key", captchaSecretKey: "secret-key" },
        fakeFetch({ json: { success: true } }, calls),
      )!;
      expect(provider.name).toBe(name);
      expect(await provider.verify("token-1", "203.0.113.9")).toEqual({ success: true, errorCodes: [] });
      expect(calls[0]!.url).toBe(VERIFY_URLS[name]);
      expect(calls[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
      expect(calls[0]!.body.get("secret")).toBe("secret-key");
      expect(calls[0]!.body.get("response")).toBe("token-1");
      expect(calls[0]!.body.get("remoteip")).toBe("203.0.113.9");
      expect(calls[0]!.body.get("sitekey")).toBe(name === "hcaptcha" ? "site-key" : null);
      expect(
        publicCaptcha({ captchaProvider: name, captchaSiteKey: "site-key", captchaSecretKey: "secret-key" }),
      ).toEqual({
        provider: name,
        siteKey: "site-key",
        scriptUrl: SCRIPT_URLS[name],
      });
    });
  }

  it("reports the provider's refusal, HTTP errors, network failures and missing tokens", async () => {
    const settings = { captchaProvider: "recaptcha", captchaSiteKey: "s", captchaSecretKey: "k" };
    const calls: Call[] = [];
    const refused = captchaProvider(
      settings,
      fakeFetch({ json: { success: false, "error-codes": ["timeout-or-duplicate"] } }, calls),
    )!;
    expect(await refused.verify("t")).toEqual({ success: false, errorCodes: ["timeout-or-duplicate"] });
    expect(calls[0]!.body.has("remoteip")).toBe(false);
    const broken = captchaProvider(settings, fakeFetch({ status: 502 }, []))!;
    expect(await broken.verify("t")).toEqual({ success: false, errorCodes: ["http-502"] });
    const down = captchaProvider(settings, fakeFetch({ throws: true }, []))!;
    expect(await down.verify("t")).toEqual({ success: false, errorCodes: ["verify-unavailable"] });
    const never: Call[] = [];
    const empty = captchaProvider(settings, fakeFetch({ json: { success: true } }, never))!;
    expect(await empty.verify("")).toEqual({ success: false, errorCodes: ["missing-input-response"] });
    expect(never).toEqual([]);
  });

  it("is not set up without both keys or with an unknown provider", () => {
    expect(captchaProvider({})).toBeUndefined();
    expect(captchaProvider({ captchaProvider: "recaptcha", captchaSiteKey: "s" })).toBeUndefined();
    expect(captchaProvider({ captchaProvider: "turnstile", captchaSecretKey: "k" })).toBeUndefined();
    expect(
      captchaProvider({ captchaProvider: "nope", captchaSiteKey: "s", captchaSecretKey: "k" }),
    ).toBeUndefined();
    expect(
      publicCaptcha({ captchaProvider: "hcaptcha", captchaSiteKey: " ", captchaSecretKey: "k" }),
    ).toBeNull();
  });

  it("has an offline test provider that passes only its own token", async () => {
    const provider = captchaProvider({ captchaProvider: "test" })!;
    expect(provider.siteKey).toBe("test-site-key");
    expect((await provider.verify(TEST_CAPTCHA_PASS)).success).toBe(true);
    expect(await provider.verify("robot")).toEqual({
      success: false,
      errorCodes: ["invalid-input-response"],
    });
    expect(publicCaptcha({ captchaProvider: "TEST" })).toEqual({
      provider: "test",
      siteKey: "test-site-key",
      scriptUrl: null,
    });
  });

  it("talks real HTTP to a provider's verify endpoint (a local fake server)", async () => {
    const seen: { path: string; type: string; body: URLSearchParams }[] = [];
    const server = createServer((req, res) => {
      let text = "";
      req.on("data", (c) => {
        text += c;
      });
      req.on("end", () => {
        const body = new URLSearchParams(text);
        seen.push({ path: req.url ?? "", type: req.headers["content-type"] ?? "", body });
        if (body.get("response") === "broken") {
          res.writeHead(200, { "content-type": "text/html" }).end("<html>oops</html>");
          return;
        }
        const good = body.get("secret") === "secret-key" && body.get("response") === "human";
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(
            JSON.stringify(
              good ? { success: true } : { success: false, "error-codes": ["invalid-input-response"] },
            ),
          );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const name of ["recaptcha", "hcaptcha", "turnstile"] as const) {
        // The provider's own address, answered by the local server instead.
        const local = (url: string, init: RequestInit) =>
          fetch(url.replace(new URL(VERIFY_URLS[name]).origin, origin), init);
        const provider = captchaProvider(
          { captchaProvider: name, captchaSiteKey: "site-key", captchaSecretKey: "secret-key" },
          local as never,
        )!;
        expect(await provider.verify("human", "198.51.100.7")).toEqual({ success: true, errorCodes: [] });
        expect(await provider.verify("robot")).toEqual({
          success: false,
          errorCodes: ["invalid-input-response"],
        });
        expect(await provider.verify("broken")).toEqual({
          success: false,
          errorCodes: ["verify-unavailable"],
        });
        const first = seen.at(-3)!;
        expect(first.path).toBe(new URL(VERIFY_URLS[name]).pathname);
        expect(first.type).toBe("application/x-www-form-urlencoded");
        expect(first.body.get("remoteip")).toBe("198.51.100.7");
      }
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
