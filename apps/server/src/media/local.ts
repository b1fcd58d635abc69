import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readFile, readdir, rename, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { type MediaStore, checkKey } from "./store.js";

const missing = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return undefined;
  throw err;
};

/** A file `put` is still writing (see below): not listed. */
const TEMPORARY = /\.[0-9a-f]{12}\.tmp$/;

/** Files under a folder (DATA_DIR), the default: one machine, or several sharing that folder. */
export function localMediaStore(root: string): MediaStore {
  const base = path.resolve(root);
  const file = (key: string) => path.join(base, checkKey(key));
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
    async delete(key) {
      const target = file(key);
      await unlink(target).catch(missing);
      // Folders left empty go too (all but the key's first, such as `media`), so nothing is left.
      let dir = path.dirname(target);
      while (dir.startsWith(base + path.sep) && path.dirname(dir) !== base) {
        const removed = await rmdir(dir).then(
          () => true,
          () => false,
        );
        if (!removed) break;
        dir = path.dirname(dir);
      }
    },
    async list(prefix) {
      const out: string[] = [];
      const walk = async (dir: string, rel: string): Promise<void> => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(missing);
        for (const e of entries ?? []) {
          const key = rel ? `${rel}/${e.name}` : e.name;
          if (e.isDirectory()) await walk(path.join(dir, e.name), key);
          else if (e.isFile() && key.startsWith(prefix) && !TEMPORARY.test(e.name)) out.push(key);
        }
      };
      // Walk from the prefix's last whole folder: `media/abc/` walks media/abc, `media/ab` walks media.
      const folder = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
      await walk(folder ? path.join(base, checkKey(folder)) : base, folder);
      return out.sort();
    },
    close: async () => {},
  };
}
