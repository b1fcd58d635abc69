/** GET /api/owner/sites/:siteId/outbox: the site's emails, newest first. */
export interface OutboxEmail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  createdOn: number;
  sentOn: number | null;
}

/** One page of the outbox and how many emails match in all. */
export interface OutboxPage {
  emails: OutboxEmail[];
  total: number;
}
