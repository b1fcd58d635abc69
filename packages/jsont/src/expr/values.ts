/** How expressions read numbers from text, and convert values between number, boolean and string. */
import type { Literal } from "./ops.js";

const isHex = (c: string): boolean =>
  (c >= "0" && c <= "9") || (c >= "a" && c <= "f") || (c >= "A" && c <= "F");

/** The end of the run of hex digits from i (at most up to end). */
export function scanHex(s: string, i: number, end: number): number {
  while (i < end && isHex(s[i])) i++;
  return i;
}

/** Scans a decimal number from i; returns its end, or a negative error code. */
export function scanDecimal(s: string, i: number, len: number): number {
  let dot = false;
  let exp = false;
  let expDigit = false;
  let expSign = false;
  let j = i;
  loop: while (j < len) {
    const c = s[j];
    switch (c) {
      case ".":
        if (dot) return -3;
        if (exp) return -4;
        dot = true;
        break;
      case "e":
      case "E":
        if (exp) break loop;
        exp = true;
        expDigit = true;
        break;
      case "-":
      case "+":
        if (!expDigit || !exp || expSign) break loop;
        expSign = true;
        break;
      default:
        if (c >= "0" && c <= "9") {
          expDigit = false;
          break;
        }
        break loop;
    }
    j++;
  }
  if (expDigit) return -2;
  return j;
}

/** Converts a literal to a number the way the expression engine does. */
export function exprNumber(v: Literal): number {
  switch (typeof v) {
    case "number":
      return v;
    case "boolean":
      return v ? 1 : 0;
    case "string": {
      if (!v) return 0;
      const len = v.length;
      let i = 0;
      if (v[0] === "-" || v[0] === "+") i++;
      if (i === len) return Number.NaN;
      const c = v[i];
      if (c === "0" && (v[i + 1] === "x" || v[i + 1] === "X")) {
        const j = scanHex(v, i + 2, len);
        if (j !== len || j === i + 2) return Number.NaN;
        const n = Number.parseInt(v.slice(i + 2), 16);
        return v[0] === "-" ? -n : n;
      }
      if (c < "0" || c > "9") return Number.NaN;
      const j = scanDecimal(v, i, len);
      return j === len ? Number.parseFloat(v) : Number.NaN;
    }
    default:
      return 0;
  }
}

export function exprBool(v: Literal): boolean {
  switch (typeof v) {
    case "boolean":
      return v;
    case "number":
    case "string":
      return !!v;
    default:
      return false;
  }
}

export function exprString(v: Literal): string {
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "number":
      return String(v);
    case "string":
      return v;
    default:
      return "null";
  }
}
