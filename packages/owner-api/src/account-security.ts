/** The shapes of an owner account's security calls (/api/owner/account/…), and the limits they share. */

/** The shortest password an owner account accepts. */
export const PASSWORD_MIN_LENGTH = 8;

/** GET /api/owner/account/security: what protects the signed-in account. */
export interface AccountSecurity {
  twoFactorEnabled: boolean;
  /** Unused recovery codes, while two-step verification is on. */
  recoveryCodesLeft: number;
  /** The address an email change waits to confirm, if any. */
  pendingEmail: string | null;
}

/** POST /api/owner/account/two-factor: what the authenticator app needs. */
export interface TwoFactorSetup {
  /** Base32 secret, to type in by hand. */
  secret: string;
  otpauthUrl: string;
  /** The otpauth URL as a QR code, an SVG document. */
  qrCodeSvg: string;
}

/** One signed-in device in GET /api/owner/account/sessions. */
export interface AccountSession {
  id: string;
  browser: string;
  os: string;
  ip: string;
  /** ISO 8601 times. */
  createdAt: string;
  lastSeenAt: string;
  /** The session this request came with. */
  current: boolean;
}
