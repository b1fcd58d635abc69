/** The security of owner accounts: emailed tokens, two-step verification, known devices, wrong-password counts. */
import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { belongsTo, createdAt } from "./columns.js";
import { accounts } from "./site.js";

const at = (name: string) => timestamp(name, { withTimezone: true });

/** Single-use tokens sent by email to an owner: a password reset, or the confirmation of a new address. */
export const accountTokens = pgTable(
  "account_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    accountId: belongsTo("account_id", () => accounts.id),
    /** "password_reset" or "email_change". */
    purpose: text("purpose").notNull(),
    /** The address an email change moves to. */
    newEmail: text("new_email"),
    createdAt: createdAt(),
    expiresAt: at("expires_at").notNull(),
    usedAt: at("used_at"),
  },
  (t) => [index("account_tokens_account_idx").on(t.accountId)],
);

/** An account's authenticator (TOTP, RFC 6238): the secret being set up, then the one in use. */
export const accountTwoFactor = pgTable("account_two_factor", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  /** Base32 secret shown at set-up, until a code from it confirms it. */
  pendingSecret: text("pending_secret"),
  /** The confirmed secret: two-step verification is on while it is set. */
  secret: text("secret"),
  /** The time step of the last code accepted, so a code works only once. */
  lastUsedStep: integer("last_used_step"),
  enabledAt: at("enabled_at"),
});

/** Recovery codes of two-step verification, stored as SHA-256 hashes, each usable once. */
export const accountRecoveryCodes = pgTable(
  "account_recovery_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    accountId: belongsTo("account_id", () => accounts.id),
    usedAt: at("used_at"),
  },
  (t) => [index("account_recovery_codes_account_idx").on(t.accountId)],
);

/** The devices (browser, OS and address) an account has signed in from, to tell it of a new one. */
export const accountDevices = pgTable(
  "account_devices",
  {
    accountId: belongsTo("account_id", () => accounts.id),
    fingerprint: text("fingerprint").notNull(),
    firstSeenAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.fingerprint] })],
);

/**
 * Wrong passwords (and codes) given for one email address in a row, known account or not (so the
 * answers do not tell which addresses have accounts); a sign-in that succeeds clears the row.
 */
export const ownerSignInFailures = pgTable("owner_sign_in_failures", {
  email: text("email").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastFailureAt: at("last_failure_at").notNull(),
  /** No sign-in is tried for the address before this time. */
  retryAt: at("retry_at"),
  /** When the account's owner was told of the many wrong passwords (once per run of failures). */
  notifiedAt: at("notified_at"),
});
