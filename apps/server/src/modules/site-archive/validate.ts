/**
 * Validation of an archive before anything is written: the manifest (format, version, schema),
 * then every data file (checksum, row count, known columns, value types, unique keys, every
 * declared reference pointing at a row of the archive), then every media file's checksum.
 */
import { Value } from "@sinclair/typebox/value";
import { ApiError } from "../../http/errors.js";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, MANIFEST_NAME, type Manifest, ManifestSchema } from "./manifest.js";
import { archiveTables, keyOf, valueMatchesColumn } from "./tables.js";
import { type OpenedZip, entryLines, invalidArchive } from "./zip-read.js";
import { valueFailure } from "../../http/validation-messages.js";

const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

export async function readManifest(opened: OpenedZip): Promise<Manifest> {
  const entry = opened.entries.get(MANIFEST_NAME);
  if (!entry) throw invalidArchive("The file is not a site archive: it has no manifest.json.");
  if (entry.uncompressedSize > MANIFEST_MAX_BYTES)
    throw invalidArchive("The archive's manifest is too large.");
  let text = "";
  const sum = {};
  for await (const line of entryLines(opened, MANIFEST_NAME, sum)) text += `${line}\n`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidArchive("The archive's manifest.json is damaged: it is not valid JSON.");
  }
  const head = json as { format?: unknown; version?: unknown };
  if (head?.format !== ARCHIVE_FORMAT)
    throw invalidArchive(`The file is not a site archive: its manifest's format is not "${ARCHIVE_FORMAT}".`);
  if (typeof head.version !== "number" || head.version > ARCHIVE_VERSION || head.version < 1)
    throw new ApiError(
      400,
      "unsupported_version",
      `The archive has format version ${String(head.version)}; this server reads version ${ARCHIVE_VERSION}. Update Atelier to import it.`,
      { file: "Unsupported version" },
    );
  const firstError = Value.Errors(ManifestSchema, json).First();
  if (firstError)
    throw invalidArchive(
      `The archive's manifest.json is damaged: ${valueFailure(firstError.path, firstError.schema)}`,
    );
  const manifest = json as Manifest;
  const known = new Set(archiveTables().map((t) => t.name));
  for (const t of manifest.tables) {
    if (!known.has(t.name))
      throw invalidArchive(`The archive holds a table this server does not know: ${t.name}.`);
  }
  if (!manifest.tables.some((t) => t.name === "websites" && t.rows === 1))
    throw invalidArchive("The archive holds no site: its websites table must have exactly one row.");
  return manifest;
}

/** Primary keys of every table read so far: what references are checked against. */
type KeySets = Map<string, Set<string>>;

/**
 * Reads every data file once, in parent-before-child order, and checks it. Returns the primary
 * keys of each table. `onRow` sees each valid row (the importer collects ids with it).
 */
export async function checkData(
  opened: OpenedZip,
  manifest: Manifest,
  onRow?: (table: string, row: Record<string, unknown>) => void,
): Promise<KeySets> {
  const keys: KeySets = new Map();
  for (const t of archiveTables()) {
    const entry = manifest.tables.find((m) => m.name === t.name);
    const seen = new Set<string>();
    keys.set(t.name, seen);
    if (!entry) continue;
    const columns = new Map(t.columns.map((c) => [c.name, c.column]));
    for (const c of entry.columns)
      if (!columns.has(c))
        throw invalidArchive(`The archive's ${t.name} has a column this server does not know: ${c}.`);
    const sum: { sha256?: string; bytes?: number } = {};
    let count = 0;
    for await (const line of entryLines(opened, entry.file, sum)) {
      count++;
      const where = `${entry.file}, line ${count}`;
      let row: Record<string, unknown>;
      try {
        row = JSON.parse(line);
      } catch {
        throw invalidArchive(`The archive is damaged: ${where} is not valid JSON.`);
      }
      if (!row || typeof row !== "object" || Array.isArray(row))
        throw invalidArchive(`The archive is damaged: ${where} is not a row.`);
      for (const [name, value] of Object.entries(row)) {
        const column = columns.get(name);
        if (!column) throw invalidArchive(`The archive is damaged: ${where} has an unknown column ${name}.`);
        if (!valueMatchesColumn(column, value))
          throw invalidArchive(`The archive is damaged: ${where} has a bad value in ${name}.`);
      }
      const key = keyOf(t, row, "name");
      if (!t.generatedKey && t.primaryKey.length) {
        const names = t.primaryKey.map((c) => c.name).join(", ");
        if (!key.replace(/\u0000/g, ""))
          throw invalidArchive(`The archive is damaged: ${where} has no ${names}.`);
        if (seen.has(key)) throw invalidArchive(`The archive is damaged: ${where} repeats its ${names}.`);
        seen.add(key);
      }
      for (const ref of t.references) {
        const value = row[ref.column];
        if (value === null || value === undefined) continue;
        const parent = archiveTables().find((x) => x.name === ref.table);
        const parentKeys = keys.get(ref.table);
        const byKey = parent?.primaryKey.length === 1 && parent.primaryKey[0]!.name === ref.foreignColumn;
        if (byKey && parentKeys && !parentKeys.has(String(value)))
          throw invalidArchive(
            `The archive is damaged: ${where} refers to ${ref.table} ${String(value)}, which is not in the archive.`,
          );
      }
      onRow?.(t.name, row);
    }
    if (count !== entry.rows)
      throw invalidArchive(
        `The archive is damaged: ${entry.file} has ${count} rows where the manifest says ${entry.rows}.`,
      );
    if (sum.sha256 !== entry.sha256 || sum.bytes !== entry.bytes)
      throw invalidArchive(`The archive is damaged: ${entry.file} does not match its checksum.`);
  }
  const siteId = [...(keys.get("websites") ?? [])][0];
  if (siteId !== manifest.site.id)
    throw invalidArchive("The archive is damaged: its manifest and its websites row name different sites.");
  for (const m of manifest.media)
    if (!keys.get("media")?.has(m.id))
      throw invalidArchive(`The archive is damaged: ${m.file} belongs to no media row.`);
  return keys;
}
