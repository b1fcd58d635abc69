/**
 * Backups from the command line (`npm run backup`, `npm run restore`): the same archive as the
 * dashboard's export and import, written to and read from a file.
 */
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { eq, or } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { accounts, websites } from "../../db/schema.js";
import type { MediaStore } from "../../media/store.js";
import { exportSite } from "./export.js";
import { type ImportResult, importArchive } from "./import.js";
import type { Manifest } from "./manifest.js";

/** Writes the archive of a site (by id or address) to `out`. */
export async function backupSite(db: Db, store: MediaStore, site: string, out: string): Promise<Manifest> {
  const [row] = await db
    .select()
    .from(websites)
    .where(or(eq(websites.id, site), eq(websites.identifier, site)));
  if (!row) throw new Error(`No site with the id or address "${site}".`);
  const archive = exportSite(db, store, row);
  await pipeline(archive.stream, createWriteStream(out));
  return archive.done;
}

/** Restores an archive as a new site owned by the account with `ownerEmail` (or the only account). */
export async function restoreSite(
  db: Db,
  store: MediaStore,
  file: string,
  ownerEmail: string | undefined,
  maxUnpackedBytes: number,
): Promise<ImportResult> {
  const list = ownerEmail
    ? await db.select().from(accounts).where(eq(accounts.email, ownerEmail.toLowerCase()))
    : await db.select().from(accounts).limit(2);
  if (list.length !== 1)
    throw new Error(
      ownerEmail
        ? `No owner account with the email ${ownerEmail}.`
        : "Say which owner account gets the site: --owner EMAIL.",
    );
  return importArchive(file, { db, media: store, owner: list[0]!, now: new Date(), maxUnpackedBytes });
}
