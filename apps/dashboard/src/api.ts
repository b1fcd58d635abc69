import { fractionDigitsOf } from "@atelier/commerce";
import type { BlockTypeDef, FormDefinition, FormField, Layout } from "@atelier/forms";
import { type Permission, apiErrorOf, readJson } from "@atelier/owner-api";

/**
 * The owner API client: JSON in and out, the crumb cookie sent back as X-CSRF-Token on every
 * state change, errors as ApiError with the server's message and per-field messages.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
    readonly code?: string,
  ) {
    super(message);
  }
}

function crumb(): string {
  const m = /(?:^|;\s*)crumb=([^;]+)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]!) : "";
}

/** Called when the owner's session is gone (401): the app sends them to the login screen. */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(fn: () => void) {
  onUnauthorized = fn;
}

export async function api<T = unknown>(
  path: string,
  opts: { method?: string; body?: unknown; form?: FormData; signal?: AbortSignal } = {},
): Promise<T> {
  const method = opts.method ?? (opts.body !== undefined || opts.form ? "POST" : "GET");
  const headers: Record<string, string> = { accept: "application/json" };
  if (method !== "GET") headers["x-csrf-token"] = crumb();
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body, credentials: "same-origin", signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiError(0, "Could not reach the server. Check your connection and try again.");
  }
  const json = await readJson(res);
  if (!res.ok) {
    const e = apiErrorOf(json);
    if (res.status === 401 && !path.endsWith("/api/owner/session")) onUnauthorized();
    throw new ApiError(res.status, e?.message ?? `The server answered ${res.status}.`, e?.fields, e?.code);
  }
  return json as T;
}

/** The refusal of a call the signed-in member's roles do not allow (403 `forbidden`). */
export function isForbidden(err: unknown): boolean {
  return err instanceof ApiError && err.status === 403 && err.code === "forbidden";
}

export const get = <T>(path: string) => api<T>(path);
export const post = <T>(path: string, body: unknown = {}) => api<T>(path, { method: "POST", body });
export const put = <T>(path: string, body: unknown = {}) => api<T>(path, { method: "PUT", body });
export const patch = <T>(path: string, body: unknown = {}) => api<T>(path, { method: "PATCH", body });
export const del = <T>(path: string) => api<T>(path, { method: "DELETE" });

// ─── Shapes of the owner API ──────────────────────────────────────────────────────────────

export interface Account {
  id: string;
  email: string;
  displayName: string;
}

export interface Site {
  id: string;
  identifier: string;
  title: string;
  tagline: string;
  websiteType: number;
  websiteTypeName: string;
  siteStatus: number;
  timeZone: string;
  locale: string;
  theme: string;
  isDefault: boolean;
  createdOn: number;
  domains: { host: string; isPrimary: boolean; status: "pending" | "verified" | "failed" }[];
  url: string;
  /** What the signed-in person is on the site: its Owner, or a member with roles. */
  role: "owner" | "member";
  roles: string[];
  /** The permissions the roles give (all of them for the Owner): what the dashboard shows them. */
  permissions: Permission[];
}

export interface Page {
  id: string;
  kind: string;
  title: string;
  urlSlug: string;
  fullUrl: string;
  description: string;
  ordering: number;
  folderId: string | null;
  folderBehavior: string | null;
  hiddenFromNav: boolean;
  isHome: boolean;
  passwordProtected: boolean;
  seoTitle: string;
  seoDescription: string;
  seoHidden?: boolean;
  options: Record<string, unknown>;
  hasDraft: boolean;
  itemCount: number;
}

export type { Block, FieldDef, Layout, Row } from "@atelier/forms";

/** A block type as the editor's picker lists it: available where the site's plan enables it. */
export interface BlockType extends Omit<BlockTypeDef, "feature"> {
  available: boolean;
}

export interface LayoutAnswer {
  page: Page;
  layout: Layout;
  draft: Layout | null;
  blockCount: number;
}

/** A field as the API sends it; the editor lets its type change, so the type is any name. */
export type FormFieldJson = Omit<FormField, "type"> & { type: string };

/** A form as the owner API sends it: the definition plus where answers go and how many came. */
export interface OwnerForm extends Omit<FormDefinition, "fields"> {
  fields: FormFieldJson[];
  notifyEmail: string | null;
  submissions: number;
}

export interface MediaItem {
  id: string;
  assetUrl: string;
  filename: string;
  title: string;
  contentType: string;
  originalSize: string;
  byteSize?: number;
  mediaFocalPoint?: { x: number; y: number };
  /** Placeholder artwork a starter brought: shown with a "Sample" badge. */
  isSample?: boolean;
}

export const KIND_LABELS: Record<string, string> = {
  page: "Page",
  blog: "Blog",
  events: "Events",
  products: "Store",
  gallery: "Gallery",
  album: "Album",
  folder: "Folder",
};

/** Money in minor units as the owner reads it: 1234 → "12.34" (JPY → "1234"), by the SPEC's table. */
export function centsToText(cents: number, currency = "USD"): string {
  const digits = fractionDigitsOf(currency);
  return (cents / 10 ** digits).toFixed(digits);
}

/** What the owner typed as an amount → minor units; undefined when it is not an amount. */
export function textToCents(text: string, currency = "USD"): number | undefined {
  const digits = fractionDigitsOf(currency);
  const t = text.trim().replace(/,/g, "");
  if (!/^\d+(\.\d*)?$/.test(t)) return undefined;
  const [whole, frac = ""] = t.split(".");
  if (frac.length > digits) return undefined;
  return Number(whole) * 10 ** digits + Number(frac.padEnd(digits, "0") || 0);
}

export function formatCents(cents: number, currency = "USD"): string {
  try {
    const digits = fractionDigitsOf(currency);
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(cents / 10 ** digits);
  } catch {
    return `${centsToText(cents, currency)} ${currency}`;
  }
}

/** What collection items and products share, as the owner API answers them. */
export interface ContentJson {
  id: string;
  title: string;
  urlId: string;
  fullUrl: string;
  status: string;
  body: string;
  excerpt: string;
}

/** `path?name=value&…` with the parameters that have a value (not "", undefined, null or false), in order. */
export function withQuery(path: string, params: Record<string, string | number | false | null | undefined>) {
  const query = Object.entries(params)
    .filter(([, value]) => value !== "" && value !== undefined && value !== null && value !== false)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join("&");
  return query ? `${path}?${query}` : path;
}
