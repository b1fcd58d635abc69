/**
 * A WordPress export bundled with its uploads: a zip holding the WXR file and the site's
 * `wp-content/uploads` files. Files are found by the path after `wp-content/uploads/`, else by
 * their file name; each is read only when an attachment asks for it.
 */
import { posix as path } from "node:path";
import type yauzl from "yauzl";
import { badRequest } from "../../http/errors.js";
import { tooLarge } from "./import.js";
import { type OpenedZip, entryStream, invalidArchive, openZip } from "./zip-read.js";

const UPLOADS = "wp-content/uploads/";

export interface BundledFile {
  name: string;
  size: number;
  read(): Promise<Buffer>;
}

export interface WxrBundle {
  xml: string;
  /** The bundled file an attachment URL names, if any. */
  find(url: string): BundledFile | undefined;
  close(): void;
}

/** The path of a URL (decoded) or of an entry name. */
function pathOf(name: string): string {
  try {
    return decodeURIComponent(new URL(name).pathname);
  } catch {
    return name; // not a URL: an entry name
  }
}

/** The path after `wp-content/uploads/`, if there is one. */
function uploadsPath(p: string): string | undefined {
  const at = p.indexOf(UPLOADS);
  return at >= 0 ? p.slice(at + UPLOADS.length) : undefined;
}

async function readAll(opened: OpenedZip, name: string): Promise<Buffer> {
  const stream = await entryStream(opened, name);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  } catch {
    throw invalidArchive(`The bundle is damaged: ${name} cannot be read to its end.`);
  }
  return Buffer.concat(chunks);
}

/** Opens a bundle: exactly one `.xml` file (the WXR export), at most `maxXmlBytes` long. */
export async function openWxrBundle(
  file: string,
  limits: { maxUnpackedBytes: number; maxXmlBytes: number },
): Promise<WxrBundle> {
  const opened = await openZip(file).catch(() => {
    throw invalidArchive("The bundle is not a complete zip file (damaged or truncated?).");
  });
  try {
    let unpacked = 0;
    const byPath = new Map<string, yauzl.Entry>();
    const byName = new Map<string, yauzl.Entry>();
    const xmls: yauzl.Entry[] = [];
    for (const e of opened.entries.values()) {
      unpacked += e.uncompressedSize;
      if (e.fileName.endsWith("/") || e.fileName.startsWith("__MACOSX/")) continue;
      if (/\.xml$/i.test(e.fileName)) {
        xmls.push(e);
        continue;
      }
      const under = uploadsPath(e.fileName);
      if (under) byPath.set(under, e);
      const base = path.basename(e.fileName);
      if (!byName.has(base)) byName.set(base, e);
    }
    if (unpacked > limits.maxUnpackedBytes) throw tooLarge(`${unpacked} bytes unpacked`);
    if (xmls.length !== 1)
      throw badRequest(
        xmls.length
          ? `The zip holds ${xmls.length} .xml files: bundle one WordPress export (.xml) with its uploads.`
          : "The zip holds no WordPress export (.xml): bundle the export with its wp-content/uploads folder.",
        { file: "No single WXR file" },
      );
    const wxr = xmls[0]!;
    if (wxr.uncompressedSize > limits.maxXmlBytes)
      throw tooLarge(`${wxr.fileName} is larger than ${limits.maxXmlBytes} bytes`);
    const xml = (await readAll(opened, wxr.fileName)).toString("utf8");
    const asFile = (e: yauzl.Entry): BundledFile => ({
      name: e.fileName,
      size: e.uncompressedSize,
      read: () => readAll(opened, e.fileName),
    });
    return {
      xml,
      find(url) {
        const p = pathOf(url);
        const under = uploadsPath(p);
        const hit = (under && byPath.get(under)) || byName.get(path.basename(p));
        return hit && asFile(hit);
      },
      close: opened.close,
    };
  } catch (err) {
    opened.close();
    throw err;
  }
}
