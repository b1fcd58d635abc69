/**
 * Reports the page's uncaught script errors to the site (SPEC §7 POST /api/events/RecordJavascriptErrors,
 * SPEC §9 limits): at most 10 events wait in the queue, a batch goes 1000 ms after the last error,
 * at most 20 batches a page, stack traces cut at 5000 characters. The answer is never read and a
 * failed send is dropped: reporting must never cause more errors.
 */
import { CRUMB_COOKIE, readCookie } from "./cookies.js";

export const MAX_BATCHES = 20;
export const MAX_QUEUED = 10;
export const DEBOUNCE_MS = 1000;
export const MAX_STACK = 5000;

export interface ErrorEvent {
  event: string;
  data: string;
  timestamp: number;
}

interface ReporterDeps {
  send(batch: ErrorEvent[]): void;
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export class ErrorReporter {
  private queue: ErrorEvent[] = [];
  private batches = 0;
  private timer: unknown;

  constructor(private readonly deps: ReporterDeps) {}

  /** Queues one error; a full queue or a page past its batches drops it. */
  report(error: { message: string; stack?: string; url?: string; line?: number; column?: number }): void {
    if (this.batches >= MAX_BATCHES || this.queue.length >= MAX_QUEUED) return;
    const data = JSON.stringify({
      message: error.message.slice(0, 1000),
      stack: (error.stack ?? "").slice(0, MAX_STACK),
      url: error.url,
      line: error.line,
      column: error.column,
    });
    this.queue.push({ event: "javascript-error", data, timestamp: this.deps.now() });
    if (this.timer !== undefined) this.deps.clearTimer(this.timer);
    this.timer = this.deps.setTimer(() => this.flush(), DEBOUNCE_MS);
  }

  flush(): void {
    this.timer = undefined;
    if (!this.queue.length || this.batches >= MAX_BATCHES) return;
    const batch = this.queue;
    this.queue = [];
    this.batches++;
    this.deps.send(batch);
  }
}

/** Installs the reporter on `window` for the published page. */
export function installErrorReporter(): void {
  const reporter = new ErrorReporter({
    send: (batch) => {
      fetch("/api/events/RecordJavascriptErrors", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": readCookie(CRUMB_COOKIE) ?? "" },
        body: JSON.stringify(batch),
        credentials: "same-origin",
        keepalive: true,
      }).catch(() => {});
    },
    now: () => Date.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  });
  window.addEventListener("error", (e) => {
    reporter.report({
      message: e.message || String(e.error ?? "Script error"),
      stack: e.error instanceof Error ? e.error.stack : undefined,
      url: e.filename || location.href,
      line: e.lineno,
      column: e.colno,
    });
  });
  window.addEventListener("unhandledrejection", (e) => {
    const reason = e.reason;
    reporter.report({
      message: reason instanceof Error ? reason.message : `Unhandled rejection: ${String(reason)}`,
      stack: reason instanceof Error ? reason.stack : undefined,
      url: location.href,
    });
  });
}
