/** The announcement bar and the newsletter pop-up (`GET|PUT /api/owner/sites/:siteId/announcement-bar`, `…/newsletter-popup`). */

export interface AnnouncementBar {
  enabled: boolean;
  text: string;
  linkUrl: string | null;
  linkText: string | null;
  /** YYYY-MM-DDTHH:mm in the site's time zone, or null. */
  startsAt: string | null;
  endsAt: string | null;
  dismissible: boolean;
}

export type NewsletterPopupTrigger = { kind: "delay"; seconds: number } | { kind: "scroll" };

export interface NewsletterPopup {
  enabled: boolean;
  title: string;
  text: string;
  buttonText: string;
  trigger: NewsletterPopupTrigger;
  /** Shown at most once per visitor in this many days. */
  frequencyDays: number;
  doubleOptIn: boolean;
}
