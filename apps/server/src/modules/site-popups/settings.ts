/**
 * The announcement bar and the newsletter pop-up of a site: defaults, the owner's checks (a bad
 * value answers 400 naming its field), storage (one row per site, which bumps the site's content
 * version so cached pages change at once) and the bar's schedule in the site's time zone.
 */
import { isWallTime, zonedTimeToInstant } from "@atelier/commerce";
import { isValidEmail } from "@atelier/forms";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { type StoredAnnouncementBar, type StoredNewsletterPopup, sitePopups } from "../../db/schema.js";
import { throwFieldErrors } from "../../http/errors.js";
import { safeUrl } from "../../lib/sanitize-html.js";

export type AnnouncementBar = StoredAnnouncementBar;
export type NewsletterPopup = StoredNewsletterPopup;

export const BAR_TEXT_MAX = 200;
export const LINK_TEXT_MAX = 60;
export const URL_MAX = 2000;
export const POPUP_TITLE_MAX = 100;
export const POPUP_TEXT_MAX = 500;
export const BUTTON_TEXT_MAX = 40;
export const DELAY_MAX_SECONDS = 600;
export const FREQUENCY_MAX_DAYS = 365;

export const DEFAULT_BAR: AnnouncementBar = {
  enabled: false,
  text: "",
  linkUrl: null,
  linkText: null,
  startsAt: null,
  endsAt: null,
  dismissible: true,
};

export const DEFAULT_POPUP: NewsletterPopup = {
  enabled: false,
  title: "Join our mailing list",
  text: "News, new arrivals and offers, now and then. Unsubscribe at any time.",
  buttonText: "Sign up",
  trigger: { kind: "delay", seconds: 10 },
  frequencyDays: 30,
  doubleOptIn: false,
};

async function rowOf(db: Db | Tx, websiteId: string) {
  const [row] = await db.select().from(sitePopups).where(eq(sitePopups.websiteId, websiteId));
  return row;
}

export async function announcementBarOf(db: Db | Tx, websiteId: string): Promise<AnnouncementBar> {
  return { ...DEFAULT_BAR, ...(await rowOf(db, websiteId))?.announcementBar };
}

export async function newsletterPopupOf(db: Db | Tx, websiteId: string): Promise<NewsletterPopup> {
  return { ...DEFAULT_POPUP, ...(await rowOf(db, websiteId))?.newsletterPopup };
}

/** Both, in one read (what a page needs). */
export async function sitePopupsOf(
  db: Db | Tx,
  websiteId: string,
): Promise<{ bar: AnnouncementBar; popup: NewsletterPopup }> {
  const row = await rowOf(db, websiteId);
  return {
    bar: { ...DEFAULT_BAR, ...row?.announcementBar },
    popup: { ...DEFAULT_POPUP, ...row?.newsletterPopup },
  };
}

const blank = (s: string | null | undefined) => !s?.trim();
const trimmedOrNull = (s: string | null | undefined) => (blank(s) ? null : s!.trim());

/** A link the bar may carry: a path on the site or an http(s) address. */
function linkProblem(url: string): string | undefined {
  if (url.length > URL_MAX) return `At most ${URL_MAX} characters.`;
  if (/^mailto:|^tel:/i.test(url) || isValidEmail(url))
    return "Enter a web address (https://…) or a path on your site (/shop).";
  const safe = safeUrl(url);
  if (!safe || !(safe.startsWith("/") || /^https?:\/\/[^/\s]+/i.test(safe)) || safe.startsWith("//"))
    return "Enter a web address (https://…) or a path on your site (/shop).";
  return undefined;
}

/** Checks the bar an owner sends; answers it tidied (trimmed, empty strings as null). */
export function checkBar(input: AnnouncementBar): AnnouncementBar {
  const fields: Record<string, string> = {};
  const text = input.text.trim();
  if (input.enabled && !text) fields.text = "Enter the announcement's text.";
  else if (text.length > BAR_TEXT_MAX) fields.text = `At most ${BAR_TEXT_MAX} characters.`;
  const linkUrl = trimmedOrNull(input.linkUrl);
  const linkText = trimmedOrNull(input.linkText);
  if (linkUrl) {
    const problem = linkProblem(linkUrl);
    if (problem) fields.linkUrl = problem;
  }
  if (linkText && linkText.length > LINK_TEXT_MAX) fields.linkText = `At most ${LINK_TEXT_MAX} characters.`;
  else if (linkText && !linkUrl) fields.linkUrl = "Enter the address the link opens.";
  const startsAt = trimmedOrNull(input.startsAt);
  const endsAt = trimmedOrNull(input.endsAt);
  if (startsAt && !isWallTime(startsAt))
    fields.startsAt = "Enter the start as a date and a time (YYYY-MM-DDTHH:mm).";
  if (endsAt && !isWallTime(endsAt)) fields.endsAt = "Enter the end as a date and a time (YYYY-MM-DDTHH:mm).";
  else if (startsAt && endsAt && isWallTime(startsAt) && endsAt <= startsAt)
    fields.endsAt = "The end must be after the start.";
  throwFieldErrors(fields);
  return {
    enabled: input.enabled,
    text,
    linkUrl,
    linkText,
    startsAt,
    endsAt,
    dismissible: input.dismissible,
  };
}

const wholeIn = (v: unknown, min: number, max: number) =>
  typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;

/** Checks the pop-up an owner sends; answers it tidied. */
export function checkPopup(input: NewsletterPopup): NewsletterPopup {
  const fields: Record<string, string> = {};
  const title = input.title.trim();
  const text = input.text.trim();
  const buttonText = input.buttonText.trim();
  if (!title) fields.title = "Enter the pop-up's title.";
  else if (title.length > POPUP_TITLE_MAX) fields.title = `At most ${POPUP_TITLE_MAX} characters.`;
  if (text.length > POPUP_TEXT_MAX) fields.text = `At most ${POPUP_TEXT_MAX} characters.`;
  if (!buttonText) fields.buttonText = "Enter the button's text.";
  else if (buttonText.length > BUTTON_TEXT_MAX) fields.buttonText = `At most ${BUTTON_TEXT_MAX} characters.`;
  const trigger = input.trigger;
  if (trigger.kind === "delay" && !wholeIn(trigger.seconds, 0, DELAY_MAX_SECONDS))
    fields["trigger.seconds"] = `Enter a whole number of seconds from 0 to ${DELAY_MAX_SECONDS}.`;
  if (!wholeIn(input.frequencyDays, 1, FREQUENCY_MAX_DAYS))
    fields.frequencyDays = `Enter a whole number of days from 1 to ${FREQUENCY_MAX_DAYS}.`;
  throwFieldErrors(fields);
  return {
    enabled: input.enabled,
    title,
    text,
    buttonText,
    trigger: trigger.kind === "delay" ? { kind: "delay", seconds: trigger.seconds } : { kind: "scroll" },
    frequencyDays: input.frequencyDays,
    doubleOptIn: input.doubleOptIn === true,
  };
}

/** Saves one of the two (in the caller's transaction); the site's pages change with it. */
export async function storePopups(
  tx: Tx,
  websiteId: string,
  patch: { announcementBar?: AnnouncementBar; newsletterPopup?: NewsletterPopup },
  now: Date,
): Promise<void> {
  await tx
    .insert(sitePopups)
    .values({ websiteId, ...patch, updatedAt: now })
    .onConflictDoUpdate({ target: sitePopups.websiteId, set: { ...patch, updatedAt: now } });
}

/**
 * Whether the bar shows at an instant, and the next instant at which that changes (its start or
 * its end still to come), so that a page kept in the cache is rendered again then.
 */
export function barSchedule(
  bar: AnnouncementBar,
  now: Date,
  timeZone: string,
): { live: boolean; changesAt: number | undefined } {
  if (!bar.enabled || !bar.text) return { live: false, changesAt: undefined };
  const t = now.getTime();
  const zone = timeZone || "UTC";
  const start = bar.startsAt ? zonedTimeToInstant(bar.startsAt, zone).getTime() : undefined;
  const end = bar.endsAt ? zonedTimeToInstant(bar.endsAt, zone).getTime() : undefined;
  if (start !== undefined && t < start) return { live: false, changesAt: start };
  if (end !== undefined && t >= end) return { live: false, changesAt: undefined };
  return { live: true, changesAt: end };
}
