/** Reading an archive: the zip's entries by name, and an entry as lines with its checksum. */
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import yauzl from "yauzl";
import { ApiError } from "../../http/errors.js";

export interface OpenedZip {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
  close(): void;
}

export const invalidArchive = (message: string) =>
  new ApiError(400, "invalid_archive", message, { file: message });

export async function openZip(file: string): Promise<OpenedZip> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  } catch {
    throw invalidArchive(
      "The file is not a site archive: it is not a complete zip file (damaged or truncated?).",
    );
  }
  const entries = new Map<string, yauzl.Entry>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on("entry", (entry: yauzl.Entry) => {
        entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on("end", resolve);
      zip.on("error", reject);
      zip.readEntry();
    });
  } catch {
    zip.close();
    throw invalidArchive("The archive is damaged: its list of files cannot be read.");
  }
  return { zip, entries, close: () => zip.close() };
}

export async function entryStream(opened: OpenedZip, name: string): Promise<Readable> {
  const entry = opened.entries.get(name);
  if (!entry) throw invalidArchive(`The archive is incomplete: ${name} is missing.`);
  try {
    return await opened.zip.openReadStreamPromise(entry);
  } catch {
    throw invalidArchive(`The archive is damaged: ${name} cannot be read.`);
  }
}

/**
 * The lines of an entry, one at a time; when done, `digest()` gives the SHA-256 and size of
 * the bytes read. A damaged or truncated entry is an invalid archive.
 */
export async function* entryLines(
  opened: OpenedZip,
  name: string,
  sum: { sha256?: string; bytes?: number },
): AsyncGenerator<string> {
  const stream = await entryStream(opened, name);
  const hash = createHash("sha256");
  let bytes = 0;
  let rest = "";
  const decoder = new StringDecoder("utf8");
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.length;
      const text = rest + decoder.write(chunk);
      const lines = text.split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) if (line) yield line;
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw invalidArchive(`The archive is damaged: ${name} cannot be read to its end.`);
  }
  rest += decoder.end();
  if (rest) yield rest;
  sum.sha256 = hash.digest("hex");
  sum.bytes = bytes;
}
