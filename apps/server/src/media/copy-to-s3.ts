import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { contentTypeOf } from "../modules/media/storage.js";
import type { MediaStore } from "./store.js";

interface CopyReport {
  copied: number;
  skipped: number;
  bytes: number;
}

/** Every file under a folder, as store keys relative to `root` (temporary files left out). */
async function* filesUnder(root: string, dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [];
    throw err;
  });
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(root, full);
    else if (e.isFile() && !e.name.endsWith(".tmp"))
      yield path.relative(root, full).split(path.sep).join("/");
  }
}

/** The folders of DATA_DIR that belong to the media store. */
const STORE_FOLDERS = ["media", "downloads"] as const;

/**
 * Copies DATA_DIR/media (originals and variants) and DATA_DIR/downloads (digital products'
 * files) to another store under the same keys. Files the
 * store already holds with the same size are skipped, so running it again copies only what is new.
 */
export async function copyLocalMedia(
  dataDir: string,
  store: MediaStore,
  onFile?: (key: string, copied: boolean) => void,
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, skipped: 0, bytes: 0 };
  for (const folder of STORE_FOLDERS) {
    for await (const key of filesUnder(dataDir, path.join(dataDir, folder))) {
      const bytes = await readFile(path.join(dataDir, key));
      if ((await store.size(key)) === bytes.length) {
        report.skipped++;
        onFile?.(key, false);
        continue;
      }
      await store.put(key, bytes, contentTypeOf(key));
      report.copied++;
      report.bytes += bytes.length;
      onFile?.(key, true);
    }
  }
  return report;
}
