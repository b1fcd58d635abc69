/** The owner API of version history and the trash, as the dashboard calls it. */
import type { Permission } from "@atelier/owner-api";
import { get, post } from "../../api.js";

export interface VersionActor {
  type: string;
  id: string | null;
  name: string;
}

export interface Version {
  id: string;
  at: string;
  kind: string;
  actor: VersionActor;
  summary: string;
}

export interface VersionPage {
  versions: Version[];
  nextCursor: string | null;
}

export type Content = Record<string, unknown>;

export interface TextPart {
  op: "same" | "added" | "removed";
  text: string;
}

export interface FieldChange {
  path: string;
  change: "added" | "removed" | "changed";
  before?: unknown;
  after?: unknown;
  text?: TextPart[];
}

export interface TrashEntry {
  id: string;
  entityType: string;
  entityId: string;
  title: string;
  url: string;
  deletedAt: string;
  purgeAfter: string;
  deletedBy?: string;
}

const base = (siteId: string) => `/api/owner/sites/${siteId}`;

export const historyKey = (siteId: string, entity: string) => ["history", siteId, entity] as const;

export const listVersions = (siteId: string, entity: string, cursor?: string | null) =>
  get<VersionPage>(
    `${base(siteId)}/history?entity=${encodeURIComponent(entity)}${cursor ? `&cursor=${cursor}` : ""}`,
  );

export const getVersion = (siteId: string, versionId: string) =>
  get<{ version: Version; entity: string; content: Content }>(`${base(siteId)}/history/${versionId}`);

export const compareVersions = (siteId: string, from: string, to?: string) =>
  get<{ from: string; to: string; changes: FieldChange[] }>(
    `${base(siteId)}/history/compare?from=${from}${to ? `&to=${to}` : ""}`,
  );

export const restoreVersion = (siteId: string, versionId: string, publish: boolean) =>
  post<{ version: Version }>(`${base(siteId)}/history/${versionId}/restore`, publish ? { publish } : {});

export const trashKey = (siteId: string) => ["trash", siteId] as const;

export const listTrash = (siteId: string) =>
  get<{ entries: TrashEntry[] }>(`${base(siteId)}/trash`).then((r) => r.entries);

export const restoreFromTrash = (siteId: string, type: string, id: string) =>
  post<{ restored: TrashEntry; notice?: string }>(`${base(siteId)}/trash/${type}/${id}/restore`);

/** The permission restoring or purging a trashed thing of each type needs (its area's write). */
export const TRASH_WRITE: Record<string, Permission> = {
  page: "content.write",
  collection: "content.write",
  item: "content.write",
  media: "content.write",
  product: "products.write",
  form: "forms.write",
};
