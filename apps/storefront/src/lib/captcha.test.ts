import { afterEach, describe, expect, it, vi } from "vitest";

/** A fresh module each time: siteCaptcha keeps its answer for the page. */
const load = async () => {
  vi.resetModules();
  return (await import("./captcha.js")).siteCaptcha;
};

afterEach(() => vi.unstubAllGlobals());

describe("siteCaptcha", () => {
  it("asks the server once for every form on the page", async () => {
    const settings = { provider: "turnstile", siteKey: "k", scriptUrl: null };
    const fetch = vi.fn(async () => Response.json({ captcha: settings }));
    vi.stubGlobal("fetch", fetch);
    const siteCaptcha = await load();
    expect(await Promise.all([siteCaptcha(), siteCaptcha()])).toEqual([settings, settings]);
    expect(await siteCaptcha()).toEqual(settings);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("answers null after a failed ask and asks again for the next form", async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(new Response("busy", { status: 503 }))
      .mockRejectedValueOnce(new TypeError("offline"))
      .mockResolvedValue(Response.json({ captcha: null }));
    vi.stubGlobal("fetch", fetch);
    const siteCaptcha = await load();
    expect(await siteCaptcha()).toBeNull();
    expect(await siteCaptcha()).toBeNull();
    expect(await siteCaptcha()).toBeNull();
    expect(await siteCaptcha()).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});
