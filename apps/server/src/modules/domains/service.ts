/**
 * Custom domains: an owner adds a host name, points it at the operator (an A/AAAA record or a
 * CNAME) and proves it is theirs with a TXT record `_atelier.<host>` holding a token made for
 * the site. A name serves the site only once verified; the first site to verify a name holds it.
 * Pending names are checked again by the job queue for 72 hours. The site's primary verified
 * domain is its canonical address (`websites.primary_host`, read by siteBaseUrl).
 */
import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { and, asc, eq, isNotNull, ne } from "drizzle-orm";
import type { Config } from "../../config.js";
import type { Db, Tx } from "../../db/client.js";
import { domains, websites } from "../../db/schema.js";
import { ApiError, badRequest, notFound } from "../../http/errors.js";
import type { Deps } from "../../http/deps.js";
import { newToken } from "../../lib/ids.js";
import { enqueueJob, registerJobHandler } from "../jobs/service.js";
import { type Website, hostName, isPlatformHost, websiteForHost, wwwCounterpart } from "../sites/service.js";

export type DomainStatus = "pending" | "verified" | "failed";
type DomainRow = typeof domains.$inferSelect;

/** Pending names are checked again by the job queue this long after they were added… */
export const RECHECK_FOR_MS = 72 * 3600_000;
/** …this often. */
export const RECHECK_EVERY_MS = 15 * 60_000;
const CHECK_JOB = "domains.check";

const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

/** "https://Shop.Example.com:443/x" → "shop.example.com". */
export function normalizeHost(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, "")
    .replace(/[/?#].*$/, "")
    .replace(/:\d+$/, "")
    .replace(/\.$/, "");
}

/** Where owners point their names: the configured target and addresses, else PUBLIC_URL's host. */
export function pointing(config: Config): { target?: string; ipv4?: string; ipv6?: string } {
  if (config.domainTarget || config.domainIpv4 || config.domainIpv6)
    return { target: config.domainTarget, ipv4: config.domainIpv4, ipv6: config.domainIpv6 };
  const host = hostName(new URL(config.publicUrl).host).replace(/^\[|\]$/g, "");
  const family = isIP(host);
  if (family === 4) return { ipv4: host };
  if (family === 6) return { ipv6: host };
  return host === "localhost" ? {} : { target: host };
}

export interface DnsRecord {
  type: "A" | "AAAA" | "CNAME" | "TXT";
  name: string;
  value: string;
}

/** The records an owner sets for a name: where it points, and the TXT record that proves it is theirs. */
export function recordsFor(config: Config, host: string, token: string): DnsRecord[] {
  const to = pointing(config);
  const records: DnsRecord[] = [];
  if (to.ipv4) records.push({ type: "A", name: host, value: to.ipv4 });
  if (to.ipv6) records.push({ type: "AAAA", name: host, value: to.ipv6 });
  if (to.target) records.push({ type: "CNAME", name: host, value: to.target });
  records.push({ type: "TXT", name: `_atelier.${host}`, value: token });
  return records;
}

/** A resolver asking DNS_SERVERS ("address[:port]", IPv6 in brackets), else the system's servers. */
export function dnsResolver(config: Config): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (config.dnsServers.length) resolver.setServers(config.dnsServers);
  return resolver;
}

const MISSING = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN"]);

async function lookUp<T>(what: () => Promise<T[]>): Promise<{ values: T[]; failure?: string }> {
  try {
    return { values: await what() };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "an error";
    return { values: [], failure: MISSING.has(code) ? undefined : code };
  }
}

/**
 * Looks a name's records up: the TXT record `_atelier.<host>` must hold `token`, and the name
 * must point at the operator (a CNAME to the target, or an A/AAAA record with its address).
 * Answers undefined when both hold, else the reason in plain words.
 */
export async function checkRecords(
  config: Config,
  resolver: Resolver,
  host: string,
  token: string,
): Promise<string | undefined> {
  const txtName = `_atelier.${host}`;
  const txt = await lookUp(() => resolver.resolveTxt(txtName));
  if (txt.failure) return `The DNS lookup of ${txtName} failed (${txt.failure}); try again in a few minutes.`;
  const values = txt.values.map((chunks) => chunks.join(""));
  if (!values.length) return `There is no TXT record at ${txtName} yet: add one holding ${token}.`;
  if (!values.includes(token))
    return `The TXT record at ${txtName} holds "${values[0]}", not this site's token ${token}.`;

  const to = pointing(config);
  if (!to.target && !to.ipv4 && !to.ipv6) return undefined;
  const [cname, a, aaaa] = await Promise.all([
    lookUp(() => resolver.resolveCname(host)),
    lookUp(() => resolver.resolve4(host)),
    lookUp(() => resolver.resolve6(host)),
  ]);
  const names = cname.values.map((n) => n.toLowerCase().replace(/\.$/, ""));
  if (to.target && names.includes(to.target)) return undefined;
  if (to.ipv4 && a.values.includes(to.ipv4)) return undefined;
  if (to.ipv6 && aaaa.values.map((v) => v.toLowerCase()).includes(to.ipv6)) return undefined;
  const failed = cname.failure ?? a.failure ?? aaaa.failure;
  if (failed && !names.length && !a.values.length && !aaaa.values.length)
    return `The DNS lookup of ${host} failed (${failed}); try again in a few minutes.`;
  const wanted = [
    to.ipv4 && `an A record to ${to.ipv4}`,
    to.ipv6 && `an AAAA record to ${to.ipv6}`,
    to.target && `a CNAME record to ${to.target}`,
  ].filter(Boolean);
  const now = [...names, ...a.values, ...aaaa.values];
  return `${host} does not point to this server: set ${wanted.join(" or ")} (${
    now.length ? `it points to ${now.join(", ")}` : "it has no address records"
  }).`;
}

/** The domains of a site as the owner API shows them. */
export async function listDomains(db: Db | Tx, config: Config, websiteId: string) {
  const [site] = await db.select().from(websites).where(eq(websites.id, websiteId));
  if (!site) throw notFound("No such site.");
  const rows = await db
    .select()
    .from(domains)
    .where(eq(domains.websiteId, websiteId))
    .orderBy(asc(domains.createdAt), asc(domains.host));
  return {
    domains: rows.map((d) => {
      const primary = d.host === site.primaryHost;
      const records = recordsFor(config, d.host, d.token);
      // The paired `www.`/bare name must point here too, to be redirected.
      if (primary && site.redirectWww)
        records.push(...recordsFor(config, wwwCounterpart(d.host), d.token).filter((r) => r.type !== "TXT"));
      return {
        host: d.host,
        status: d.status as DomainStatus,
        records,
        primary,
        verifiedAt: d.verifiedAt?.toISOString() ?? null,
        lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
        error: d.error,
      };
    }),
    redirectWww: site.redirectWww,
  };
}

async function verifiedElsewhere(db: Db | Tx, websiteId: string, host: string): Promise<boolean> {
  const rows = await db
    .select({ host: domains.host })
    .from(domains)
    .where(and(eq(domains.host, host), eq(domains.status, "verified"), ne(domains.websiteId, websiteId)));
  return rows.length > 0;
}

const TAKEN = "That domain is already connected to another site.";

/** Adds a name to a site, pending until its records are verified; checks again from the job queue. */
export async function addDomain(
  deps: Pick<Deps, "db" | "config" | "clock">,
  websiteId: string,
  input: string,
) {
  const { db, config, clock } = deps;
  const host = normalizeHost(input);
  if (isIP(host.replace(/^\[|\]$/g, "")))
    throw badRequest("An IP address cannot be a site's domain: enter a name such as shop.example.com.", {
      host: "An IP address",
    });
  if (!HOST.test(host))
    throw badRequest("Enter a domain name such as shop.example.com.", { host: "Not a domain name" });
  const platform = new URL(config.publicUrl).hostname;
  if (
    isPlatformHost(host) ||
    host === platform ||
    host.endsWith(`.${platform}`) ||
    host.endsWith(".localhost")
  )
    throw badRequest(`${host} is one of the platform's own addresses, not a domain of yours.`, {
      host: "The platform's own domain",
    });
  await db.transaction(async (tx) => {
    if (await verifiedElsewhere(tx, websiteId, host)) throw badRequest(TAKEN, { host: "Taken" });
    const inserted = await tx
      .insert(domains)
      .values({ host, websiteId, token: `atelier-verify=${newToken(16)}`, createdAt: clock.now() })
      .onConflictDoNothing()
      .returning();
    if (!inserted.length)
      throw new ApiError(409, "conflict", "That domain is already on this site.", { host: "Already added" });
    await enqueueJob(
      tx,
      CHECK_JOB,
      { websiteId, host },
      { runAt: new Date(clock.now().getTime() + RECHECK_EVERY_MS) },
    );
  });
  return listDomains(db, config, websiteId);
}

async function domainOf(db: Db | Tx, websiteId: string, host: string): Promise<DomainRow> {
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.websiteId, websiteId), eq(domains.host, normalizeHost(host))));
  if (!row) throw notFound("No such domain on this site.");
  return row;
}

/** Sets the site's primary name (or none) in both places that keep it. */
async function setPrimary(tx: Tx, websiteId: string, host: string | null): Promise<void> {
  await tx.update(domains).set({ isPrimary: false }).where(eq(domains.websiteId, websiteId));
  if (host)
    await tx
      .update(domains)
      .set({ isPrimary: true })
      .where(and(eq(domains.websiteId, websiteId), eq(domains.host, host)));
  await tx.update(websites).set({ primaryHost: host }).where(eq(websites.id, websiteId));
}

/**
 * Looks a name's records up and records the outcome: verified (and primary when the site had
 * none), or the reason; a name still failing 72 hours after it was added is "failed".
 */
export async function verifyDomain(
  deps: Pick<Deps, "db" | "config" | "clock">,
  websiteId: string,
  hostInput: string,
  resolver: Resolver = dnsResolver(deps.config),
): Promise<DomainStatus> {
  const { db, config, clock } = deps;
  const row = await domainOf(db, websiteId, hostInput);
  if (row.status === "verified") return "verified";
  const reason = await checkRecords(config, resolver, row.host, row.token);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [site] = await tx.select().from(websites).where(eq(websites.id, websiteId)).for("update");
    if (!site) throw notFound("No such site.");
    const taken = !reason && (await verifiedElsewhere(tx, websiteId, row.host));
    const error = reason ?? (taken ? TAKEN : null);
    const giveUp = now.getTime() - row.createdAt.getTime() >= RECHECK_FOR_MS;
    const status: DomainStatus = error ? (giveUp ? "failed" : "pending") : "verified";
    const changed = await tx
      .update(domains)
      .set({ status, error, lastCheckedAt: now, ...(error ? {} : { verifiedAt: now }) })
      .where(and(eq(domains.websiteId, websiteId), eq(domains.host, row.host)))
      .returning();
    if (!changed.length) throw notFound("No such domain on this site.");
    if (status === "verified" && !site.primaryHost) await setPrimary(tx, websiteId, row.host);
    return status;
  });
}

/** Makes a verified name the site's canonical address. */
export async function makePrimaryDomain(db: Db, config: Config, websiteId: string, host: string) {
  await db.transaction(async (tx) => {
    const row = await domainOf(tx, websiteId, host);
    if (row.status !== "verified")
      throw badRequest("Only a verified domain can be the primary one: verify it first.", {
        host: "Not verified",
      });
    await setPrimary(tx, websiteId, row.host);
  });
  return listDomains(db, config, websiteId);
}

/** Removes a name; when it was the primary one, the oldest other verified name takes its place. */
export async function removeDomain(db: Db, config: Config, websiteId: string, host: string) {
  await db.transaction(async (tx) => {
    const row = await domainOf(tx, websiteId, host);
    await tx.delete(domains).where(and(eq(domains.websiteId, websiteId), eq(domains.host, row.host)));
    const [site] = await tx.select().from(websites).where(eq(websites.id, websiteId));
    if (site?.primaryHost !== row.host) return;
    const [next] = await tx
      .select({ host: domains.host })
      .from(domains)
      .where(
        and(eq(domains.websiteId, websiteId), eq(domains.status, "verified"), isNotNull(domains.verifiedAt)),
      )
      .orderBy(asc(domains.verifiedAt));
    await setPrimary(tx, websiteId, next?.host ?? null);
  });
  return listDomains(db, config, websiteId);
}

/** Whether the `www.` name and the bare one of the primary domain redirect to it. */
export async function setRedirectWww(db: Db, config: Config, websiteId: string, redirectWww: boolean) {
  await db.transaction(async (tx) => {
    await tx.update(websites).set({ redirectWww }).where(eq(websites.id, websiteId));
  });
  return listDomains(db, config, websiteId);
}

/**
 * Whether the proxy may get a certificate for `name` (Caddy's on-demand TLS `ask`): a verified
 * domain of an existing site (or its paired `www.`/bare name), or the platform's own names
 * (PUBLIC_URL's host and the sites' addresses under it). Never an IP address, nor any other
 * `localhost` name than PUBLIC_URL's own.
 */
export async function tlsAllowed(db: Db, config: Config, name: string): Promise<boolean> {
  const host = normalizeHost(name);
  if (!HOST.test(host) && host !== "localhost") return false;
  if (host === new URL(config.publicUrl).hostname) return true;
  if (host === "localhost" || host.endsWith(".localhost")) return false;
  const site: Website | undefined = await websiteForHost(db, host);
  return site !== undefined;
}

registerJobHandler(CHECK_JOB, async (deps, payload) => {
  const websiteId = String(payload.websiteId);
  const host = String(payload.host);
  const [row] = await deps.db
    .select()
    .from(domains)
    .where(and(eq(domains.websiteId, websiteId), eq(domains.host, host)));
  if (!row || row.status !== "pending") return;
  const status = await verifyDomain(deps, websiteId, host);
  if (status === "pending")
    await enqueueJob(
      deps.db,
      CHECK_JOB,
      { websiteId, host },
      { runAt: new Date(deps.clock.now().getTime() + RECHECK_EVERY_MS) },
    );
});
