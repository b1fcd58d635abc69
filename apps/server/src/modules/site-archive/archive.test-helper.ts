/** Test helpers for site archives: multipart upload of an archive, and HTML/JSON normalising. */
import { createHash } from "node:crypto";
import yauzl from "yauzl";
import yazl from "yazl";
import type { Browser } from "../../../test/harness.js";
import { multipartUpload } from "../../../test/multipart.js";
import type { Manifest } from "./manifest.js";

/** An archive (or an export file of another platform) as the import form uploads it. */
export function multipartFile(bytes: Buffer, filename = "site.atelier.zip", field = "file") {
  return multipartUpload({ bytes, filename, field, contentType: "application/zip" });
}

export async function importFile(owner: Browser, bytes: Buffer, url = "/api/owner/sites/import") {
  return owner.request({ method: "POST", url, ...multipartFile(bytes) });
}

/** Ids, hosts and per-response nonces replaced, so two sites' output can be compared. */
export function normalise(text: string, hosts: string[]): string {
  let out = text;
  for (const h of hosts) out = out.split(h).join("HOST");
  return out
    .replace(/(?<![a-f0-9])[a-f0-9]{24}(?![a-f0-9])/g, "ID")
    .replace(/nonce="[^"]*"/g, 'nonce="N"')
    .replace(/crumb[=:"' ]+[\w-]{10,}/g, "crumb=C");
}

/** Every file of a zip, by name. */
export async function unzipAll(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", async (entry: yauzl.Entry) => {
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      files.set(entry.fileName, Buffer.concat(chunks));
      zip.readEntry();
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return files;
}

export async function zipAll(files: Map<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of files) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Rewrites one data file's rows and, when `fixManifest`, its manifest entry (so only the content is wrong). */
export async function editArchive(
  bytes: Buffer,
  edit: {
    table?: string;
    rows?: (rows: Record<string, unknown>[]) => Record<string, unknown>[];
    manifest?: (m: Manifest) => void;
  },
  fixManifest = true,
): Promise<Buffer> {
  const files = await unzipAll(bytes);
  const manifest = JSON.parse(files.get("manifest.json")!.toString()) as Manifest;
  if (edit.table && edit.rows) {
    const name = `data/${edit.table}.jsonl`;
    const rows = files
      .get(name)!
      .toString()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const out = Buffer.from(
      edit
        .rows(rows)
        .map((r) => `${JSON.stringify(r)}\n`)
        .join(""),
    );
    files.set(name, out);
    const entry = manifest.tables.find((t) => t.name === edit.table)!;
    if (fixManifest) {
      entry.bytes = out.length;
      entry.rows = out.toString().split("\n").filter(Boolean).length;
      entry.sha256 = createHash("sha256").update(out).digest("hex");
    }
  }
  edit.manifest?.(manifest);
  files.set("manifest.json", Buffer.from(JSON.stringify(manifest)));
  return zipAll(files);
}
