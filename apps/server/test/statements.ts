/**
 * Tests' look at the statements a call runs: their names (compiled statements), and a way to
 * change something between a call's reads and one of its statements.
 */
import { vi } from "vitest";
import type { Db } from "../src/db/client.js";

interface PreparedQuery {
  execute: (...args: unknown[]) => Promise<unknown>;
}
type PrepareQuery = (query: unknown, fields: unknown, name: string, ...rest: unknown[]) => PreparedQuery;

/**
 * Runs `run`, and `meanwhile` just before each statement of `db` whose name starts with `prefix`
 * while it runs; answers `run`'s answer and the names of those statements, in order.
 */
export async function beforeStatements<T>(
  db: Db,
  prefix: string,
  meanwhile: () => Promise<void>,
  run: () => Promise<T>,
) {
  const session = (db as unknown as { session: { prepareQuery: PrepareQuery } }).session;
  const prepare = session.prepareQuery.bind(session);
  const names: string[] = [];
  const spy = vi.spyOn(session, "prepareQuery").mockImplementation((query, fields, name, ...rest) => {
    const prepared = prepare(query, fields, name, ...rest);
    if (typeof name !== "string" || !name.startsWith(prefix)) return prepared;
    names.push(name);
    const execute = prepared.execute.bind(prepared);
    prepared.execute = async (...args) => {
      await meanwhile();
      return execute(...args);
    };
    return prepared;
  });
  try {
    return { result: await run(), names };
  } finally {
    spy.mockRestore();
  }
}
