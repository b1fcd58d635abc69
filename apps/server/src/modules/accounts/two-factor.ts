/**
 * Two-step verification with an authenticator app (TOTP, RFC 6238, through otplib): set up with
 * a QR code and the secret as text, confirmed by a first code, which also makes 10 single-use
 * recovery codes (shown once, stored as hashes). A code is accepted once: the time step of the
 * last one used is kept, and a code of that step or an earlier one is refused.
 */
import { randomInt } from "node:crypto";
import { and, eq, isNull, or, lt } from "drizzle-orm";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import type { Db, Tx } from "../../db/client.js";
import { accountRecoveryCodes, accountTwoFactor } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { ApiError, badRequest, conflict } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { hashToken } from "../../lib/ids.js";

export const RECOVERY_CODE_COUNT = 10;
const ISSUER = "Atelier";
/** Codes of the step before and after the current one are accepted too (a phone's clock may drift). */
const TOLERANCE_SECONDS = 30;
/** RFC 6238's time step, otplib's default. */
const PERIOD_SECONDS = 30;
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

export const MSG_WRONG_CODE =
  "That code is not right. Type the newest 6-digit code from your authenticator app, or an unused recovery code.";
const MSG_NOT_SET_UP = "Start setting up two-step verification first: there is no code to confirm.";
const MSG_ALREADY_ON = "Two-step verification is already on. Turn it off first to set it up again.";
const MSG_NOT_ON = "Two-step verification is not on.";

export const wrongCode = () => new ApiError(400, "invalid_code", MSG_WRONG_CODE, { code: MSG_WRONG_CODE });

type DbOrTx = Db | Tx;

async function twoFactorRow(db: DbOrTx, accountId: string) {
  const [row] = await db.select().from(accountTwoFactor).where(eq(accountTwoFactor.accountId, accountId));
  return row;
}

/** Whether two-step verification is on for the account. */
export async function twoFactorEnabled(db: DbOrTx, accountId: string): Promise<boolean> {
  return Boolean((await twoFactorRow(db, accountId))?.secret);
}

/** Recovery codes the account has not used yet. */
export async function recoveryCodesLeft(db: DbOrTx, accountId: string): Promise<number> {
  const rows = await db
    .select({ codeHash: accountRecoveryCodes.codeHash })
    .from(accountRecoveryCodes)
    .where(and(eq(accountRecoveryCodes.accountId, accountId), isNull(accountRecoveryCodes.usedAt)));
  return rows.length;
}

/** `POST /api/owner/account/two-factor`: a new secret to scan (kept pending until a code confirms it). */
export async function startTwoFactor(
  db: Db,
  account: { id: string; email: string },
): Promise<{ secret: string; otpauthUrl: string; qrCodeSvg: string }> {
  if (await twoFactorEnabled(db, account.id)) throw conflict(MSG_ALREADY_ON);
  const secret = generateSecret();
  await db
    .insert(accountTwoFactor)
    .values({ accountId: account.id, pendingSecret: secret })
    .onConflictDoUpdate({ target: accountTwoFactor.accountId, set: { pendingSecret: secret } });
  const otpauthUrl = generateURI({ issuer: ISSUER, label: account.email, secret });
  const qrCodeSvg = await QRCode.toString(otpauthUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, otpauthUrl, qrCodeSvg };
}

/** The time step of `code` under `secret` when it is a valid code newer than `afterStep`. */
async function matchingStep(
  secret: string,
  code: string,
  clock: Clock,
  afterStep: number | null,
): Promise<number | undefined> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return undefined;
  const epoch = Math.floor(clock.now().getTime() / 1000);
  const result = await verify({
    secret,
    token,
    epoch,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  }).catch(() => ({ valid: false as const }));
  // The step the code belongs to: the current one, moved by how far off the code was.
  return result.valid ? Math.floor(epoch / PERIOD_SECONDS) + result.delta : undefined;
}

function newRecoveryCode(): string {
  let code = "";
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A recovery code as stored: its letters and digits in lower case, hashed. */
const recoveryHash = (code: string) => hashToken(code.toLowerCase().replace(/[^a-z0-9]/g, ""));

/** `POST /api/owner/account/two-factor/confirm`: turns the pending secret on; answers the recovery codes. */
export async function confirmTwoFactor(deps: Deps, accountId: string, code: string): Promise<string[]> {
  const row = await twoFactorRow(deps.db, accountId);
  if (row?.secret) throw conflict(MSG_ALREADY_ON);
  if (!row?.pendingSecret) throw badRequest(MSG_NOT_SET_UP);
  const step = await matchingStep(row.pendingSecret, code, deps.clock, null);
  if (step === undefined) throw wrongCode();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(accountTwoFactor)
      .set({
        secret: row.pendingSecret,
        pendingSecret: null,
        lastUsedStep: step,
        enabledAt: deps.clock.now(),
      })
      .where(
        and(
          eq(accountTwoFactor.accountId, accountId),
          eq(accountTwoFactor.pendingSecret, row.pendingSecret!),
        ),
      );
    await tx.delete(accountRecoveryCodes).where(eq(accountRecoveryCodes.accountId, accountId));
    await tx
      .insert(accountRecoveryCodes)
      .values(codes.map((c) => ({ codeHash: recoveryHash(c), accountId })));
  });
  return codes;
}

/**
 * Uses up a code of the account: an authenticator code newer than the last one accepted, or an
 * unused recovery code. Answers whether it was good (a good code cannot be used again).
 */
export async function useSecondFactor(
  db: DbOrTx,
  clock: Clock,
  accountId: string,
  code: string,
): Promise<boolean> {
  const row = await twoFactorRow(db, accountId);
  if (!row?.secret) return false;
  const step = await matchingStep(row.secret, code, clock, row.lastUsedStep);
  if (step !== undefined) {
    const t = accountTwoFactor;
    // Two requests with the same code: only the one that moves the step on wins.
    const moved = await db
      .update(t)
      .set({ lastUsedStep: step })
      .where(and(eq(t.accountId, accountId), or(isNull(t.lastUsedStep), lt(t.lastUsedStep, step))))
      .returning({ accountId: t.accountId });
    return moved.length > 0;
  }
  const used = await db
    .update(accountRecoveryCodes)
    .set({ usedAt: clock.now() })
    .where(
      and(
        eq(accountRecoveryCodes.accountId, accountId),
        eq(accountRecoveryCodes.codeHash, recoveryHash(code)),
        isNull(accountRecoveryCodes.usedAt),
      ),
    )
    .returning({ codeHash: accountRecoveryCodes.codeHash });
  return used.length > 0;
}

/** `DELETE /api/owner/account/two-factor` (after the password was checked): needs a good code. */
export async function disableTwoFactor(deps: Deps, accountId: string, code: string): Promise<void> {
  if (!(await twoFactorEnabled(deps.db, accountId))) throw badRequest(MSG_NOT_ON);
  await deps.db.transaction(async (tx) => {
    if (!(await useSecondFactor(tx, deps.clock, accountId, code))) throw wrongCode();
    await tx.delete(accountTwoFactor).where(eq(accountTwoFactor.accountId, accountId));
    await tx.delete(accountRecoveryCodes).where(eq(accountRecoveryCodes.accountId, accountId));
  });
}
