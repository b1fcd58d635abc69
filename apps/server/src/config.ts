import path from "node:path";
import { type TrustProxy, parseTrustProxy } from "./http/client-address.js";
import type { S3Settings } from "./media/s3.js";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset: embedded PGlite under dataDir. */
  databaseUrl?: string;
  logLevel: string;
  /** The public origin, e.g. https://shop.example.com; defaults to http://localhost:PORT. */
  publicUrl: string;
  demoOwnerEmail: string;
  demoOwnerPassword: string;
  /** Seed the demo site into an empty database. */
  seedDemo: boolean;
  smtpUrl?: string;
  /** EMAIL_RATE_PER_MINUTE: at most this many campaign emails a minute (all processes together). */
  emailRatePerMinute: number;
  stripeSecretKey?: string;
  /** Bearer token that opens GET /metrics; unset, metrics are off. */
  metricsToken?: string;
  /** MEDIA_STORE=s3: media live in this S3-compatible bucket instead of DATA_DIR/media. */
  s3?: S3Settings;
  /** A CDN or public bucket URL that serves media keys; media requests then redirect there. */
  mediaPublicUrl?: string;
  /** The largest site archive an import accepts (bytes, as uploaded). */
  archiveMaxBytes: number;
  /** Rendered pages kept in memory per process, at most this many (least recently used go first)… */
  pageCacheEntries: number;
  /** …and at most this many megabytes of HTML. */
  pageCacheMb: number;
  /** Sites whose site-wide data (pages, settings, redirects, host) a process keeps in memory. */
  siteCacheEntries: number;
  /** WEBHOOKS_ALLOW_HTTP=true: webhook endpoints may be http:// (development only). */
  webhooksAllowHttp: boolean;
  /** WEBHOOKS_ALLOW_PRIVATE=true: webhooks may call loopback and private addresses (tests, private networks). */
  webhooksAllowPrivate: boolean;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For names the client (unset: none, the socket's peer is the client). */
  trustProxy: TrustProxy;
  /**
   * IMPORT_ALLOW_PRIVATE=true: imports may copy files from loopback and private addresses (tests,
   * private networks). Off by default: an import never calls inside the operator's network.
   */
  importAllowPrivate: boolean;
  /** HISTORY_KEEP_ALL_DAYS: every version is kept this many days… */
  historyKeepAllDays: number;
  /** HISTORY_KEEP_DAILY_DAYS: …then one a day until this many days, then none (the current state stays). */
  historyKeepDailyDays: number;
  /** TRASH_DAYS: what the owner deletes stays in the trash this many days. */
  trashDays: number;
  /** What owners point their domains at: a CNAME target and/or the addresses of A and AAAA records. */
  domainTarget?: string;
  domainIpv4?: string;
  domainIpv6?: string;
  /** DNS_SERVERS: the resolvers domain checks ask ("address[:port]", comma-separated); unset, the system's. */
  dnsServers: string[];
}

export const DEFAULT_DEMO_OWNER_EMAIL = "owner@atelier.test";
export const DEFAULT_DEMO_OWNER_PASSWORD = "atelier-demo";

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number.parseInt(env.PORT ?? "3000", 10);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    dataDir: path.resolve(env.DATA_DIR ?? "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    logLevel: env.LOG_LEVEL ?? "info",
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ""),
    demoOwnerEmail: env.DEMO_OWNER_EMAIL ?? DEFAULT_DEMO_OWNER_EMAIL,
    demoOwnerPassword: env.DEMO_OWNER_PASSWORD ?? DEFAULT_DEMO_OWNER_PASSWORD,
    seedDemo: env.SEED_DEMO !== "false",
    smtpUrl: env.SMTP_URL || undefined,
    emailRatePerMinute: positiveInt(env, "EMAIL_RATE_PER_MINUTE", 600),
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    s3: s3Settings(env),
    mediaPublicUrl: env.MEDIA_PUBLIC_URL?.replace(/\/+$/, "") || undefined,
    archiveMaxBytes: positiveInt(env, "ARCHIVE_MAX_BYTES", 4 * 1024 ** 3),
    pageCacheEntries: positiveInt(env, "PAGE_CACHE_ENTRIES", 5000),
    pageCacheMb: positiveInt(env, "PAGE_CACHE_MB", 128),
    siteCacheEntries: positiveInt(env, "SITE_CACHE_ENTRIES", 1000),
    webhooksAllowHttp: flag(env, "WEBHOOKS_ALLOW_HTTP"),
    webhooksAllowPrivate: flag(env, "WEBHOOKS_ALLOW_PRIVATE"),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    importAllowPrivate: flag(env, "IMPORT_ALLOW_PRIVATE"),
    historyKeepAllDays: positiveInt(env, "HISTORY_KEEP_ALL_DAYS", 30),
    historyKeepDailyDays: positiveInt(env, "HISTORY_KEEP_DAILY_DAYS", 365),
    trashDays: positiveInt(env, "TRASH_DAYS", 30),
    domainTarget: env.DOMAIN_TARGET?.trim().toLowerCase().replace(/\.$/, "") || undefined,
    domainIpv4: env.DOMAIN_IPV4?.trim() || undefined,
    domainIpv6: env.DOMAIN_IPV6?.trim().toLowerCase() || undefined,
    dnsServers: (env.DNS_SERVERS ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

/** An on/off setting: "true" or "1" is on, unset, "false" or "0" off; anything else is refused. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name] ?? "";
  if (raw === "true" || raw === "1") return true;
  if (raw === "" || raw === "false" || raw === "0") return false;
  throw new Error(`${name} must be "true" or "false", got "${raw}"`);
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a whole number of at least 1, got "${raw}"`);
  return n;
}

function s3Settings(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const store = env.MEDIA_STORE ?? "local";
  if (store === "local") return undefined;
  if (store !== "s3") throw new Error(`MEDIA_STORE must be "local" or "s3", got "${store}"`);
  if (!env.S3_BUCKET) throw new Error("MEDIA_STORE=s3 needs S3_BUCKET (and usually S3_ENDPOINT, S3_REGION)");
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || "us-east-1",
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === "true" || env.S3_FORCE_PATH_STYLE === "1",
  };
}
