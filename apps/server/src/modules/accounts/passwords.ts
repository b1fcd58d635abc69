/**
 * An owner's password: checking it for a sensitive change, changing it (the other sessions are
 * signed out) and resetting a forgotten one by an emailed link that works once within an hour.
 * Asking for a link answers the same whether the address has an account or not.
 */
import { emailInvalidMessage, isValidEmail } from "@atelier/forms";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { accountTokens, accounts } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { ApiError, badRequest } from "../../http/errors.js";
import { normalizeEmail } from "../../lib/email.js";
import { hashToken, newToken } from "../../lib/ids.js";
import { MIN_PASSWORD_LENGTH, hashPassword, verifyPassword } from "../../lib/passwords.js";
import { countEvent, type Window } from "../forms/rate-limit.js";
import { dashboardUrl, passwordChangedNotice, sendSecurityEmail } from "./security-emails.js";
import { endOtherSessions } from "./sessions.js";
import { checkNotWaiting, clearWrongTries, countWrongTry } from "./sign-in-guard.js";

export const RESET_LINK_MINUTES = 60;
/** Reset emails asked for per client address, and per email address, in an hour. */
export const RESET_LIMIT_PER_IP: Window = { max: 10, windowMs: 3600_000 };
export const RESET_LIMIT_PER_EMAIL: Window = { max: 3, windowMs: 3600_000 };
const MAX_PASSWORD_LENGTH = 200;

export const MSG_WRONG_PASSWORD = "That is not your current password.";
export const MSG_RESET_LINK_INVALID =
  "This password reset link does not work: it was used already or is more than an hour old. Please ask for a new one.";
const MSG_TOO_MANY_RESETS =
  "Too many password reset emails were asked for. Please wait an hour and try again.";

/** The rule a new password must meet, as the message of `field`; throws 400 when it is not met. */
export function checkNewPassword(password: string, field: string): void {
  let message: string | undefined;
  if (password.length < MIN_PASSWORD_LENGTH)
    message = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  else if (password.length > MAX_PASSWORD_LENGTH)
    message = `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (message) throw badRequest(message, { [field]: message });
}

/**
 * Checks the signed-in owner's password before a sensitive change. A wrong one counts as a wrong
 * try of the account (sign-in-guard.ts) and answers 400 with the message at `field`.
 */
export async function verifyOwnPassword(
  deps: Deps,
  account: { id: string; email: string },
  password: string,
  field: string,
): Promise<void> {
  await checkNotWaiting(deps, account.email);
  const [row] = await deps.db
    .select({ passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(eq(accounts.id, account.id));
  if (row && (await verifyPassword(row.passwordHash, password))) return;
  await countWrongTry(deps, account.email);
  throw new ApiError(400, "wrong_password", MSG_WRONG_PASSWORD, { [field]: MSG_WRONG_PASSWORD });
}

/** Sets the password, stops unused reset links and tells the account's email. */
async function setPassword(tx: Tx, deps: Deps, account: { id: string; email: string }, passwordHash: string) {
  await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, account.id));
  await tx
    .update(accountTokens)
    .set({ usedAt: deps.clock.now() })
    .where(
      and(
        eq(accountTokens.accountId, account.id),
        eq(accountTokens.purpose, "password_reset"),
        isNull(accountTokens.usedAt),
      ),
    );
  await sendSecurityEmail(tx, deps.config, account.email, passwordChangedNotice());
}

/** `PUT /api/owner/account/password`: needs the current password; every other session is signed out. */
export async function changePassword(
  deps: Deps,
  account: { id: string; email: string },
  currentSessionId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<{ signedOut: number }> {
  checkNewPassword(input.newPassword, "newPassword");
  await verifyOwnPassword(deps, account, input.currentPassword, "currentPassword");
  const passwordHash = await hashPassword(input.newPassword);
  return deps.db.transaction(async (tx) => {
    await setPassword(tx, deps, account, passwordHash);
    return { signedOut: await endOtherSessions(tx, account.id, currentSessionId) };
  });
}

async function limitResets(deps: Deps, key: string, window: Window) {
  const hit = await countEvent(deps.db, key, window, deps.clock.now());
  if (!hit.allowed) {
    throw new ApiError(429, "rate_limited", MSG_TOO_MANY_RESETS, undefined, {
      retryAfterSeconds: hit.retryAfterSeconds,
    });
  }
}

/**
 * `POST /api/owner/password-reset`: emails a link to choose a new password when the address has
 * an account; nothing otherwise. Limited per client address and per email address.
 */
export async function requestPasswordReset(deps: Deps, email: string, ip: string): Promise<void> {
  await limitResets(deps, `owner:reset:ip:${ip}`, RESET_LIMIT_PER_IP);
  const address = normalizeEmail(email);
  if (!isValidEmail(address)) throw badRequest(emailInvalidMessage(), { email: emailInvalidMessage() });
  await limitResets(deps, `owner:reset:email:${address}`, RESET_LIMIT_PER_EMAIL);
  const [account] = await deps.db.select().from(accounts).where(eq(accounts.email, address));
  if (!account) return;
  const token = newToken();
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.insert(accountTokens).values({
      tokenHash: hashToken(token),
      accountId: account.id,
      purpose: "password_reset",
      createdAt: now,
      expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000),
    });
    await sendSecurityEmail(tx, deps.config, account.email, {
      subject: "Reset your Atelier password",
      paragraphs: [
        `Someone asked to reset the password of your Atelier account. To choose a new password, open this link within ${RESET_LINK_MINUTES} minutes (it works once):`,
        "If it was not you, ignore this email: your password stays as it is.",
      ],
      link: {
        url: dashboardUrl(deps.config, `/reset-password?token=${token}`),
        label: "Choose a new password",
      },
    });
  });
}

/**
 * Uses up a live emailed token of `purpose`; answers its row, or undefined when the token is
 * unknown, used or expired.
 */
export async function useAccountToken(tx: Tx, deps: Deps, token: string, purpose: string) {
  const now = deps.clock.now();
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning({ accountId: accountTokens.accountId, newEmail: accountTokens.newEmail });
  return row;
}

/** `POST /api/owner/password-reset/confirm`: sets the new password; every session of the account ends. */
export async function resetPassword(deps: Deps, token: string, newPassword: string): Promise<void> {
  checkNewPassword(newPassword, "newPassword");
  const passwordHash = await hashPassword(newPassword);
  const email = await deps.db.transaction(async (tx) => {
    const used = await useAccountToken(tx, deps, token, "password_reset");
    if (!used) throw new ApiError(400, "reset_token_invalid", MSG_RESET_LINK_INVALID);
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, used.accountId));
    await setPassword(tx, deps, account!, passwordHash);
    await endOtherSessions(tx, used.accountId);
    return account!.email;
  });
  await clearWrongTries(deps.db, email);
}
