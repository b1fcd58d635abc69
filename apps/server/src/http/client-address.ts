/**
 * The client's address. X-Forwarded-For is read only when the connection comes from a proxy the
 * operator names in TRUST_PROXY: a hop count ("1": the peer is a proxy, the address it forwarded
 * is the client) or a comma list of addresses, CIDR ranges and proxy-addr's names (loopback,
 * linklocal, uniquelocal). Unset trusts none: the socket's peer is the client, whatever the
 * request says. Fastify's `request.ip` and the warm-page path both use this one rule.
 */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import proxyAddr from "@fastify/proxy-addr";

/** No proxy, the number of proxy hops in front, or the proxies' addresses and ranges. */
export type TrustProxy = false | number | string[];
/** Whether the hop at `address` (0 = the socket's peer) is a proxy whose forwarded address counts. */
export type ProxyTrust = (address: string, hop: number) => boolean;

const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split("/");
  const family = isIP(address ?? "");
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/** Reads TRUST_PROXY; throws a message naming the bad entry when it is neither a count nor a list. */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? "";
  if (value === "" || value === "0") return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !isAddressOrRange(e));
  if (bad !== undefined || !entries.length) {
    throw new Error(
      `TRUST_PROXY must be a number of proxy hops or a comma list of addresses and CIDR ranges (or loopback, linklocal, uniquelocal), got "${bad ?? value}"`,
    );
  }
  return entries;
}

/** The trust function of a setting, or false when no proxy is trusted. */
export function proxyTrust(setting: TrustProxy): ProxyTrust | false {
  if (setting === false) return false;
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}

/** The client's address of a raw request under the trust (the socket's peer when none). */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust | false): string | undefined {
  return trust ? proxyAddr(req, trust) : req.socket.remoteAddress;
}
