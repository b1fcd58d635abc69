/**
 * A browser-like client over fetch, for a server running as a process (benchmarks, the cluster
 * test, the crash test): keeps cookies, sends the crumb back on state-changing calls, and makes
 * every call from an address of its own (X-Forwarded-For), so per-address rate limits keep
 * clients apart.
 */
import { DEMO_OWNER } from "./fixtures.js";

let clients = 0;

export class FetchClient {
  /** The cookies kept (another client's may be put in, to call as that client). */
  cookies = new Map<string, string>();
  readonly ip: string;
  /** `base` may be changed, to make the next calls through another process. */
  constructor(public base: string) {
    const n = ++clients;
    this.ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  }

  /** Calls `pathname` (JSON body, or FormData as it is); redirects are answered, not followed. */
  async call(pathname: string, method = "GET", body?: unknown, extra: RequestInit = {}): Promise<Response> {
    const headers: Record<string, string> = {
      "x-forwarded-for": this.ip,
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    };
    if (body !== undefined && !(body instanceof FormData)) headers["content-type"] = "application/json";
    const crumb = this.cookies.get("crumb");
    if (crumb && method !== "GET") headers["x-csrf-token"] = crumb;
    const res = await fetch(`${this.base}${pathname}`, {
      method,
      headers,
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      redirect: "manual",
      ...extra,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      const v = pair!.slice(i + 1);
      if (v) this.cookies.set(pair!.slice(0, i), v);
      else this.cookies.delete(pair!.slice(0, i));
    }
    return res;
  }
}

/** Visits the site (for the crumb) and signs in as the demo's owner; answers the sign-in response. */
export async function signInDemoOwner(c: FetchClient): Promise<Response> {
  await c.call("/");
  return c.call("/api/owner/session", "POST", DEMO_OWNER);
}

/** The id of the signed-in owner's first site (the demo site for the demo's owner). */
export async function firstSiteId(c: FetchClient): Promise<string> {
  const account = (await (await c.call("/api/owner/account")).json()) as { websites: { id: string }[] };
  return account.websites[0]!.id;
}
