/**
 * A chart of the analytics screens, drawn with uPlot (loaded with these screens only), with its
 * table (read by screen readers while the chart shows, shown instead of it on request) and an
 * "Export CSV" of what it shows.
 */
import { useEffect, useId, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface Column {
  label: string;
  /** The numbers of the column, one per row. */
  values: number[];
  /** How a number shows in the table and the chart's axis (the CSV keeps the plain number). */
  format: (n: number) => string;
}

export interface ChartData {
  /** The label of the first column (the rows' names: days, steps, pages). */
  rowLabel: string;
  rows: string[];
  columns: Column[];
}

const COLOURS = ["#2f5bd3", "#c2410c", "#15803d", "#7e22ce"];

/** A CSV of the table: quoted where needed, plain numbers. */
export function toCsv(data: ChartData): string {
  const cell = (v: string | number) => {
    const s = String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [[data.rowLabel, ...data.columns.map((c) => c.label)].map(cell).join(",")];
  data.rows.forEach((row, i) => {
    lines.push([row, ...data.columns.map((c) => c.values[i] ?? 0)].map(cell).join(","));
  });
  return `${lines.join("\n")}\n`;
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The table of a chart's data. */
export function DataTable({ data, caption, hidden }: { data: ChartData; caption: string; hidden?: boolean }) {
  return (
    <div className={hidden ? "sr-only" : "table-wrap"}>
      <table className="data-table analytics-table">
        <caption className={hidden ? undefined : "sr-only"}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{data.rowLabel}</th>
            {data.columns.map((c) => (
              <th key={c.label} scope="col" className="num">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((row, i) => (
            <tr key={row}>
              <th scope="row">{row}</th>
              {data.columns.map((c) => (
                <td key={c.label} className="num">
                  {c.format(c.values[i] ?? 0)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A time series (rows are YYYY-MM-DD dates) as lines or bars. */
function TimeChart({ data, bars }: { data: ChartData; bars?: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const xs = data.rows.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const format = data.columns[0]?.format ?? String;
    const opts: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height: 220,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      legend: { show: data.columns.length > 1 },
      cursor: { drag: { x: false, y: false } },
      // Each series on a scale of its own (amounts and counts differ), the second on the right.
      scales: {
        x: { time: true },
        ...Object.fromEntries(
          data.columns.map((_c, i) => [
            `s${i}`,
            {
              range: (_u: uPlot, _min: number, max: number) =>
                [0, max > 0 ? max * 1.1 : 1] as uPlot.Range.MinMax,
            },
          ]),
        ),
      },
      axes: [
        { stroke: "#555" },
        { stroke: "#555", scale: "s0", size: 70, values: (_u, ticks) => ticks.map((t) => format(t)) },
        ...(data.columns[1]
          ? [
              {
                stroke: "#555",
                scale: "s1",
                side: 1,
                size: 50,
                grid: { show: false },
                values: (_u: uPlot, ticks: number[]) => ticks.map((t) => data.columns[1]!.format(t)),
              },
            ]
          : []),
      ],
      series: [
        {},
        ...data.columns.map((c, i) => ({
          label: c.label,
          scale: `s${i}`,
          stroke: COLOURS[i % COLOURS.length],
          width: 2,
          fill: bars || i === 0 ? `${COLOURS[i % COLOURS.length]}22` : undefined,
          value: (_u: uPlot, v: number | null) => (v == null ? "" : c.format(v)),
          ...(bars ? { paths: uPlot.paths.bars?.({ size: [0.6, 40] }), points: { show: false } } : {}),
        })),
      ],
    };
    const plot = new uPlot(opts, [xs, ...data.columns.map((c) => c.values)], el);
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(240, el.clientWidth), height: 220 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, bars]);
  return <div className="analytics-plot" ref={host} aria-hidden="true" />;
}

/** Horizontal bars, one a row, for steps and categories (the funnel, sources). */
function BarList({ data }: { data: ChartData }) {
  const column = data.columns[0];
  if (!column) return null;
  const most = Math.max(1, ...column.values);
  return (
    <ul className="analytics-bars" aria-hidden="true">
      {data.rows.map((row, i) => (
        <li key={row}>
          <span className="analytics-bars__label">{row}</span>
          <span className="analytics-bars__track">
            <span
              className="analytics-bars__bar"
              style={{ width: `${((column.values[i] ?? 0) / most) * 100}%` }}
            />
          </span>
          <span className="num">{column.format(column.values[i] ?? 0)}</span>
        </li>
      ))}
    </ul>
  );
}

/** A card with a chart, its table view and its CSV export. */
export function ChartCard({
  title,
  data,
  kind,
  csvName,
  summary,
}: {
  title: string;
  data: ChartData;
  kind: "lines" | "bars" | "list";
  csvName: string;
  summary?: React.ReactNode;
}) {
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  return (
    <section className="card analytics-chart" aria-labelledby={id}>
      <div className="card-head">
        <h2 id={id}>{title}</h2>
        <div className="btn-row">
          <button
            type="button"
            className="btn small"
            aria-pressed={asTable}
            onClick={() => setAsTable(!asTable)}
          >
            {asTable ? "Show chart" : "Show table"}
          </button>
          <button type="button" className="btn small" onClick={() => download(csvName, toCsv(data))}>
            Export CSV
          </button>
        </div>
      </div>
      {summary}
      {data.rows.length === 0 ? (
        <p className="muted">Nothing in this period.</p>
      ) : asTable ? (
        <DataTable data={data} caption={title} />
      ) : (
        <>
          {kind === "list" ? <BarList data={data} /> : <TimeChart data={data} bars={kind === "bars"} />}
          <DataTable data={data} caption={title} hidden />
        </>
      )}
    </section>
  );
}
