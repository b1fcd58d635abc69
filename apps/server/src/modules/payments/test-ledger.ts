/**
 * Where the test payment provider keeps its ledger: one append-only file of named JSON values
 * (`ledger.jsonl` in its folder), shared by every process pointed at the folder, as one outside
 * payment service would be. Each process keeps the values in memory and reads what others
 * appended before each use.
 *
 * Why one file: creating a file is slow on some disks (about 0.7 ms on the development machine's
 * ext4, against 5 µs to append a line), and a checkout made one per charge. An append of one
 * line is one write: a process killed at any moment leaves whole lines, which the kernel keeps
 * without a flush (the crash this ledger of test payments has to survive; a real provider's
 * ledger is on its own machines). Each line starts and ends with a newline, so a line cut short
 * by a lost machine is read as a line of its own and skipped.
 *
 * Ledgers written before kept one file per value (`charges/<hash>.json`…): those are still read.
 */
import { randomBytes } from "node:crypto";
import {
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  writeSync,
} from "node:fs";
import path from "node:path";

interface LedgerLine {
  /** The value's name, `<kind>/<id>`. */
  n: string;
  v: unknown;
  /** Set on a creation: the creator's mark. The first creation of a name in the file wins. */
  w?: string;
}

const NEWLINE = 0x0a;

export class TestLedger {
  private readonly file: string;
  /** Each name's value, as JSON text (every read answers a fresh copy). */
  private readonly values = new Map<string, string>();
  private readonly creators = new Map<string, string>();
  private offset = 0;
  /** The bytes after the last whole line read. */
  private rest = Buffer.alloc(0);
  private readonly hasOldFiles: boolean;
  /** The file, open to append and read (kept open: a charge reads and writes it several times). */
  private fd: number | undefined;

  constructor(private readonly dir: string) {
    this.file = path.join(dir, "ledger.jsonl");
    this.hasOldFiles = existsSync(path.join(dir, "charges"));
  }

  /** The value named `name`, or undefined. */
  read<T>(name: string): T | undefined {
    this.catchUp();
    const text = this.values.get(name) ?? this.oldFile(name);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  /** Creates `name` with `value` unless it exists; answers whether this call created it. */
  create(name: string, value: unknown): boolean {
    this.catchUp();
    if (this.values.has(name) || this.oldFile(name) !== undefined) return false;
    const mark = randomBytes(8).toString("hex");
    this.append({ n: name, v: value, w: mark });
    // Another process may have created it just before: the first line in the file wins.
    return this.creators.get(name) === mark;
  }

  /** Sets `name` to `value` (the last write wins). */
  write(name: string, value: unknown): void {
    this.append({ n: name, v: value });
  }

  /** Every value whose name starts with `prefix` (`charges/`). */
  list<T>(prefix: string): T[] {
    this.catchUp();
    const names = new Set([...this.values.keys()].filter((n) => n.startsWith(prefix)));
    if (this.hasOldFiles) {
      const kind = prefix.replace(/\/$/, "");
      for (const f of readdirSafe(path.join(this.dir, kind)))
        if (f.endsWith(".json")) names.add(`${kind}/${f.slice(0, -5)}`);
    }
    return [...names].map((n) => this.read<T>(n)!).filter((v) => v !== undefined);
  }

  private append(line: LedgerLine): void {
    writeSync(this.open(true)!, `\n${JSON.stringify(line)}\n`);
    this.catchUp();
  }

  /** The file's descriptor, opened to append (O_APPEND: each write lands whole at the end), created if `create`. */
  private open(create: boolean): number | undefined {
    if (this.fd !== undefined) return this.fd;
    if (!create && !existsSync(this.file)) return undefined;
    try {
      this.fd = openSync(this.file, "a+");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      mkdirSync(this.dir, { recursive: true });
      this.fd = openSync(this.file, "a+");
    }
    return this.fd;
  }

  /** Reads the lines appended since the last read, by this process or another. */
  private catchUp(): void {
    const fd = this.open(false);
    if (fd === undefined) return;
    const size = fstatSync(fd).size;
    if (size <= this.offset) return;
    const fresh = Buffer.alloc(size - this.offset);
    const got = readSync(fd, fresh, 0, fresh.length, this.offset);
    this.offset += got;
    const bytes = Buffer.concat([this.rest, fresh.subarray(0, got)]);
    const end = bytes.lastIndexOf(NEWLINE);
    if (end < 0) {
      this.rest = bytes;
      return;
    }
    this.rest = Buffer.from(bytes.subarray(end + 1));
    for (const text of bytes.toString("utf8", 0, end).split("\n")) if (text) this.apply(text);
  }

  private apply(text: string): void {
    let line: LedgerLine;
    try {
      line = JSON.parse(text) as LedgerLine;
    } catch {
      return;
    }
    if (typeof line?.n !== "string") return;
    if (line.w !== undefined) {
      if (this.values.has(line.n)) return;
      this.creators.set(line.n, line.w);
    }
    this.values.set(line.n, JSON.stringify(line.v));
  }

  /** A value of a ledger written before, one file each. */
  private oldFile(name: string): string | undefined {
    if (!this.hasOldFiles) return undefined;
    try {
      return readFileSync(path.join(this.dir, `${name}.json`), "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
