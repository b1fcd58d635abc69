/** The shapes of a site's team in the owner API (/api/owner/sites/:siteId/members, invitations). */

/** A person with a login to the site: the Owner or a member with roles. */
export interface Member {
  accountId: string;
  email: string;
  name: string;
  roles: string[];
  owner: boolean;
  /** ISO 8601; null when the person never signed in. */
  lastSignInAt: string | null;
}

/** An invitation not yet accepted. */
export interface Invitation {
  id: string;
  email: string;
  roles: string[];
  /** ISO 8601. */
  expiresAt: string;
}

/** GET /api/owner/sites/:siteId/members. */
export interface MembersAnswer {
  members: Member[];
  invitations: Invitation[];
}

/** POST /api/owner/invitations/preview: what the page an invitation link opens shows before accepting. */
export interface InvitationPreview {
  email: string;
  roles: string[];
  site: { title: string };
  inviter: { name: string };
  /** Whether an account uses the invited address (accepting then asks its password, else a name and a new one). */
  hasAccount: boolean;
}
