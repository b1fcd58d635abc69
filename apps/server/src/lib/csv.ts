/** CSV as RFC 4180 writes it: quoted fields may hold commas, quotes ("") and line breaks. */

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const src = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && src[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ""));
}

/** Rows as objects keyed by the header line, with their line number in the file (header = 1). */
export function csvRecords(text: string): { line: number; get: (name: string) => string }[] {
  const [header = [], ...rows] = parseCsv(text);
  const index = new Map(header.map((h, i) => [h.trim().toLowerCase(), i]));
  return rows.map((r, i) => ({
    line: i + 2,
    get: (name: string) => {
      const at = index.get(name.toLowerCase());
      return at === undefined ? "" : (r[at] ?? "").trim();
    },
  }));
}

export function csvHeader(text: string): string[] {
  return (parseCsv(text.split(/\r?\n/, 1)[0] ?? "")[0] ?? []).map((h) => h.trim());
}

/** One field as written: quoted (its quotes doubled) when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A CSV cell: quoted when needed; cells a spreadsheet would run as a formula are neutralized. */
export function csvCell(value: string): string {
  return csvField(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

export function toCsv(rows: (string | number)[][]): string {
  return rows.map((r) => r.map((v) => csvField(String(v))).join(",")).join("\r\n") + "\r\n";
}
