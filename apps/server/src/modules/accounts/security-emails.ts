/**
 * The emails that keep an owner account safe: a password reset link, the confirmation of a new
 * address, and the notices of a changed password, a changed address, a new device and many wrong
 * passwords. Each has a plain-text and an HTML part, and goes through the outbox.
 */
import type { Config } from "../../config.js";
import type { Db, Tx } from "../../db/client.js";
import { type EmailDocument, platformBrand, renderEmail } from "../email/layout.js";
import { queueEmail } from "../email/service.js";

export interface Notice {
  subject: string;
  /** Paragraphs of the email, in order. */
  paragraphs: string[];
  /** A button-like link after the first paragraph. */
  link?: { url: string; label: string };
}

const SIGNATURE = "— Atelier";

/** A security email's plain text and the document of its HTML. */
export function securityEmail(notice: Notice): { text: string; doc: EmailDocument } {
  const [first, ...rest] = notice.paragraphs;
  const text = [first, notice.link ? notice.link.url : undefined, ...rest, SIGNATURE]
    .filter((p): p is string => p !== undefined)
    .join("\n\n");
  const doc: EmailDocument = {
    blocks: [
      ...(first ? [{ type: "text" as const, text: first }] : []),
      ...(notice.link ? [{ type: "button" as const, text: notice.link.label, url: notice.link.url }] : []),
      ...rest.map((p) => ({ type: "text" as const, text: p })),
      { type: "text", text: SIGNATURE },
    ],
  };
  return { text, doc };
}

/** Queues one security email to `to` (not about any site). */
export function sendSecurityEmail(db: Db | Tx, config: Config, to: string, notice: Notice): Promise<string> {
  const { text, doc } = securityEmail(notice);
  const { html } = renderEmail(platformBrand(config.publicUrl), doc);
  return queueEmail(db, config, {
    websiteId: null,
    to,
    fromName: "Atelier",
    subject: notice.subject,
    text: `${text}\n`,
    html,
  });
}

/** A dashboard address under /config on the public origin. */
export function dashboardUrl(config: Config, pathAndQuery: string): string {
  return `${config.publicUrl}/config${pathAndQuery}`;
}

const IF_NOT_YOU =
  "If this was not you, reset your password at once from the login screen and turn on two-step verification.";

export const passwordChangedNotice = (): Notice => ({
  subject: "Your Atelier password was changed",
  paragraphs: [
    "The password of your Atelier account was just changed, and every other device was signed out.",
    IF_NOT_YOU,
  ],
});

export const newDeviceNotice = (device: string, ip: string, when: Date): Notice => ({
  subject: "New sign-in to your Atelier account",
  paragraphs: [
    `Your Atelier account was just signed in to from a device it had not used before: ${device}, from the address ${ip}, at ${when.toUTCString()}.`,
    "If this was you, there is nothing to do.",
    IF_NOT_YOU,
  ],
});

export const manyWrongPasswordsNotice = (failures: number): Notice => ({
  subject: "Many wrong passwords for your Atelier account",
  paragraphs: [
    `Someone has typed a wrong password for your Atelier account ${failures} times in a row. Each further try now has to wait longer.`,
    "If this was you, you can reset your password from the login screen.",
    "If it was not, your account is still safe while the password is strong: consider turning on two-step verification in Account.",
  ],
});

export const emailChangedNotice = (newEmail: string): Notice => ({
  subject: "Your Atelier sign-in address was changed",
  paragraphs: [`Your Atelier account now signs in with ${newEmail} instead of this address.`, IF_NOT_YOU],
});
