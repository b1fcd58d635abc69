/**
 * Scratch databases on a PostgreSQL server: one made for a test file, a benchmark or a cluster
 * run, and dropped (even with connections still open) when it is done.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface ScratchDatabase {
  /** The new database's URL: the admin URL with its name in the path. */
  url: string;
  drop(): Promise<void>;
}

/** Runs one statement on the server at `adminUrl` over a connection of its own. */
async function onServer(adminUrl: string, sql: string, options: pg.ClientConfig = {}): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, ...options });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates a database named `${prefix}_<random>` on the server at `adminUrl` (a URL it may
 * create databases with), empty or a copy of `template`; `options` go to the creating
 * connection (e.g. a connect timeout).
 */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
  options: pg.ClientConfig = {},
  template?: string,
): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await onServer(adminUrl, `create database ${name}${template ? ` template ${template}` : ""}`, options);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(adminUrl, `drop database if exists ${name} with (force)`),
  };
}
