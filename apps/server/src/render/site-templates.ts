/**
 * The template overrides of each site (developer mode), read once per content version: saving or
 * reverting an override bumps the site's version (a trigger), so every process reads them again.
 * A site keeps its compiled templates while its overrides stay the same, whatever else changes.
 * An owner's drafts (the editing frame) are read on every request and never kept.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.js";
import { draftsOf, overridesOf } from "../modules/templates/service.js";
import { type SiteTemplates, newThemeEngine } from "./themes.js";

/** Room for a theme's templates (about 80) and the site's own in one engine's cache. */
const ENGINE_CAPACITY = 200;
/** Sites whose overrides are kept in memory, least recently used dropped first. */
const MAX_SITES = 500;

interface Entry {
  version: number;
  fingerprint: string;
  templates: SiteTemplates | undefined;
}

function fingerprintOf(overrides: Record<string, string>): string {
  const hash = createHash("sha256");
  for (const name of Object.keys(overrides).sort()) hash.update(`${name}\0${overrides[name]}\0`);
  return hash.digest("hex");
}

const newSiteTemplates = (overrides: Record<string, string>): SiteTemplates => ({
  overrides,
  engine: newThemeEngine(ENGINE_CAPACITY),
  partialSets: new Map(),
});

export class SiteTemplateCache {
  private readonly sites = new Map<string, Entry>();
  /** Drafts compile here (one engine for every editing frame, so drafts never touch a site's). */
  private readonly editingEngine = newThemeEngine(ENGINE_CAPACITY);

  /** The site's overrides at `version` (undefined: it has none, the theme renders alone). */
  async published(db: Db, websiteId: string, version: number): Promise<SiteTemplates | undefined> {
    const known = this.sites.get(websiteId);
    if (known && known.version === version) {
      this.sites.delete(websiteId);
      this.sites.set(websiteId, known);
      return known.templates;
    }
    const overrides = await overridesOf(db, websiteId);
    const fingerprint = fingerprintOf(overrides);
    const templates =
      known && known.fingerprint === fingerprint
        ? known.templates
        : Object.keys(overrides).length
          ? newSiteTemplates(overrides)
          : undefined;
    // Never go back to an older version read by a slower request.
    if (!known || known.version <= version) {
      this.sites.delete(websiteId);
      this.sites.set(websiteId, { version, fingerprint, templates });
      if (this.sites.size > MAX_SITES) this.sites.delete(this.sites.keys().next().value as string);
    }
    return templates;
  }

  /** What one owner sees in the editing frame: the site's overrides with that owner's drafts over them. */
  async editing(db: Db, websiteId: string, accountId: string, now: Date): Promise<SiteTemplates | undefined> {
    const [overrides, drafts] = await Promise.all([
      overridesOf(db, websiteId),
      draftsOf(db, websiteId, accountId, now),
    ]);
    const merged = { ...overrides, ...drafts };
    if (!Object.keys(merged).length) return undefined;
    return { overrides: merged, engine: this.editingEngine, partialSets: new Map() };
  }
}
