/**
 * Requests the server makes on an owner's behalf, to addresses the owner chose (webhook
 * deliveries, images copied by an import). The address a host name resolves to is checked at
 * connect time, on every attempt and every redirect, so a name that is re-pointed at a private
 * address later (DNS rebinding) is still refused.
 */
import type { LookupAddress, LookupOptions } from "node:dns";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { isPublicAddress } from "./public-address.js";

export interface OutboundPolicy {
  /** Allow http: URLs (development only; operators opt in). */
  allowHttp?: boolean;
  /** Allow loopback and private addresses (tests and private networks; operators opt in). */
  allowPrivate?: boolean;
}

/** A refusal the owner can act on: the reason is written for them. */
export class OutboundRefused extends Error {
  readonly code = "outbound_refused";
}

const NOT_PUBLIC = "The address points to a private or local network, which Atelier does not call.";

/** Checks a URL's form: absolute, http(s), no credentials; answers the reason it is refused. */
export function urlProblem(raw: string, policy: OutboundPolicy = {}): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Enter a full address starting with https://.";
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowHttp))
    return policy.allowHttp
      ? "The address must start with https:// or http://."
      : "The address must start with https://.";
  if (url.username || url.password) return "The address must not contain a user name or password.";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !policy.allowPrivate && !isPublicAddress(host)) return NOT_PUBLIC;
  if (!policy.allowPrivate && (host === "localhost" || host.endsWith(".localhost"))) return NOT_PUBLIC;
  return undefined;
}

/**
 * Checks a URL as `urlProblem` does and resolves its host name, refusing a name that resolves to
 * any private address; for the moment a subscription or an import is made.
 */
export async function checkOutboundUrl(
  raw: string,
  policy: OutboundPolicy = {},
): Promise<string | undefined> {
  const problem = urlProblem(raw, policy);
  if (problem || policy.allowPrivate) return problem;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return undefined;
  try {
    const addresses = await dns.promises.lookup(host, { all: true });
    if (addresses.some((a) => !isPublicAddress(a.address))) return NOT_PUBLIC;
  } catch {
    return `The host name ${host} could not be found.`;
  }
  return undefined;
}

/** dns.lookup that fails for non-public addresses: what http(s).request connects through. */
function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      const refused = allowPrivate ? [] : addresses.filter((a) => !isPublicAddress(a.address));
      if (refused.length || !addresses.length) return callback(new OutboundRefused(NOT_PUBLIC), "");
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface OutboundRequest extends OutboundPolicy {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, redirects included, must end within this time. */
  timeoutMs: number;
  /** Stop reading the body after this many bytes… */
  maxBytes: number;
  /** …and keep what was read ("truncate") or fail ("fail", the default). */
  overflow?: "truncate" | "fail";
  /** Redirects to follow (each target checked again); 0 answers the redirect itself. */
  maxRedirects?: number;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body was cut at maxBytes. */
  truncated: boolean;
  /** The URL that answered (after redirects). */
  url: string;
}

function once(url: URL, req: OutboundRequest, signal: AbortSignal): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && !req.allowPrivate && !isPublicAddress(host))
      return reject(new OutboundRefused(NOT_PUBLIC));
    const request = client.request(
      url,
      {
        method: req.method ?? "GET",
        headers: req.headers,
        lookup: guardedLookup(Boolean(req.allowPrivate)),
        signal,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on("data", (chunk: Buffer) => {
          if (truncated) return;
          if (size + chunk.length > req.maxBytes) {
            if (req.overflow !== "truncate") {
              res.destroy();
              return reject(new OutboundRefused(`The file is larger than ${req.maxBytes} bytes.`));
            }
            chunks.push(chunk.subarray(0, req.maxBytes - size));
            size = req.maxBytes;
            truncated = true;
            res.destroy();
            return resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
              truncated,
              url: url.toString(),
            });
          }
          size += chunk.length;
          chunks.push(chunk);
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            truncated,
            url: url.toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(req.body);
  });
}

/**
 * Makes the request under the policy: refuses a URL of the wrong kind or an address that is not
 * public (OutboundRefused), follows at most `maxRedirects`, and gives up after `timeoutMs`.
 */
export async function outboundRequest(raw: string, req: OutboundRequest): Promise<OutboundResponse> {
  const problem = urlProblem(raw, req);
  if (problem) throw new OutboundRefused(problem);
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`No answer within ${req.timeoutMs / 1000} s.`)),
    req.timeoutMs,
  );
  try {
    let url = new URL(raw);
    for (let hop = 0; ; hop++) {
      const res = await once(url, req, controller.signal);
      const location = res.headers.location;
      if (res.status < 300 || res.status >= 400 || !location || hop >= (req.maxRedirects ?? 0)) return res;
      url = new URL(location, url);
      const next = urlProblem(url.toString(), req);
      if (next) throw new OutboundRefused(next);
    }
  } catch (err) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
