import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { type MediaStore, checkKey } from "./store.js";

const missing = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return undefined;
  throw err;
};

/** Files under a folder (DATA_DIR), the default: one machine, or several sharing that folder. */
export function localMediaStore(root: string): MediaStore {
  const file = (key: string) => path.join(root, checkKey(key));
  return {
    kind: "local",
    async put(key, bytes) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      // A temporary name and a rename, so several processes may write the same file at once.
      const tmp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
      await writeFile(tmp, bytes);
      try {
        await rename(tmp, target);
      } catch (err) {
        await unlink(tmp).catch(() => {});
        throw err;
      }
    },
    read: (key) => readFile(file(key)).catch(missing),
    async size(key) {
      const info = await stat(file(key)).catch(missing);
      return info?.isFile() ? info.size : undefined;
    },
    async open(key) {
      const target = file(key);
      const info = await stat(target).catch(missing);
      if (!info?.isFile()) return undefined;
      return { body: createReadStream(target), size: info.size };
    },
    close: async () => {},
  };
}
