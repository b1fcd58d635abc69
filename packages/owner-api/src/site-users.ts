/** GET /api/owner/sites/:siteId/site-users: one account of the site, never its password hash. */
export interface OwnerSiteUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  createdOn: number;
  orderCount: number;
}
