/**
 * Imports from other platforms (POST /api/owner/sites/:siteId/imports/wordpress and
 * …/imports/products-csv, GET …/imports/:importId): the line-by-line report and the progress of
 * one that runs in the background.
 */

/** What became of one item (or line) of the file. */
export interface PlatformImportLine {
  line: number;
  status: "imported" | "skipped";
  message: string;
}

/** Files, done, failed and left, while the import copies images from the old site. */
export interface PlatformImportProgress {
  done: number;
  failed: number;
  left: number;
}

export interface PlatformImportReport {
  /** "wxr", "shopify" or "woocommerce". */
  source: string;
  /** The import's name, which its URL mappings' group carries. */
  name: string;
  imported: number;
  skipped: number;
  lines: PlatformImportLine[];
  files: {
    /** Images copied into the media library from the old site's addresses. */
    copied: number;
    /** Each image that was not copied (its link stays), and why. */
    notCopied: { url: string; reason: string }[];
    /** Why no image was fetched at all (copying was not asked for), when that is so. */
    note?: string;
  };
  redirects: {
    /** The URL mappings' group (Settings → URL mappings). */
    group: string;
    added: number;
    /** Old addresses the site already mapped elsewhere (left as they were). */
    alreadyMapped: string[];
    /** Old addresses left out: the site's URL mappings are full. */
    overLimit: string[];
  };
}

export interface PlatformImportStatus {
  importId: string;
  status: "running" | "done" | "failed";
  progress: PlatformImportProgress;
  report: PlatformImportReport | null;
  error?: string;
}
