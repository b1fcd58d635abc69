/**
 * Test harness: a real app on a real database. PGlite in memory by default; a fresh database
 * on the PostgreSQL server named by TEST_DATABASE_URL when it is set (CI sets it).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { buildApp } from "../src/app.js";
import { type Config, loadConfig } from "../src/config.js";
import { type Database, type Db, openDatabase } from "../src/db/client.js";
import * as s from "../src/db/schema.js";
import type { Clock } from "../src/lib/clock.js";
import { seedDemoIfEmpty } from "../src/seed/demo.js";
import { colorDataOf, completeMedia } from "../src/modules/media/service.js";
import { DEMO_OWNER } from "./fixtures.js";
import { pooledDatabase } from "./database-pool.js";
import { createScratchDatabase } from "./scratch-database.js";
import { postgresTemplateName } from "./template-database.js";

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/**
 * A fresh, empty (migrated) database for one test file: embedded, one of the worker's databases
 * emptied (database-pool.ts); on PostgreSQL a copy of the run's migrated template.
 */
export async function freshDatabase(): Promise<{ database: Database; drop(): Promise<void>; url?: string }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) return { database: await pooledDatabase(), drop: async () => {} };
  const scratch = await createScratchDatabase(admin, "atelier_t", {}, postgresTemplateName());
  const database = await openDatabase({ databaseUrl: scratch.url });
  return { database, ...scratch };
}

/** The colours of an image, worked out once per worker for the same bytes (the demo's artwork is the same in every file). */
const coloursByContent = new Map<string, ReturnType<typeof colorDataOf>>();
function keptColorData(bytes: Buffer, isSvg = false): ReturnType<typeof colorDataOf> {
  const key = `${isSvg} ${createHash("sha256").update(bytes).digest("hex")}`;
  let colours = coloursByContent.get(key);
  if (!colours) {
    colours = colorDataOf(bytes, isSvg);
    coloursByContent.set(key, colours);
    colours.catch(() => coloursByContent.delete(key));
  }
  return colours;
}

/** completeMedia with the colours kept per worker: the fixtures' images get their colour data. */
export function completeTestMedia(db: Db, store: FastifyInstance["deps"]["media"]): Promise<number> {
  return completeMedia(db, store, { colorData: keptColorData });
}

export async function createTestApp(
  opts: { seed?: boolean; clock?: Clock; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-test-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    PUBLIC_URL: "http://localhost",
    ...opts.env,
  });
  const { database, drop } = await freshDatabase();
  const app = await buildApp({ config, database, clock: opts.clock, logger: false });
  if (opts.seed) {
    await seedDemoIfEmpty(database.db, config, opts.clock ?? { now: () => new Date() });
    // The demo's artwork gets its colour data now, not from the app's background start, whose
    // late commit on a loaded machine would change the site's version in the middle of a test.
    await completeTestMedia(database.db, app.deps.media);
  }
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A browser-like client: keeps cookies and sends the crumb back on state-changing calls. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly host = "localhost",
  ) {}

  get crumb(): string | undefined {
    return this.cookies.get("crumb");
  }

  async request(opts: InjectOptions & { withCrumb?: boolean }): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { host: this.host, ...(opts.headers as Record<string, string>) };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const method = (opts.method ?? "GET").toUpperCase();
    if (opts.withCrumb !== false && method !== "GET" && this.crumb) headers["x-csrf-token"] = this.crumb;
    const res = await this.app.inject({ ...opts, headers });
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now()) || c.value === "";
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  /** Visits a page, as a person would before using the site's calls (it sets the crumb). */
  visit(url = "/"): Promise<LightMyRequestResponse> {
    return this.request({ method: "GET", url });
  }
}

export { DEMO_OWNER };

/** Anything that makes a browser's calls (a Browser, or a wrapper that adds headers to them). */
type Requester = Pick<Browser, "request">;

/** Signs in as an owner, the demo's unless told; answers the sign-in response. */
export function signIn(b: Requester, who: { email: string; password: string } = DEMO_OWNER) {
  return b.request({ method: "POST", url: "/api/owner/session", payload: who });
}

/** Signs a new owner account up (and so in); answers the sign-up response. */
export function signUp(b: Requester, email: string) {
  return b.request({
    method: "POST",
    url: "/api/owner/account",
    payload: { email, password: "long enough password" },
  });
}

/** Makes a new site for the signed-in owner; answers the response. */
export function addSite(
  b: Requester,
  site: { title: string; theme: string } = { title: "Eve's Shop", theme: "classic" },
) {
  return b.request({ method: "POST", url: "/api/owner/sites", payload: site });
}

/** A browser that has visited the site (for its crumb), or the given one, signed in as an owner. */
export async function signedInOwner(
  t: TestApp,
  who: { email: string; password: string } = DEMO_OWNER,
  b: Browser = new Browser(t.app),
): Promise<Browser> {
  await b.visit("/");
  const res = await signIn(b, who);
  if (res.statusCode !== 200) throw new Error(`sign-in as ${who.email} answered ${res.statusCode}`);
  return b;
}

/** The demo's owner, logged in (the seeded account), and the demo site's id. */
export async function demoOwner(t: TestApp): Promise<{ owner: Browser; siteId: string }> {
  const owner = await signedInOwner(t);
  const siteId = (await owner.request({ url: "/api/owner/sites" })).json().sites[0].id as string;
  return { owner, siteId };
}

/** A fresh seeded app (options as createTestApp's) with the demo owner signed in. */
export async function demoApp(
  opts: Parameters<typeof createTestApp>[0] = {},
): Promise<{ t: TestApp; owner: Browser; siteId: string }> {
  const t = await createTestApp({ seed: true, ...opts });
  return { t, ...(await demoOwner(t)) };
}

/** A new owner account, signed in on a new browser (or the given one) that has visited the site. */
export async function signedUpOwner(
  t: TestApp,
  email: string,
  b: Browser = new Browser(t.app),
): Promise<Browser> {
  await b.visit("/");
  const res = await signUp(b, email);
  if (res.statusCode !== 201) throw new Error(`sign-up of ${email} answered ${res.statusCode}`);
  return b;
}

/** A new owner account (signed in on a new browser) with a site of its own. */
export async function ownerWithSite(
  t: TestApp,
  email: string,
  site?: { title: string; theme: string },
): Promise<{ owner: Browser; siteId: string; host: string }> {
  const owner = await signedUpOwner(t, email);
  const res = await addSite(owner, site);
  if (res.statusCode !== 201) throw new Error(`new site of ${email} answered ${res.statusCode}`);
  return { owner, siteId: res.json().site.id, host: new URL(res.json().site.url).host };
}

/** Signs a new site user up on the browser's site; answers the XSRF header its calls carry (SPEC §6). */
export async function siteUserXsrf(b: Browser, email: string): Promise<Record<string, string>> {
  const res = await b.request({
    method: "POST",
    url: "/api/site-users/account",
    payload: { email, password: "a long password", firstName: "Ada", lastName: "Bell" },
  });
  return { "x-xsrf-token": (res.json() as { xsrfToken: string }).xsrfToken };
}

/** Sends every call of the browser from the given address (for per-address rate limits). */
export function fromAddress<B extends Browser>(b: B, remoteAddress: string): B {
  const request = b.request.bind(b);
  b.request = (opts) => request({ remoteAddress, ...opts });
  return b;
}

/** A visitor on the given site (host) who has seen a page (so has the crumb), every call from one address. */
export async function visitorFrom(
  t: TestApp,
  address: string,
  host = "localhost",
  page = "/",
): Promise<Browser> {
  const b = fromAddress(new Browser(t.app, host), address);
  await b.visit(page);
  return b;
}

/** Puts a plain published site with its settings straight into the database (its host: `{identifier}.localhost`). */
export async function insertSite(t: TestApp, site: { id: string; identifier: string; title: string }) {
  const db = t.database.db;
  await db.insert(s.websites).values({
    ...site,
    websiteType: 1,
    siteStatus: 8,
    billingStatus: 3,
    theme: "classic",
  });
  await db.insert(s.websiteSettings).values({ websiteId: site.id });
  await db.insert(s.storeSettings).values({ websiteId: site.id });
}

/** The demo site's row. */
export async function demoSite(db: Db) {
  const [site] = await db.select().from(s.websites).where(eq(s.websites.identifier, "demo"));
  return site!;
}

/** Sends each case's input and expects 400 with its message; a failure shows the input it was for. */
export async function expectRefusals<T>(
  cases: [T, string][],
  send: (input: T) => Promise<LightMyRequestResponse>,
): Promise<void> {
  for (const [input, message] of cases) {
    const res = await send(input);
    expect({ input, status: res.statusCode, message: res.json().error?.message }).toEqual({
      input,
      status: 400,
      message,
    });
  }
}

/**
 * Polls until the expectation holds: on PostgreSQL a change reaches the page cache through a
 * NOTIFY, so a page read right after a write may still be the one cached before it.
 */
export const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 3000, interval: 25 });

/**
 * Connects `host` to a site as a verified domain, as if its DNS records had been checked (the
 * domains tests check them against a DNS server of their own); `primary` makes it the canonical address.
 */
export async function connectVerifiedDomain(db: Db, websiteId: string, host: string, primary = true) {
  await db.transaction(async (tx) => {
    await tx.insert(s.domains).values({
      host,
      websiteId,
      isPrimary: primary,
      status: "verified",
      token: `atelier-verify=test-${host}`,
      verifiedAt: new Date(),
    });
    if (primary) await tx.update(s.websites).set({ primaryHost: host }).where(eq(s.websites.id, websiteId));
  });
}
