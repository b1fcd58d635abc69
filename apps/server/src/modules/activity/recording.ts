/**
 * How the activity log hears of every change made through the owner API, without a call in each
 * handler: the request of an owner call is kept in an AsyncLocalStorage from its validation on, and
 * the app's `db.transaction` writes the request's entry inside the first transaction the call
 * commits, so the entry and the change commit together or not at all. A call that changes
 * something with a single statement and no transaction of its own has that statement run in a
 * transaction with its entry (`db.insert`, `db.update` and `db.delete` are deferred to it), so a
 * statement that fails leaves no entry. A call that writes nothing gets its entry as its answer is
 * sent; an export once its whole archive has been sent. A call that makes a site (created or
 * imported) writes its entry in the transaction that makes it (`recordNewSite`), the new site's id
 * being known only there. A call whose change a job makes later (an import in the background)
 * hands its entry to the job (`handOverEntry`), which writes it in the transaction of the change
 * (`recordingAs`); writes that are not the change (copies made before an import, removed again
 * when it fails) run `unrecorded`. Who, from where and what come from the
 * request: the person or API key the auth step found, the client's address (TRUST_PROXY applies),
 * the user agent, the route (entity type, id and action) and the names of the fields that changed,
 * never values: for what version history keeps (pages, items, products, design, templates, the
 * navigation, the settings) the entity is read before and after the change in the call's
 * transaction and only the fields that differ are named; for the rest, the fields sent.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db, Tx } from "../../db/client.js";
import { WRITES_DEFERRED } from "../../db/compiled.js";
import { type Content, type EntityType, SITE_WIDE, snapshot } from "../history/entities.js";
import { type NewActivity, insertActivity, setActivityEntity } from "./service.js";

const current = new AsyncLocalStorage<FastifyRequest>();
/** Set while writes that are not the call's change run (see `unrecorded`). */
const paused = new AsyncLocalStorage<true>();
/** The entry a job writes for the owner call that queued it (see `recordingAs`). */
const jobEntry = new AsyncLocalStorage<{ entry: NewActivity; done: boolean }>();
interface Recorded {
  /** The entry's id once written (to complete the entity id from the answer). */
  entryId?: number;
  done: boolean;
  /** The entry would name a new entity whose id is in the answer. */
  wantsId: boolean;
  /** A transaction of the call that will write its entry is running. */
  open?: boolean;
  /** The route's handler has started (writes of the auth steps before it are not the change). */
  handling?: boolean;
}
const recorded = new WeakMap<FastifyRequest, Recorded>();

/** Reads that are recorded as changes are: who took a copy of the whole site. */
const RECORDED_READS: Record<string, string> = {
  "/api/owner/sites/:siteId/export": "site.exported",
  "/api/owner/sites/:siteId/exports/:exportId/download": "site.exported",
};
/** Calls that change nothing worth an entry: the panels' tracking events, unsaved drafts. */
const NOT_RECORDED = /\/(panel-events|draft)$/;
/** Owner calls not on a site that make one: the new site's id is in the answer. */
const NEW_SITE_CALLS: Record<string, string> = {
  "POST /api/owner/sites": "site.created",
  "POST /api/owner/sites/import": "site.imported",
};
const VERBS: Record<string, string> = {
  POST: "created",
  PUT: "updated",
  PATCH: "updated",
  DELETE: "deleted",
};
const SITE_PREFIX = /^\/api\/owner\/(sites|websites)\/:(siteId|websiteId)/;
/** Field names never written, even as names of what changed… their values never are. */
const SECRET_FIELD = /password|secret|token|card|cvc|cvv|iban|recovery|otp|code$/i;
const MAX_FIELDS = 40;

const singular = (word: string) =>
  word
    .replace(/ies$/, "y")
    .replace(/(ss|x|ch|sh)es$/, "$1")
    .replace(/([^s])s$/, "$1")
    .replace(/-/g, "_");

/** Entity type, id and action of an owner call, read from its route. */
export function describeCall(
  method: string,
  routeUrl: string,
  params: Record<string, string>,
): { entityType: string; entityId: string | null; action: string } {
  const path = routeUrl.replace(SITE_PREFIX, "");
  const segments = path.split("/").filter(Boolean);
  let last = -1;
  segments.forEach((s, i) => {
    if (s.startsWith(":")) last = i;
  });
  const siteLevel = segments.length === 0;
  let collection = last >= 1 ? segments[last - 1]! : siteLevel ? "site" : segments[0]!;
  // A type named by the path itself (`/trash/:entityType/:id`): its value, else the word before it.
  if (collection.startsWith(":")) collection = params[collection.slice(1)] ?? segments[last - 2] ?? "site";
  const entityType = singular(collection);
  const entityId =
    last >= 0 ? (params[segments[last]!.slice(1)] ?? null) : siteLevel ? (params.siteId ?? null) : null;
  const rest = segments.slice(last >= 0 ? last + 1 : 1).map((s) => s.replace(/-/g, "_"));
  const read = RECORDED_READS[routeUrl];
  const action = read ?? `${entityType}.${rest.length ? rest.join(".") : (VERBS[method] ?? "changed")}`;
  return { entityType, entityId, action };
}

/** The names of the fields a body sends (one level into objects), secrets left out. */
export function fieldNames(body: unknown): string[] {
  if (!body || typeof body !== "object" || Array.isArray(body)) return [];
  const names: string[] = [];
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (SECRET_FIELD.test(key)) continue;
    if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length <= 20) {
      const inner = Object.keys(value).filter((k) => !SECRET_FIELD.test(k));
      if (inner.length) names.push(...inner.map((k) => `${key}.${k}`));
      else names.push(key);
    } else names.push(key);
  }
  return names.slice(0, MAX_FIELDS);
}

/** The types of entities the activity log names, as version history knows them. */
const HISTORY_TYPES: Record<string, EntityType> = {
  page: "page",
  item: "item",
  product: "product",
  template: "template",
  navigation: "navigation",
  design: "design",
  site: "settings",
  setting: "settings",
};
/** Columns that change with every save: not a field the person changed. */
const BOOKKEEPING = /^(updated|modified)(On|At)$|^version$/;

/** The entity of version history an entry is about, when it keeps one of that type. */
function historyRef(entry: NewActivity): { type: EntityType; id: string } | undefined {
  const type = HISTORY_TYPES[entry.entityType];
  if (!type) return;
  if (SITE_WIDE.includes(type)) return { type, id: entry.websiteId };
  return entry.entityId ? { type, id: entry.entityId } : undefined;
}

/**
 * The names of the fields whose values differ between two states of an entity, secrets left out;
 * of the fields `sent` that the state does not hold (a password kept as a hash, a page's place),
 * the names, as nothing tells whether they changed.
 */
export function changedFields(before: Content, after: Content | null, sent: string[] = []): string[] {
  if (!after) return [];
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changed = [...names]
    .filter((k) => !SECRET_FIELD.test(k) && !BOOKKEEPING.test(k))
    .filter((k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null));
  const unseen = sent.filter((f) => !names.has(f.split(".")[0]!) && !changed.includes(f));
  return [...changed, ...unseen].slice(0, MAX_FIELDS);
}

/** The state before the change of what the call changes, read in its transaction (when history keeps it). */
interface Before {
  ref: { type: EntityType; id: string };
  content: Content;
}
async function stateBefore(tx: Tx, request: FastifyRequest): Promise<Before | undefined> {
  if (request.method === "GET" || request.method === "DELETE") return;
  const entry = entryOf(request, siteOf(request));
  const ref = entry && historyRef(entry);
  if (!entry || !ref) return;
  const content = await snapshot(tx, entry.websiteId, ref.type, ref.id);
  return content ? { ref, content } : undefined;
}

/** Who makes the owner call running now (a person or an API key), for the events it records. */
export function requestActor(): { type: "account" | "api_key"; id: string } | undefined {
  const request = current.getStore();
  if (request?.apiKey) return { type: "api_key", id: request.apiKey.keyId };
  if (request?.owner) return { type: "account", id: request.owner.id };
  const job = jobEntry.getStore();
  if (job) return { type: job.entry.actor.type, id: job.entry.actor.id };
  return undefined;
}

/** The site an owner call is about, as its auth step found it or its path names it. */
function siteOf(request: FastifyRequest): string | undefined {
  if (request.site) return request.site.id;
  const { siteId, websiteId } = (request.params ?? {}) as { siteId?: string; websiteId?: string };
  const query = (request.query as { siteId?: unknown } | undefined)?.siteId;
  return siteId ?? websiteId ?? (typeof query === "string" ? query : undefined);
}

/** The entry an owner call makes, if it is one that does (else undefined). */
function entryOf(request: FastifyRequest, websiteId: string | undefined): NewActivity | undefined {
  const config = request.routeOptions.config;
  const url = request.routeOptions.url ?? "";
  if (NOT_RECORDED.test(url) || !url.startsWith("/api/owner/") || !websiteId) return;
  if (request.method === "GET" && !RECORDED_READS[url]) return;
  const actor = request.apiKey
    ? { type: "api_key" as const, id: request.apiKey.keyId, label: request.apiKey.name }
    : request.owner
      ? { type: "account" as const, id: request.owner.id, label: request.owner.email }
      : undefined;
  if (!actor) return;
  const newSite = NEW_SITE_CALLS[`${request.method} ${url}`];
  const described = newSite
    ? { entityType: "site", entityId: websiteId, action: newSite }
    : describeCall(request.method, url, (request.params ?? {}) as Record<string, string>);
  const permission = typeof config.permission === "string" ? config.permission : "";
  const area = permission.includes(".") ? permission.split(".")[0]! : newSite ? "settings" : null;
  const ua = request.headers["user-agent"];
  return {
    websiteId,
    at: request.server.deps.clock.now(),
    actor,
    ip: request.ip ?? null,
    userAgent: typeof ua === "string" ? ua.slice(0, 500) : null,
    area,
    ...described,
    fields: request.method === "DELETE" || request.method === "GET" ? [] : fieldNames(request.body),
  };
}

/**
 * Writes the entry of the call in this transaction, unless the call has one already; with the
 * state `before` the change, the fields named are those whose values the change made differ.
 */
async function recordIn(tx: Db | Tx, request: FastifyRequest, before?: Before): Promise<void> {
  const state = recorded.get(request);
  if (!state || state.done) return;
  const entry = entryOf(request, siteOf(request));
  if (!entry) return;
  state.done = true;
  if (before) {
    const after = await snapshot(tx as Tx, entry.websiteId, before.ref.type, before.ref.id);
    entry.fields = changedFields(before.content, after, entry.fields);
  }
  state.wantsId = entry.entityId === null && request.method === "POST";
  state.entryId = await insertActivity(tx, entry);
}

/**
 * In the transaction of a call that makes a site (POST /api/owner/sites, …/sites/import): writes
 * the call's entry on the new site, so the site and its entry commit together or not at all.
 * Outside an owner call (the command line's restore, a test) there is no one to record.
 */
export async function recordNewSite(tx: Tx, websiteId: string): Promise<void> {
  const request = current.getStore();
  const state = request && recorded.get(request);
  if (!request || !state || state.done || paused.getStore()) return;
  const entry = entryOf(request, websiteId);
  if (!entry) return;
  state.done = true;
  state.entryId = await insertActivity(tx, entry);
}

/** The entry of an owner call as a job's payload carries it (JSON: the time as a string). */
export type HandedEntry = Omit<NewActivity, "at">;

/**
 * In an owner call whose change a job makes later (an import in the background): the entry the
 * call would write, for the job to write in the change's transaction (`recordingAs`); the call
 * itself then writes none, so an import that fails in its job leaves no entry.
 */
export function handOverEntry(): HandedEntry | undefined {
  const request = current.getStore();
  const state = request && recorded.get(request);
  if (!request || !state || state.done) return undefined;
  const entry = entryOf(request, siteOf(request));
  state.done = true;
  if (!entry) return undefined;
  const { at: _at, ...handed } = entry;
  return handed;
}

/**
 * Runs a job's work with the entry handed over by the call that queued it: the first transaction
 * the work commits writes it, at `at` (when the change is made); without an entry, plain `run`.
 */
export function recordingAs<T>(handed: HandedEntry | undefined, at: Date, run: () => Promise<T>): Promise<T> {
  if (!handed) return run();
  return jobEntry.run({ entry: { ...handed, at }, done: false }, run);
}

/** Runs writes that are not the call's change (copies before an import, their removal after it failed). */
export function unrecorded<T>(run: () => Promise<T>): Promise<T> {
  return paused.run(true, run);
}

/** Builder methods that answer at once rather than run the statement. */
const SYNC_METHODS = new Set<PropertyKey>([
  "toSQL",
  "getSQL",
  "prepare",
  "$dynamic",
  "_",
  "getSelectedFields",
]);

/**
 * A statement of `db` (insert, update or delete) made by an owner call that has no entry yet: its
 * builder's calls are kept and run on a transaction when it is awaited, with the call's entry.
 */
function deferredStatement(
  db: Db,
  transaction: Db["transaction"],
  request: FastifyRequest,
  build: (d: Db | Tx) => unknown,
): unknown {
  const chain: [PropertyKey, unknown[]][] = [];
  // Drizzle's builders are replayed by method name, on the transaction instead of `db`.
  const replay = (d: Db | Tx): any => chain.reduce((q: any, [m, a]) => q[m](...a), build(d));
  let running: Promise<unknown> | undefined;
  const run = () => {
    running ??= (async () => {
      const state = recorded.get(request);
      if (!state || state.done || state.open) return replay(db);
      return transaction(async (tx) => {
        state.open = true;
        try {
          const before = await stateBefore(tx, request);
          const result = await replay(tx);
          await recordIn(tx, request, before);
          return result;
        } finally {
          state.open = false;
        }
      });
    })();
    return running;
  };
  const proxy: unknown = new Proxy(
    {},
    {
      get(_target, prop) {
        if (prop === "then")
          return (ok?: (v: unknown) => unknown, fail?: (e: unknown) => unknown) => run().then(ok, fail);
        if (prop === "catch") return (fail: (e: unknown) => unknown) => run().catch(fail);
        if (prop === "finally") return (f: () => void) => run().finally(f);
        if (prop === "execute") return () => run();
        if (typeof prop === "symbol") return undefined;
        if (SYNC_METHODS.has(prop)) return (...args: unknown[]) => replay(db)[prop](...args);
        return (...args: unknown[]) => {
          chain.push([prop, args]);
          return proxy;
        };
      },
    },
  );
  return proxy;
}

/** The id of what a call created, from its JSON answer: `{ <entity>: { id } }` or `{ id }`. */
function createdId(payload: unknown, entityType: string): string | undefined {
  if (typeof payload !== "string" || !payload.startsWith("{")) return;
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    const camel = entityType.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
    const inner = (body[camel] ?? body[entityType]) as { id?: unknown } | undefined;
    const id = inner?.id ?? body.id;
    return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
  } catch {
    return;
  }
}

/**
 * Installs the recording on an app: the request context, the transaction hook on `deps.db`, and
 * the entries written as the answer leaves (calls without a transaction, exports, new sites).
 */
export function installActivityRecording(app: FastifyInstance): void {
  const { db } = app.deps;
  const marked = db as Db & { [WRAPPED]?: true };
  if (!marked[WRAPPED]) {
    marked[WRAPPED] = true;
    const transaction = db.transaction.bind(db) as Db["transaction"];
    db.transaction = ((run: (tx: Tx) => Promise<unknown>, config?: Parameters<Db["transaction"]>[1]) => {
      if (paused.getStore()) return transaction(run as never, config);
      const job = jobEntry.getStore();
      if (job && !job.done)
        return transaction(async (tx) => {
          const result = await run(tx);
          if (!job.done) {
            job.done = true;
            await insertActivity(tx, job.entry);
          }
          return result;
        }, config);
      const request = current.getStore();
      const state = request && recorded.get(request);
      if (!request || !state || state.done || state.open) return transaction(run as never, config);
      return transaction(async (tx) => {
        state.open = true;
        try {
          const before = await stateBefore(tx, request);
          const result = await run(tx);
          await recordIn(tx, request, before);
          return result;
        } finally {
          state.open = false;
        }
      }, config);
    }) as Db["transaction"];
    /** The owner call whose entry a write of `db` made now would be deferred with, if any. */
    const deferringRequest = () => {
      const request = current.getStore();
      const state = request && recorded.get(request);
      if (
        !request ||
        !state?.handling ||
        state.done ||
        state.open ||
        request.method === "GET" ||
        paused.getStore()
      )
        return undefined;
      return entryOf(request, siteOf(request)) ? request : undefined;
    };
    // Compiled statements (db/compiled.ts) ask before taking their shortcut past these builders.
    (db as unknown as Record<symbol, unknown>)[WRITES_DEFERRED] = () => deferringRequest() !== undefined;
    for (const method of ["insert", "update", "delete"] as const) {
      const original = (db[method] as (...args: unknown[]) => unknown).bind(db);
      (db as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        const request = deferringRequest();
        if (!request) return original(...args);
        return deferredStatement(db, transaction, request, (d) =>
          (d[method] as (...a: unknown[]) => unknown).bind(d)(...args),
        );
      };
    }
  }

  // The handler of an owner route says it has started: only its writes are the call's change.
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/owner/")) return;
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      const state = recorded.get(request);
      if (state) state.handling = true;
      return handler.call(this, request, reply);
    };
  });

  app.addHook("preValidation", (request, _reply, done) => {
    if (!request.url.startsWith("/api/owner/") || request.method === "OPTIONS") return done();
    recorded.set(request, { done: false, wantsId: false });
    current.run(request, done);
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const state = recorded.get(request);
    if (!state || reply.statusCode >= 400) return payload;
    const url = request.routeOptions.url ?? "";
    // An export is recorded once the whole archive has gone (onResponse), not as it starts.
    if (RECORDED_READS[url]) return payload;
    // A new site's entry is written with the site, in its transaction (recordNewSite).
    if (NEW_SITE_CALLS[`${request.method} ${url}`]) return payload;
    if (!state.done) {
      await recordIn(db, request);
      return payload;
    }
    if (state.wantsId && state.entryId !== undefined) {
      const entityType = describeCall(request.method, url, {}).entityType;
      const id = createdId(payload, entityType);
      if (id) await setActivityEntity(db, state.entryId, id);
    }
    return payload;
  });

  app.addHook("onResponse", async (request, reply) => {
    const state = recorded.get(request);
    const url = request.routeOptions.url ?? "";
    if (state && !state.done && RECORDED_READS[url] && reply.statusCode < 400 && reply.raw.writableEnded)
      await recordIn(db, request);
    // Work the call leaves behind (a job it wakes) is not the call's change.
    if (state) state.done = true;
  });
}

const WRAPPED = Symbol("activity recording");
