/** A template as GET /api/owner/sites/:siteId/templates lists it (`{ templates }`). */
export interface TemplateSummary {
  name: string;
  /** The site has its own version of it (developer mode). */
  overridden: boolean;
}

/** One template as GET, PUT and DELETE /api/owner/sites/:siteId/templates/:name answer it. */
export interface Template extends TemplateSummary {
  /** What the site renders: its own version, else the theme's. */
  source: string;
  themeSource: string;
}
