/**
 * Statements built once per process instead of once per call. On the cart and checkout paths
 * drizzle's query builder cost more Node CPU than sending the statement did (docs/benchmarks.md),
 * so their hot statements are written with `sql.placeholder(...)` for every value, built on
 * first use, and then only filled in. Each is also a named prepared statement, so PostgreSQL
 * parses and plans it once per connection. The answers are drizzle's own (same row mapping).
 */
import { Param, Placeholder, type SQL, type Table, getTableColumns, is } from "drizzle-orm";
import type { Db, Tx } from "./client.js";
import { rowsOf } from "./rows.js";

type Exec = Db | Tx;
type Values = Record<string, unknown>;

interface Preparable {
  prepare(name: string): { execute(values?: Values): Promise<unknown> };
}

/** Fills one parameter of a built statement from the call's values. */
type Filler = (values: Values) => unknown;

/** What a built statement keeps: its text, how to fill its parameters and how rows map. */
interface Built {
  sql: string;
  /** An insert, update or delete (anything not a plain select). */
  write: boolean;
  params: Filler[];
  fields: unknown;
  joinsNotNullableMap: unknown;
  arrayMode: boolean;
  mapper: unknown;
}

/** The internals of drizzle's prepared query and session that a rebuild-free execute needs. */
interface PreparedInternals {
  queryString: string;
  params: unknown[];
  fields: unknown;
  joinsNotNullableMap?: unknown;
  customResultMapper?: unknown;
  isResponseInArrayMode(): boolean;
  execute(values?: Values): Promise<unknown>;
}
interface SessionInternals {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    name: string | undefined,
    arrayMode: boolean,
    mapper?: unknown,
  ): PreparedInternals & { joinsNotNullableMap?: unknown };
}
interface DialectInternals {
  sqlToQuery(sql: SQL): { sql: string; params: unknown[] };
}

/**
 * Set on a database whose insert, update and delete builders may be wrapped (the activity log's
 * owner calls, modules/activity/recording.ts): answers whether a write made now would be. Then a
 * compiled write runs in a transaction of that database, which writes the call's entry with it.
 */
export const WRITES_DEFERRED = Symbol("atelier.writesDeferred");

/**
 * The database's own builders, without wrappers set on the instance: a statement is built
 * with them (building must not go through a wrapper that would run or record it).
 */
function bareBuilders(exec: Exec): Db {
  const proto = Object.getPrototypeOf(exec) as Record<string, unknown>;
  const bare = Object.create(exec) as Record<string, unknown>;
  for (const method of ["insert", "update", "delete"]) bare[method] = proto[method];
  return bare as unknown as Db;
}

const names = new Set<string>();

function claimName(name: string): void {
  // One text per name: a connection that prepared a name rejects another text under it.
  if (names.has(name)) throw new Error(`compiled statement "${name}" is defined twice`);
  names.add(name);
}

function valueNamed(values: Values, name: string): unknown {
  if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
  return values[name];
}

/**
 * Each parameter's filler, decided once: a constant as built; a placeholder from the values;
 * a placeholder for a column through the column's encoder, except null, which stays SQL NULL
 * (drizzle's own filling would send a JSON column's null as the JSON text 'null').
 */
function fillers(params: unknown[]): Filler[] {
  return params.map((p): Filler => {
    if (is(p, Placeholder)) return (values) => valueNamed(values, p.name);
    if (is(p, Param) && is(p.value, Placeholder)) {
      const { name } = p.value;
      const { encoder } = p;
      return (values) => {
        const value = valueNamed(values, name);
        return value === null || value === undefined ? null : encoder.mapToDriverValue(value);
      };
    }
    return () => p;
  });
}

function run(exec: Exec, name: string, built: Built, values: Values): Promise<unknown> {
  const session = (exec as unknown as { session: SessionInternals }).session;
  const query = session.prepareQuery(
    { sql: built.sql, params: built.params.map((fill) => fill(values)) },
    built.fields,
    name,
    built.arrayMode,
    built.mapper,
  );
  query.joinsNotNullableMap = built.joinsNotNullableMap;
  return query.execute();
}

/**
 * A drizzle query (select, insert, update, delete) built once: `build` uses placeholders for
 * every value, and the returned function runs it on a database or a transaction.
 */
export function compiled<Q extends Preparable>(
  name: string,
  build: (db: Db) => Q,
): (exec: Exec, values?: Values) => ReturnType<ReturnType<Q["prepare"]>["execute"]> {
  claimName(name);
  let built: Built | undefined;
  const execute = async (exec: Exec, values: Values = {}) => {
    if (!built) {
      const q = build(bareBuilders(exec)).prepare(name) as unknown as PreparedInternals;
      built = {
        sql: q.queryString,
        write: !/^\s*select\b/i.test(q.queryString),
        params: fillers(q.params),
        fields: q.fields,
        joinsNotNullableMap: q.joinsNotNullableMap,
        arrayMode: q.isResponseInArrayMode(),
        mapper: q.customResultMapper,
      };
    }
    const deferred = (exec as unknown as Record<symbol, (() => boolean) | undefined>)[WRITES_DEFERRED];
    // The wrapped database writes the owner call's entry in its transactions: run it in one.
    if (built.write && deferred?.()) return (exec as Db).transaction((tx) => run(tx, name, built!, values));
    return run(exec, name, built, values);
  };
  return execute as (exec: Exec, values?: Values) => ReturnType<ReturnType<Q["prepare"]>["execute"]>;
}

/** A raw SQL statement built once; answers its rows (snake_case columns, as PostgreSQL names them). */
export function compiledSql<Row>(
  name: string,
  build: () => SQL,
): (exec: Exec, values?: Values) => Promise<Row[]> {
  claimName(name);
  let built: Built | undefined;
  return async (exec, values = {}) => {
    if (!built) {
      const dialect = (exec as unknown as { dialect: DialectInternals }).dialect;
      const q = dialect.sqlToQuery(build());
      built = {
        sql: q.sql,
        write: true,
        params: fillers(q.params),
        fields: undefined,
        joinsNotNullableMap: undefined,
        arrayMode: false,
        mapper: undefined,
      };
    }
    return rowsOf<Row>(await run(exec, name, built, values));
  };
}

/**
 * A table's row as a compiledSql statement answers it (PostgreSQL's snake_case names), mapped
 * as drizzle maps the table's rows (camelCase keys, each column's own decoding).
 */
export function rowOf<T extends Table>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}
