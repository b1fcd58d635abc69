/**
 * The signed links of a campaign's copy: each recipient's token (`<recipient id>.<HMAC>`) names
 * them in the unsubscribe link, the open pixel and the click redirects. A click names a link row
 * of the recipient's own campaign, so the target always comes from the campaign, never from the
 * URL (no open redirect).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { serverSecret } from "../checkout/signing.js";

/** Where the links go on the site's address. */
export const UNSUBSCRIBE_PATH = "/email/unsubscribe/";
export const OPEN_PATH = "/email/open/";
export const CLICK_PATH = "/email/click/";

/** Stands for the recipient's token in a copy rendered once per campaign. */
export const RECIPIENT_TOKEN = "RCPTTOKENxq7";

async function sign(dataDir: string, message: string): Promise<string> {
  return createHmac("sha256", await serverSecret(dataDir))
    .update(message)
    .digest("base64url")
    .slice(0, 27);
}

export async function recipientToken(dataDir: string, recipientId: number): Promise<string> {
  return `${recipientId}.${await sign(dataDir, `campaign-recipient:${recipientId}`)}`;
}

/** The recipient a token names, when its signature holds. */
export async function recipientOfToken(dataDir: string, token: string): Promise<number | undefined> {
  const [id, sig, extra] = token.split(".");
  if (!id || !sig || extra !== undefined || !/^\d{1,12}$/.test(id)) return undefined;
  const expected = Buffer.from(await sign(dataDir, `campaign-recipient:${id}`));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected) ? Number(id) : undefined;
}
