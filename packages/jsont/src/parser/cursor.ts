/**
 * The parser's reading position: line/column lookup, syntax errors, and matching within the
 * instruction being parsed (its content between `{` and `}`, [pos, end)).
 */
import type { Loc, TemplateError } from "../ast.js";

export const WORD = /[a-zA-Z][a-zA-Z0-9_-]*/y;
const SEGMENT = "(?:\\d+|[@$]?[a-zA-Z][a-zA-Z0-9_-]*|@)";
export const VARIABLE = new RegExp(`${SEGMENT}(?:\\.${SEGMENT})*`, "y");
export const KEYWORD = /\.([a-zA-Z][a-zA-Z0-9_-]*)(\?)?/y;
export const PREDICATE = /[a-zA-Z][a-zA-Z0-9_-]*\?/y;
export const DEFINITION = /@[a-zA-Z][a-zA-Z0-9_-]*/y;
export const FILE_PATH = /[./a-zA-Z0-9_-]+/y;
const WHITESPACE = /[ \t\n\u000b\f\r]+/y;

export class TagCursor {
  protected readonly src: string;
  private readonly lineStarts: number[] = [0];
  protected readonly errors: TemplateError[] = [];

  // The instruction being parsed: [start, end) is its content between '{' and '}'.
  protected pos = 0;
  protected end = 0;
  protected tagLoc: Loc = { offset: 0, line: 1, column: 1 };

  constructor(src: string) {
    this.src = src;
    for (let i = 0; i < src.length; i++) {
      if (src.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
  }

  loc(offset: number): Loc {
    const ls = this.lineStarts;
    let lo = 0;
    let hi = ls.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ls[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { offset, line: lo + 1, column: offset - ls[lo] + 1 };
  }

  protected error(message: string, loc: Loc = this.tagLoc): void {
    this.errors.push({ kind: "syntax", message, line: loc.line, column: loc.column });
  }

  protected match(re: RegExp): string | null {
    re.lastIndex = this.pos;
    const m = re.exec(this.src);
    if (m === null || re.lastIndex > this.end) {
      // A sticky match may not run past the tag end; retry on the bounded slice.
      if (m !== null) {
        const sub = this.src.slice(this.pos, this.end);
        re.lastIndex = 0;
        const m2 = re.exec(sub);
        if (m2 === null) return null;
        this.pos += m2[0].length;
        return m2[0];
      }
      return null;
    }
    this.pos = re.lastIndex;
    return m[0];
  }

  protected finished(): boolean {
    return this.pos >= this.end;
  }

  protected remainder(): string {
    return this.src.slice(this.pos, this.end);
  }

  protected space(): boolean {
    if (this.pos < this.end && this.src[this.pos] === " ") {
      this.pos++;
      return true;
    }
    return false;
  }

  protected whitespace(): boolean {
    return this.match(WHITESPACE) !== null;
  }

  /** Requires whitespace, recording an error when missing. */
  protected requireWhitespace(what: string): boolean {
    if (this.whitespace()) return true;
    this.error(`whitespace expected after ${what}, found '${this.remainder()}'`);
    return false;
  }

  /**
   * Whitespace after `after`, then `re`: the match, or null with an error (`expected`, then
   * what was found instead) when it is missing.
   */
  protected argument(after: string, re: RegExp, expected: string): string | null {
    if (!this.requireWhitespace(after)) return null;
    const m = this.match(re);
    if (m === null) this.error(`${expected}, found '${this.remainder()}'`);
    return m;
  }

  /** True at the end of the tag; otherwise records "extra characters after `what`". */
  protected endOfTag(what: string): boolean {
    if (this.finished()) return true;
    this.error(`extra characters after ${what}: '${this.remainder()}'`);
    return false;
  }

  protected rawArgs(): string {
    const raw = this.src.slice(this.pos, this.end);
    this.pos = this.end;
    return raw;
  }
}
