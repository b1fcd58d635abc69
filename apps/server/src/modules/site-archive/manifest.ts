/**
 * The archive's manifest (`manifest.json`, documented in docs/site-archive.md): what the zip holds,
 * with row counts and SHA-256 checksums, so damage is found before anything is written.
 */
import { type Static, Type } from "@sinclair/typebox";

export const ARCHIVE_FORMAT = "atelier-site-archive";
export const ARCHIVE_VERSION = 1;
export const MANIFEST_NAME = "manifest.json";

export const dataFileName = (table: string) => `data/${table}.jsonl`;
export const mediaFileName = (mediaId: string, filename: string) => `media/${mediaId}/${filename}`;
export const downloadFileName = (itemId: string, filename: string) => `downloads/${itemId}/${filename}`;

const Sha256 = Type.String({ pattern: "^[a-f0-9]{64}$" });

export const ManifestSchema = Type.Object({
  format: Type.Literal(ARCHIVE_FORMAT),
  version: Type.Integer({ minimum: 1 }),
  exportedAt: Type.String(),
  generator: Type.String(),
  site: Type.Object({ id: Type.String(), identifier: Type.String(), title: Type.String() }),
  tables: Type.Array(
    Type.Object({
      name: Type.String({ pattern: "^[a-z_][a-z0-9_]*$" }),
      file: Type.String(),
      rows: Type.Integer({ minimum: 0 }),
      bytes: Type.Integer({ minimum: 0 }),
      sha256: Sha256,
      columns: Type.Array(Type.String()),
    }),
  ),
  media: Type.Array(
    Type.Object({
      id: Type.String(),
      file: Type.String(),
      bytes: Type.Integer({ minimum: 0 }),
      sha256: Sha256,
    }),
  ),
  /** Digital products' files: `key` is the store key the product's digitalFile names. */
  downloads: Type.Optional(
    Type.Array(
      Type.Object({
        key: Type.String(),
        file: Type.String(),
        bytes: Type.Integer({ minimum: 0 }),
        sha256: Sha256,
      }),
    ),
  ),
  excluded: Type.Record(Type.String(), Type.String()),
});

export type Manifest = Static<typeof ManifestSchema>;
export type ManifestTable = Manifest["tables"][number];
export type ManifestMedia = Manifest["media"][number];
export type ManifestDownload = NonNullable<Manifest["downloads"]>[number];
