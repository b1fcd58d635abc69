/**
 * Changing an owner's sign-in address: asked for with the password, it takes effect only when
 * the link emailed to the new address is opened (within a day, once); the old address is told.
 */
import { emailInvalidMessage, isValidEmail } from "@atelier/forms";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { accountTokens, accounts } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { ApiError, badRequest, conflict } from "../../http/errors.js";
import { DAY_MS } from "../../lib/clock.js";
import { normalizeEmail } from "../../lib/email.js";
import { hashToken, newToken } from "../../lib/ids.js";
import { useAccountToken, verifyOwnPassword } from "./passwords.js";
import { dashboardUrl, emailChangedNotice, sendSecurityEmail } from "./security-emails.js";
import type { OwnerAccount } from "./service.js";

const MSG_TAKEN = "Another account already uses this email address.";
const MSG_SAME = "That is already the email address of your account.";
export const MSG_EMAIL_LINK_INVALID =
  "This confirmation link does not work: it was used already, replaced by a newer one or is more than a day old. Please ask for a new one.";

async function addressTaken(db: Db | Tx, email: string): Promise<boolean> {
  const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));
  return Boolean(row);
}

/** The address an unconfirmed change would move the account to, if any. */
export async function pendingEmailOf(deps: Deps, accountId: string): Promise<string | null> {
  const [row] = await deps.db
    .select({ newEmail: accountTokens.newEmail })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.accountId, accountId),
        eq(accountTokens.purpose, "email_change"),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, deps.clock.now()),
      ),
    )
    .orderBy(desc(accountTokens.createdAt))
    .limit(1);
  return row?.newEmail ?? null;
}

/** `PUT /api/owner/account/email`: emails a confirmation link to the new address. */
export async function requestEmailChange(
  deps: Deps,
  account: OwnerAccount,
  input: { newEmail: string; password: string },
): Promise<{ pendingEmail: string }> {
  const newEmail = normalizeEmail(input.newEmail);
  if (!isValidEmail(newEmail)) throw badRequest(emailInvalidMessage(), { newEmail: emailInvalidMessage() });
  if (newEmail === account.email) throw badRequest(MSG_SAME, { newEmail: MSG_SAME });
  await verifyOwnPassword(deps, account, input.password, "password");
  if (await addressTaken(deps.db, newEmail)) throw conflict(MSG_TAKEN);
  const token = newToken();
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    // Only the newest link works.
    await tx
      .update(accountTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(accountTokens.accountId, account.id),
          eq(accountTokens.purpose, "email_change"),
          isNull(accountTokens.usedAt),
        ),
      );
    await tx.insert(accountTokens).values({
      tokenHash: hashToken(token),
      accountId: account.id,
      purpose: "email_change",
      newEmail,
      createdAt: now,
      expiresAt: new Date(now.getTime() + DAY_MS),
    });
    await sendSecurityEmail(tx, deps.config, newEmail, {
      subject: "Confirm your new Atelier sign-in address",
      paragraphs: [
        `You asked to sign in to Atelier with ${newEmail} from now on. To confirm this address, open this link within a day:`,
        `Until then your account keeps signing in with ${account.email}. If you did not ask for this, ignore this email.`,
      ],
      link: {
        url: dashboardUrl(deps.config, `/confirm-email?token=${token}`),
        label: "Confirm this address",
      },
    });
  });
  return { pendingEmail: newEmail };
}

/** `POST /api/owner/account/email/confirm`: moves the account to the confirmed address. */
export async function confirmEmailChange(deps: Deps, token: string): Promise<OwnerAccount> {
  return deps.db.transaction(async (tx) => {
    const used = await useAccountToken(tx, deps, token, "email_change");
    if (!used?.newEmail) throw new ApiError(400, "email_token_invalid", MSG_EMAIL_LINK_INVALID);
    if (await addressTaken(tx, used.newEmail)) throw conflict(MSG_TAKEN);
    const [before] = await tx.select().from(accounts).where(eq(accounts.id, used.accountId));
    const [after] = await tx
      .update(accounts)
      .set({ email: used.newEmail })
      .where(eq(accounts.id, used.accountId))
      .returning({ id: accounts.id, email: accounts.email, displayName: accounts.displayName });
    await sendSecurityEmail(tx, deps.config, before!.email, emailChangedNotice(used.newEmail));
    return after!;
  });
}
