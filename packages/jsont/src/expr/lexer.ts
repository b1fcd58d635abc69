/**
 * The expression tokenizer: numbers, strings, constants, variables and operators, in source
 * order. Unary `+`/`-` and function calls are told apart here, from the token before them.
 */
import { FUNCTIONS } from "./functions.js";
import { type Literal, OPS, type OpDef, Op, type Token, lit } from "./ops.js";
import { splitPath } from "./split-path.js";
import { scanDecimal, scanHex } from "./values.js";

const CONSTANTS: Record<string, Literal> = {
  null: null,
  true: true,
  false: false,
  PI: Math.PI,
  E: Math.E,
  Infinity: Number.POSITIVE_INFINITY,
  NaN: Number.NaN,
};

const VAR_RE = /(?:\d+|(?:[@$])?[a-zA-Z][a-zA-Z0-9_-]*|@)(?:\.(?:\d+|(?:[@$])?[a-zA-Z][a-zA-Z0-9_-]*|@))*/y;

/** Each operator's spelling; where one begins another (`=`, `==`, `===`), the longest wins. */
const OPERATOR_SPELLINGS: [string, OpDef][] = [
  ["===", OPS.SEQ],
  ["!==", OPS.SNEQ],
  ["**", OPS.POW],
  ["==", OPS.EQ],
  ["!=", OPS.NEQ],
  ["<<", OPS.SHL],
  ["<=", OPS.LTEQ],
  [">>", OPS.SHR],
  [">=", OPS.GTEQ],
  ["&&", OPS.LAND],
  ["||", OPS.LOR],
  ["*", OPS.MUL],
  ["/", OPS.DIV],
  ["%", OPS.MOD],
  ["+", OPS.ADD],
  ["-", OPS.SUB],
  ["=", OPS.ASN],
  ["!", OPS.LNOT],
  ["<", OPS.LT],
  [">", OPS.GT],
  ["~", OPS.BNOT],
  ["&", OPS.BAND],
  ["|", OPS.BOR],
  ["^", OPS.BXOR],
  [",", OPS.COMMA],
  [";", OPS.SEMI],
  ["(", OPS.LPRN],
  [")", OPS.RPRN],
];

/** The spellings by their first character, longest first. */
const OPERATORS_BY_CHAR = new Map<string, [string, OpDef][]>();
for (const entry of OPERATOR_SPELLINGS) {
  const list = OPERATORS_BY_CHAR.get(entry[0][0]) ?? [];
  list.push(entry);
  OPERATORS_BY_CHAR.set(entry[0][0], list);
}

const isSpace = (c: string): boolean => c === " " || c === "\n" || c === "\t" || c === "\r" || c === "\u00a0";

/** The tokens of an expression; problems go to `errors` (the tokens are then incomplete). */
export function tokenize(src: string, maxTokens: number, errors: string[]): Token[] {
  const tokens: Token[] = [];

  const push = (tk: Token): void => {
    if (errors.length) return;
    if (tk.t === "op") {
      const id = tk.op.id;
      if (id === Op.SUB || id === Op.ADD) {
        const top = tokens[tokens.length - 1];
        if (!top || (top.t === "op" && top.op.id !== Op.RPRN)) {
          tk = { t: "op", op: id === Op.SUB ? OPS.MINUS : OPS.PLUS };
        }
      } else if (id === Op.LPRN) {
        const top = tokens[tokens.length - 1];
        if (top && top.t === "var" && top.path.length === 1) {
          const name = String(top.path[0]);
          if (FUNCTIONS[name]) {
            tokens[tokens.length - 1] = { t: "call", name };
          } else {
            errors.push(`Invalid function ${name}`);
            return;
          }
        }
      }
    }
    tokens.push(tk);
    if (maxTokens > 0 && tokens.length > maxTokens) {
      errors.push(`Expression exceeds the maximum number of allowed tokens: ${maxTokens}`);
    }
  };

  const len = src.length;
  let i = 0;
  scan: while (i < len && !errors.length) {
    const c0 = src[i];
    if (c0 >= "0" && c0 <= "9") {
      i = scanNumber(src, i, len, push, errors);
      continue;
    }
    if (c0 === '"' || c0 === "'") {
      const j = scanString(src, i + 1, len, c0, push, errors);
      i = j < 0 ? len : j;
      continue;
    }
    if (isSpace(c0)) {
      i++;
      continue;
    }
    const operators = OPERATORS_BY_CHAR.get(c0);
    if (operators) {
      for (const [text, o] of operators) {
        if (src.startsWith(text, i)) {
          push({ t: "op", op: o });
          i += text.length;
          continue scan;
        }
      }
    }
    VAR_RE.lastIndex = i;
    const m = VAR_RE.exec(src);
    if (m) {
      i += m[0].length;
      const path = splitPath(m[0]);
      if (path.length === 1 && typeof path[0] === "string" && Object.hasOwn(CONSTANTS, path[0])) {
        push(lit(CONSTANTS[path[0]]));
      } else {
        push({ t: "var", path });
      }
      continue;
    }
    errors.push(`Unexpected ${charName(c0)} at ${i}: ${JSON.stringify(c0)}`);
    i = len;
  }
  return tokens;
}

/** Scans a hex or decimal number at i (a digit); returns its end, or len after an error. */
function scanNumber(src: string, i: number, len: number, push: (t: Token) => void, errors: string[]): number {
  const c1 = i + 1 < len ? src[i + 1] : "";
  if (src[i] === "0" && (c1 === "x" || c1 === "X")) {
    const j = scanHex(src, i + 2, len);
    if (j === i + 2) {
      errors.push("Expected digits after start of hex number");
      return len;
    }
    push(lit(Number.parseInt(src.slice(i + 2, j), 16)));
    return j;
  }
  const j = scanDecimal(src, i, len);
  if (j < 0) {
    errors.push(
      j === -2
        ? "Expected a digit after exponent in decimal number"
        : j === -3
          ? "Duplicate decimal point in number"
          : "Unexpected decimal point in exponent",
    );
    return len;
  }
  push(lit(Number.parseFloat(src.slice(i, j))));
  return j;
}

function charName(c: string): string {
  switch (c) {
    case "\b":
      return "backspace";
    case "\f":
      return "form feed";
    case "\n":
      return "line feed";
    case "\r":
      return "carriage return";
    case "\t":
      return "tab";
    default:
      return c <= "\u001f" ? "control character" : "character";
  }
}

/** Characters that stand for themselves after a backslash are the default; these are the others. */
const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", f: "\f", r: "\r" };

/** A code point an escape names, or a space for control characters and out-of-range codes. */
const escapedChar = (code: number): string =>
  code <= 0x08 || (code >= 0x0e && code < 0x20) || code > 0x10ffff ? " " : String.fromCodePoint(code);

function scanString(
  s: string,
  i: number,
  len: number,
  quote: string,
  push: (t: Token) => void,
  errors: string[],
): number {
  let out = "";
  while (i < len) {
    const c = s[i];
    if (c === "\\" && i + 1 < len) {
      const e = s[i + 1];
      if (e === "x" || e === "u" || e === "U") {
        const start = i + 2;
        const lim = start + (e === "x" ? 2 : e === "u" ? 4 : 8);
        const k =
          e === "x" ? (lim >= len ? -1 : scanHex(s, start, lim)) : scanHex(s, start, Math.min(lim, len));
        if (k !== lim) {
          errors.push(e === "x" ? "Invalid 2-char hex escape found" : "Invalid unicode escape found");
          return -1;
        }
        out += escapedChar(Number.parseInt(s.slice(start, k), 16));
        i = k;
        continue;
      }
      out += Object.hasOwn(SIMPLE_ESCAPES, e) ? SIMPLE_ESCAPES[e] : e;
      i += 2;
      continue;
    }
    if (c === quote) {
      push(lit(out));
      return i + 1;
    }
    if (c === "\n" || c === "\r") {
      errors.push(`Illegal bare ${charName(c)} character in string literal`);
      return -1;
    }
    out += c;
    i++;
  }
  errors.push("Unterminated string");
  return -1;
}
