/** A background export of a site (POST/GET /api/owner/sites/:siteId/exports), as its job records it. */
export interface ExportStatus {
  id: string;
  state: "queued" | "running" | "done" | "failed";
  rows: number;
  mediaFiles: number;
  bytes?: number;
  error?: string;
}

/** An export as the owner API answers it: its status, with the download link once it is done. */
export interface ExportJob extends ExportStatus {
  downloadUrl?: string;
}
