/**
 * The people behind a site: its one Owner and the members with roles, and the invitations that
 * bring new members in (single-use, valid 7 days, the token stored hashed, sent through the outbox).
 * Every change records a domain event with its actor in the change's transaction.
 */
import { isValidEmail } from "@atelier/forms";
import { and, asc, eq, gt, max, sql } from "drizzle-orm";
import type { Config } from "../../config.js";
import type { Db, Tx } from "../../db/client.js";
import { accountSessions, accounts, invitations, memberships, websites } from "../../db/schema.js";
import { ApiError, badRequest, conflict, forbidden, notFound } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { normalizeEmail } from "../../lib/email.js";
import { escapeHtml } from "../../lib/escape.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { verifyPassword } from "../../lib/passwords.js";
import type { Deps } from "../../http/deps.js";
import { type OwnerAccount, logIn, signUp } from "../accounts/service.js";
import type { Client } from "../accounts/sessions.js";
import { queueEmail } from "../email/service.js";
import { type Actor, recordEvent } from "../events/service.js";
import type { Website } from "../sites/service.js";
import { type Member, ROLE_REFUSED } from "../owner-sites/access.js";
import { ROLES, ROLE_IDS, type Role, grantsBeyond, isRole } from "./permissions.js";

export const INVITATION_DAYS = 7;
const DAY_MS = 86_400_000;

export const NO_SUCH_MEMBER = "No such member.";
export const NO_SUCH_INVITATION = "No such invitation.";
export const BAD_INVITATION = "This invitation link is not valid: it was used, revoked or has expired.";

/** The roles of a request, checked: at least one, each one that exists, no repeats. */
export function checkRoles(roles: string[], grantor?: Member): Role[] {
  const unknown = roles.filter((r) => !isRole(r));
  if (unknown.length)
    throw badRequest(`There is no role "${unknown[0]}". Roles: ${ROLE_IDS.join(", ")}.`, {
      roles: "Unknown role",
    });
  if (!roles.length) throw badRequest("Please choose at least one role.", { roles: "Required" });
  if (grantor && grantsBeyond(grantor, roles)) throw forbidden(ROLE_REFUSED);
  return [...new Set(roles)] as Role[];
}

export async function listMembers(db: Db, websiteId: string) {
  const lastSignIn = db
    .select({ accountId: accountSessions.accountId, at: max(accountSessions.createdAt).as("at") })
    .from(accountSessions)
    .groupBy(accountSessions.accountId)
    .as("last_sign_in");
  const members = await db
    .select({
      accountId: accounts.id,
      email: accounts.email,
      name: accounts.displayName,
      roles: memberships.roles,
      owner: memberships.owner,
      lastSignInAt: lastSignIn.at,
    })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .leftJoin(lastSignIn, eq(lastSignIn.accountId, accounts.id))
    .where(eq(memberships.websiteId, websiteId))
    .orderBy(sql`${memberships.owner} desc`, asc(memberships.createdAt), asc(accounts.email));
  return members.map((m) => ({
    ...m,
    lastSignInAt: m.lastSignInAt ? new Date(m.lastSignInAt).toISOString() : null,
  }));
}

export async function listInvitations(db: Db, websiteId: string) {
  const rows = await db
    .select()
    .from(invitations)
    .where(eq(invitations.websiteId, websiteId))
    .orderBy(asc(invitations.createdAt), asc(invitations.id));
  return rows.map(invitationJson);
}

function invitationJson(row: typeof invitations.$inferSelect) {
  return { id: row.id, email: row.email, roles: row.roles, expiresAt: row.expiresAt.toISOString() };
}

interface Mailer {
  config: Config;
  clock: Clock;
}

/** The accept link of the dashboard, carrying the token (only the hash is stored). */
export function acceptLink(config: Config, token: string): string {
  return `${config.publicUrl}/config/invitations/accept?token=${encodeURIComponent(token)}`;
}

async function sendInvitation(
  tx: Tx,
  { config }: Mailer,
  site: Website,
  inviter: OwnerAccount,
  email: string,
  roles: string[],
  token: string,
) {
  const names = roles.map((r) => (isRole(r) ? ROLES[r].name : r)).join(", ");
  const link = acceptLink(config, token);
  const lines = [
    `${inviter.displayName} (${inviter.email}) invites you to help run "${site.title}" on Atelier as: ${names}.`,
    "",
    `Accept the invitation: ${link}`,
    "",
    `The link can be used once and expires in ${INVITATION_DAYS} days.`,
  ];
  await queueEmail(tx, config, {
    websiteId: site.id,
    to: email,
    subject: `You are invited to help run ${site.title}`,
    text: lines.join("\n"),
    html: `<p>${escapeHtml(lines[0]!)}</p><p><a href="${escapeHtml(link)}">Accept the invitation</a></p><p>${escapeHtml(lines[4]!)}</p>`,
    fromName: site.title,
  });
}

/** Invites a person by email with roles; answers the pending invitation (the email is queued with it). */
export async function invite(
  db: Db,
  mailer: Mailer,
  site: Website,
  inviter: OwnerAccount,
  actor: Actor,
  input: { email: string; roles: string[] },
  grantor?: Member,
) {
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email))
    throw badRequest("Please enter a valid email address.", { email: "Email is invalid" });
  const roles = checkRoles(input.roles, grantor);
  const [member] = await db
    .select({ id: accounts.id })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.websiteId, site.id), eq(accounts.email, email)));
  if (member) throw conflict("This person is already a member of the site.");
  const token = newToken();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(invitations)
      .values({
        id: newId(),
        websiteId: site.id,
        email,
        roles,
        tokenHash: hashToken(token),
        invitedBy: inviter.id,
        expiresAt: new Date(mailer.clock.now().getTime() + INVITATION_DAYS * DAY_MS),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict("This person is already invited: resend or revoke the invitation.");
    await sendInvitation(tx, mailer, site, inviter, email, roles, token);
    await recordEvent(tx, {
      websiteId: site.id,
      type: "invitation.created",
      entity: { type: "invitation", id: row.id },
      actor,
      payload: { fields: ["email", "roles"] },
    });
    return invitationJson(row);
  });
}

/** Sends a pending invitation again with a new link and 7 more days (the old link stops working). */
export async function resendInvitation(
  db: Db,
  mailer: Mailer,
  site: Website,
  inviter: OwnerAccount,
  actor: Actor,
  id: string,
) {
  const token = newToken();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({
        tokenHash: hashToken(token),
        expiresAt: new Date(mailer.clock.now().getTime() + INVITATION_DAYS * DAY_MS),
      })
      .where(and(eq(invitations.id, id), eq(invitations.websiteId, site.id)))
      .returning();
    if (!row) throw notFound(NO_SUCH_INVITATION);
    await sendInvitation(tx, mailer, site, inviter, row.email, row.roles, token);
    await recordEvent(tx, {
      websiteId: site.id,
      type: "invitation.resent",
      entity: { type: "invitation", id: row.id },
      actor,
      payload: { fields: ["expiresAt"] },
    });
    return invitationJson(row);
  });
}

export async function revokeInvitation(db: Db, site: Website, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(invitations)
      .where(and(eq(invitations.id, id), eq(invitations.websiteId, site.id)))
      .returning({ id: invitations.id });
    if (!row) throw notFound(NO_SUCH_INVITATION);
    await recordEvent(tx, {
      websiteId: site.id,
      type: "invitation.revoked",
      entity: { type: "invitation", id },
      actor,
    });
  });
}

/** A live invitation by its token; the 400 of a link used, revoked or expired otherwise. */
async function liveInvitation(db: Db, clock: Clock, token: string) {
  const [invitation] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.tokenHash, hashToken(token)), gt(invitations.expiresAt, clock.now())));
  if (!invitation) throw new ApiError(400, "invalid_invitation", BAD_INVITATION);
  return invitation;
}

/**
 * What the page an invitation link opens shows before accepting: the site, the inviter, the roles,
 * and whether an account uses the address (told only to the holder of the emailed token).
 */
export async function previewInvitation(db: Db, clock: Clock, token: string) {
  const invitation = await liveInvitation(db, clock, token);
  const [site] = await db
    .select({ title: websites.title })
    .from(websites)
    .where(eq(websites.id, invitation.websiteId));
  const [inviter] = invitation.invitedBy
    ? await db
        .select({ name: accounts.displayName })
        .from(accounts)
        .where(eq(accounts.id, invitation.invitedBy))
    : [];
  const [existing] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, invitation.email));
  return {
    email: invitation.email,
    roles: invitation.roles,
    site: { title: site?.title ?? "" },
    inviter: { name: inviter?.name ?? "" },
    hasAccount: Boolean(existing),
  };
}

/**
 * Accepts an invitation: the invited address's account (signed in already, or by its password) or a
 * new one (password and name) becomes a member with the invitation's roles. The token works once.
 * Answers the account and, when it signed in here, the new session.
 */
export async function acceptInvitation(
  deps: Deps,
  client: Client,
  input: { token: string; password?: string; name?: string; code?: string },
  signedIn: OwnerAccount | undefined,
) {
  const { db, clock } = deps;
  const invitation = await liveInvitation(db, clock, input.token);
  const [existing] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, invitation.email));
  let account: OwnerAccount;
  let session: Awaited<ReturnType<typeof logIn>> | undefined;
  if (signedIn && signedIn.email === invitation.email) {
    account = signedIn;
  } else {
    if (!input.password)
      throw badRequest(
        existing
          ? "Please enter the password of your account to accept."
          : "Please choose a password for your new account.",
        { password: "Required" },
      );
    if (!existing)
      await signUp(db, { email: invitation.email, password: input.password, displayName: input.name });
    // Sign-in's own checks: the guessing limits, and the second step when the account has it on.
    session = await logIn(
      deps,
      { email: invitation.email, password: input.password, code: input.code },
      client,
    );
    account = session.account;
  }
  await db.transaction(async (tx) => {
    // Single use: whoever deletes the row first is the one that accepts.
    const [used] = await tx
      .delete(invitations)
      .where(eq(invitations.id, invitation.id))
      .returning({ id: invitations.id });
    if (!used) throw new ApiError(400, "invalid_invitation", BAD_INVITATION);
    await tx
      .insert(memberships)
      .values({
        accountId: account.id,
        websiteId: invitation.websiteId,
        roles: invitation.roles,
        owner: false,
      })
      .onConflictDoNothing();
    await recordEvent(tx, {
      websiteId: invitation.websiteId,
      type: "member.added",
      entity: { type: "member", id: account.id },
      actor: { type: "account", id: account.id },
      payload: { fields: ["roles"] },
    });
  });
  return { account, session, websiteId: invitation.websiteId };
}

async function memberRow(db: Db | Tx, websiteId: string, accountId: string) {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.websiteId, websiteId), eq(memberships.accountId, accountId)));
  if (!row) throw notFound(NO_SUCH_MEMBER);
  return row;
}

export async function setRoles(
  db: Db,
  site: Website,
  actor: Actor,
  accountId: string,
  input: string[],
  grantor?: Member,
) {
  const roles = checkRoles(input, grantor);
  const row = await memberRow(db, site.id, accountId);
  if (row.owner)
    throw badRequest("The owner holds every permission; transfer ownership to change it.", {
      roles: "The owner has every permission",
    });
  await db.transaction(async (tx) => {
    await tx
      .update(memberships)
      .set({ roles })
      .where(and(eq(memberships.websiteId, site.id), eq(memberships.accountId, accountId)));
    await recordEvent(tx, {
      websiteId: site.id,
      type: "member.roles_changed",
      entity: { type: "member", id: accountId },
      actor,
      payload: { fields: ["roles"] },
    });
  });
}

/** Removes a member (a member may also leave); the Owner cannot be removed, not even by themselves. */
export async function removeMember(db: Db, site: Website, actor: Actor, accountId: string): Promise<void> {
  const row = await memberRow(db, site.id, accountId);
  if (row.owner)
    throw new ApiError(
      409,
      "owner_cannot_leave",
      "The owner cannot be removed. Transfer ownership to another member first.",
    );
  await db.transaction(async (tx) => {
    await tx
      .delete(memberships)
      .where(
        and(
          eq(memberships.websiteId, site.id),
          eq(memberships.accountId, accountId),
          eq(memberships.owner, false),
        ),
      );
    await recordEvent(tx, {
      websiteId: site.id,
      type: "member.removed",
      entity: { type: "member", id: accountId },
      actor,
    });
  });
}

/**
 * Makes another member the Owner: the current Owner confirms with their password and becomes an
 * Administrator. Only the Owner may do it.
 */
export async function transferOwnership(
  db: Db,
  site: Website,
  owner: OwnerAccount,
  input: { accountId: string; password: string },
): Promise<void> {
  const current = await memberRow(db, site.id, owner.id);
  if (!current.owner) throw forbidden("Only the owner can transfer ownership.");
  const [account] = await db.select().from(accounts).where(eq(accounts.id, owner.id));
  if (!account || !(await verifyPassword(account.passwordHash, input.password)))
    throw new ApiError(400, "wrong_password", "The password is incorrect.", { password: "Incorrect" });
  if (input.accountId === owner.id)
    throw badRequest("You are the owner already.", { accountId: "Choose another member" });
  await memberRow(db, site.id, input.accountId);
  await db.transaction(async (tx) => {
    await tx
      .update(memberships)
      .set({ owner: false, roles: ["administrator"] })
      .where(and(eq(memberships.websiteId, site.id), eq(memberships.accountId, owner.id)));
    await tx
      .update(memberships)
      .set({ owner: true, roles: [] })
      .where(and(eq(memberships.websiteId, site.id), eq(memberships.accountId, input.accountId)));
    await recordEvent(tx, {
      websiteId: site.id,
      type: "ownership.transferred",
      entity: { type: "member", id: input.accountId },
      actor: { type: "account", id: owner.id },
      payload: { fields: ["owner"], from: owner.id },
    });
  });
}

/**
 * Start work for databases made before roles: a site whose memberships name no Owner gets its
 * earliest member as the Owner (memberships were all owners then). Safe to run on every start.
 */
export async function ensureSiteOwners(db: Db): Promise<void> {
  await db.execute(sql`
    update memberships m set owner = true
    where not exists (select 1 from memberships o where o.website_id = m.website_id and o.owner)
      and m.account_id = (
        select f.account_id from memberships f where f.website_id = m.website_id
        order by f.created_at, f.account_id limit 1
      )`);
}
