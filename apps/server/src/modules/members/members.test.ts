/**
 * Members and invitations through the owner API: invite (the email in the outbox), accept with a
 * new or an existing account, roles, removal, ownership transfer, and every bad input answering a
 * clear 4xx that changes nothing.
 */
import { desc, eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, invitations, memberships, outboundEmails } from "../../db/schema.js";
import {
  Browser,
  DEMO_OWNER,
  type TestApp,
  createTestApp,
  demoOwner,
  ownerWithSite,
  signedUpOwner,
} from "../../../test/harness.js";

let now = new Date("2026-03-01T10:00:00Z");
let t: TestApp;
let owner: Browser;
let siteId: string;
let ownerId: string;

beforeAll(async () => {
  t = await createTestApp({ seed: true, clock: { now: () => now } });
  ({ owner, siteId } = await demoOwner(t));
  ownerId = (await owner.request({ url: "/api/owner/account" })).json().account.id;
});
afterAll(() => t.close());

const api = (path: string) => `/api/owner/sites/${siteId}${path}`;
const list = async () => (await owner.request({ url: api("/members") })).json();

/** The token of the newest invitation email to the address, from the outbox. */
async function linkTo(email: string): Promise<string> {
  const [mail] = await t.database.db
    .select()
    .from(outboundEmails)
    .where(eq(outboundEmails.toAddress, email))
    .orderBy(desc(outboundEmails.createdAt));
  const match = /\/config\/invitations\/accept\?token=([A-Za-z0-9_%-]+)/.exec(mail!.textBody);
  return decodeURIComponent(match![1]!);
}

async function invite(email: string, roles: string[]) {
  return owner.request({ method: "POST", url: api("/invitations"), payload: { email, roles } });
}

async function accept(
  token: string,
  body: Record<string, string> = {},
  b = new Browser(t.app),
  remoteAddress?: string,
) {
  await b.visit("/");
  const res = await b.request({
    method: "POST",
    url: "/api/owner/invitations/accept",
    payload: { token, ...body },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  return { res, b };
}

/** The address of the two-step test's client: its tries count apart from the other tests'. */
const GUARDED_IP = "198.51.100.23";

describe("invitations", () => {
  it("invites by email, lists it pending, and a new person accepts with a password and name", async () => {
    const res = await invite("Writer@Example.com", ["website_editor"]);
    expect(res.statusCode).toBe(201);
    expect(res.json().invitation).toMatchObject({ email: "writer@example.com", roles: ["website_editor"] });
    expect(new Date(res.json().invitation.expiresAt).getTime() - now.getTime()).toBe(7 * 86_400_000);
    expect((await list()).invitations).toHaveLength(1);
    const token = await linkTo("writer@example.com");
    const [stored] = await t.database.db.select().from(invitations);
    expect(stored!.tokenHash).not.toBe(token);

    const { res: ok, b } = await accept(token, { password: "long enough password", name: "Wendy Writer" });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      account: { email: "writer@example.com", displayName: "Wendy Writer" },
      siteId,
    });
    const me = (await b.request({ url: api("/me") })).json();
    expect(me.owner).toBe(false);
    expect(me.permissions).toContain("content.write");
    expect(me.permissions).not.toContain("orders.read");
    expect((await b.request({ url: api("/orders") })).statusCode).toBe(403);
    expect((await b.request({ url: api("/pages") })).statusCode).toBe(200);

    const after = await list();
    expect(after.invitations).toEqual([]);
    expect(after.members).toHaveLength(2);
    expect(after.members[0]).toMatchObject({ email: DEMO_OWNER.email, owner: true });
    expect(after.members[1]).toMatchObject({ name: "Wendy Writer", roles: ["website_editor"], owner: false });
    // The latest account_sessions.created_at of the account (the app's clock): the accept just now.
    expect(Math.abs(now.getTime() - Date.parse(after.members[1].lastSignInAt))).toBeLessThan(60_000);
  });

  it("refuses a reused token, an expired token and a wrong one, adding nobody", async () => {
    await invite("late@example.com", ["store_manager"]);
    const token = await linkTo("late@example.com");
    now = new Date(now.getTime() + 7 * 86_400_000 + 1000);
    const expired = await accept(token, { password: "long enough password" });
    expect(expired.res.statusCode).toBe(400);
    expect(expired.res.json().error.code).toBe("invalid_invitation");
    const wrong = await accept("not-a-token", { password: "long enough password" });
    expect(wrong.res.statusCode).toBe(400);
    now = new Date(now.getTime() - 7 * 86_400_000 - 1000);

    const used = (await list()).members.length;
    await invite("twice@example.com", ["analytics_viewer"]);
    const again = await linkTo("twice@example.com");
    expect((await accept(again, { password: "long enough password" })).res.statusCode).toBe(200);
    const reuse = await accept(again, { password: "long enough password" });
    expect(reuse.res.statusCode).toBe(400);
    expect((await list()).members.length).toBe(used + 1);
  });

  it("lets an existing account accept with its password, and only with it", async () => {
    await signedUpOwner(t, "agency@example.com");
    await invite("agency@example.com", ["administrator"]);
    const token = await linkTo("agency@example.com");
    const none = await accept(token);
    expect(none.res.statusCode).toBe(400);
    const bad = await accept(token, { password: "wrong password!" });
    expect(bad.res.statusCode).toBe(401);
    expect((await list()).members.some((m: { email: string }) => m.email === "agency@example.com")).toBe(
      false,
    );
    const good = await accept(token, { password: "long enough password" });
    expect(good.res.statusCode).toBe(200);
    expect(
      (await list()).members.find((m: { email: string }) => m.email === "agency@example.com").roles,
    ).toEqual(["administrator"]);
  });

  it("asks an account with two-step verification for its code, as sign-in does, and takes a recovery code", async () => {
    const holder = await signedUpOwner(t, "guarded@example.com");
    const started = (await holder.request({ method: "POST", url: "/api/owner/account/two-factor" })).json();
    const totp = () => generate({ secret: started.secret, epoch: Math.floor(now.getTime() / 1000) });
    const confirmed = await holder.request({
      method: "POST",
      url: "/api/owner/account/two-factor/confirm",
      payload: { code: await totp() },
    });
    expect(confirmed.statusCode).toBe(200);
    const recoveryCodes: string[] = confirmed.json().recoveryCodes;
    const isMember = async (email: string) =>
      (await list()).members.some((m: { email: string }) => m.email === email);

    await invite("guarded@example.com", ["store_manager"]);
    const token = await linkTo("guarded@example.com");
    const password = { password: "long enough password" };
    // The password alone: the code is asked for, and nobody joins.
    const noCode = await accept(token, password, undefined, GUARDED_IP);
    expect(noCode.res.statusCode).toBe(401);
    expect(noCode.res.json().error.code).toBe("two_factor_required");
    expect(noCode.res.json().error.message).toMatch(/authenticator app/);
    const wrong = await accept(token, { ...password, code: "000000" }, undefined, GUARDED_IP);
    expect(wrong.res.statusCode).toBe(401);
    expect(wrong.res.json().error.code).toBe("invalid_code");
    expect(await isMember("guarded@example.com")).toBe(false);
    // A recovery code signs in and joins; the link is then used.
    const joined = await accept(token, { ...password, code: recoveryCodes[0]! }, undefined, GUARDED_IP);
    expect(joined.res.statusCode).toBe(200);
    expect(joined.res.json()).toMatchObject({ account: { email: "guarded@example.com" }, siteId });
    expect(await isMember("guarded@example.com")).toBe(true);
    expect((await joined.b.request({ url: api("/me") })).json().permissions).toContain("orders.write");

    // A second site's invitation takes a code of the app; the used recovery code no longer works.
    now = new Date(now.getTime() + 60_000);
    const { owner: other, siteId: otherId } = await ownerWithSite(t, "other-owner@example.com");
    const sent = await other.request({
      method: "POST",
      url: `/api/owner/sites/${otherId}/invitations`,
      payload: { email: "guarded@example.com", roles: ["website_editor"] },
    });
    expect(sent.statusCode).toBe(201);
    const second = await linkTo("guarded@example.com");
    const reused = await accept(second, { ...password, code: recoveryCodes[0]! }, undefined, GUARDED_IP);
    expect(reused.res.statusCode).toBe(401);
    const withApp = await accept(second, { ...password, code: await totp() }, undefined, GUARDED_IP);
    expect(withApp.res.statusCode).toBe(200);
    expect(withApp.res.json().siteId).toBe(otherId);
  });

  it("shows the holder of a link the site, the inviter, the roles and whether the address has an account", async () => {
    await signedUpOwner(t, "preview-known@example.com");
    await invite("preview-known@example.com", ["store_manager", "analytics_viewer"]);
    await invite("preview-new@example.com", ["website_editor"]);
    const b = new Browser(t.app);
    await b.visit("/");
    const preview = (token: string) =>
      b.request({ method: "POST", url: "/api/owner/invitations/preview", payload: { token } });
    const known = await preview(await linkTo("preview-known@example.com"));
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({
      email: "preview-known@example.com",
      roles: ["store_manager", "analytics_viewer"],
      site: { title: "Atelier Demo" },
      inviter: { name: expect.any(String) },
      hasAccount: true,
    });
    expect(known.json().inviter.name).not.toBe("");
    const fresh = (await preview(await linkTo("preview-new@example.com"))).json();
    expect(fresh).toMatchObject({ email: "preview-new@example.com", hasAccount: false });
    // Looking changes nothing: the link still accepts, once; then it is refused as used.
    const token = await linkTo("preview-new@example.com");
    expect((await accept(token, { password: "long enough password", name: "Newcomer" })).res.statusCode).toBe(
      200,
    );
    const used = await preview(token);
    expect(used.statusCode).toBe(400);
    expect(used.json().error).toMatchObject({ code: "invalid_invitation" });
    const wrong = await preview("not-a-token");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(
      "This invitation link is not valid: it was used, revoked or has expired.",
    );
  });

  it("refuses a role that does not exist, no roles, a bad address and a member, inviting nobody", async () => {
    const before = (await list()).invitations.length;
    for (const [email, roles, status] of [
      ["x@example.com", ["superuser"], 400],
      ["x@example.com", [], 400],
      ["not an email", ["administrator"], 400],
      [DEMO_OWNER.email, ["administrator"], 409],
    ] as const) {
      const res = await invite(email, [...roles]);
      expect(res.statusCode, `${email} ${roles}`).toBe(status);
      expect(res.json().error.message).toBeTruthy();
    }
    expect((await list()).invitations.length).toBe(before);
  });

  it("resends with a new link (the old one stops working) and revokes", async () => {
    const id = (await invite("resend@example.com", ["billing_manager"])).json().invitation.id;
    const first = await linkTo("resend@example.com");
    const resent = await owner.request({ method: "POST", url: api(`/invitations/${id}/resend`) });
    expect(resent.statusCode).toBe(200);
    const second = await linkTo("resend@example.com");
    expect(second).not.toBe(first);
    expect((await accept(first, { password: "long enough password" })).res.statusCode).toBe(400);
    expect((await owner.request({ method: "DELETE", url: api(`/invitations/${id}`) })).statusCode).toBe(200);
    expect((await accept(second, { password: "long enough password" })).res.statusCode).toBe(400);
    expect((await owner.request({ method: "DELETE", url: api(`/invitations/${id}`) })).statusCode).toBe(404);
  });
});

describe("members", () => {
  const member = async (email: string) =>
    (await list()).members.find((m: { email: string }) => m.email === email) as {
      accountId: string;
      roles: string[];
      owner: boolean;
    };

  it("changes roles, refusing an unknown role and the owner's", async () => {
    const writer = await member("writer@example.com");
    const patch = (accountId: string, roles: string[]) =>
      owner.request({ method: "PATCH", url: api(`/members/${accountId}`), payload: { roles } });
    expect((await patch(writer.accountId, ["website_editor", "store_manager"])).statusCode).toBe(200);
    expect((await member("writer@example.com")).roles).toEqual(["website_editor", "store_manager"]);
    const unknown = await patch(writer.accountId, ["god"]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toContain('There is no role "god"');
    expect((await member("writer@example.com")).roles).toEqual(["website_editor", "store_manager"]);
    expect((await patch(ownerId, ["analytics_viewer"])).statusCode).toBe(400);
    expect((await member(DEMO_OWNER.email)).owner).toBe(true);
  });

  it("never removes the owner, not even by themselves; removes a member", async () => {
    const res = await owner.request({ method: "DELETE", url: api(`/members/${ownerId}`) });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain("The owner cannot be removed");
    expect((await member(DEMO_OWNER.email)).owner).toBe(true);
    const viewer = await member("twice@example.com");
    expect(
      (await owner.request({ method: "DELETE", url: api(`/members/${viewer.accountId}`) })).statusCode,
    ).toBe(200);
    expect(await member("twice@example.com")).toBeUndefined();
  });

  it("transfers ownership with the owner's password; the former owner becomes an Administrator", async () => {
    const agency = await member("agency@example.com");
    const transfer = (password: string, accountId = agency.accountId) =>
      owner.request({ method: "POST", url: api("/transfer-ownership"), payload: { accountId, password } });
    const wrong = await transfer("wrong password");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe("wrong_password");
    expect((await member(DEMO_OWNER.email)).owner).toBe(true);
    expect((await transfer(DEMO_OWNER.password, "0123456789abcdef01234567")).statusCode).toBe(404);

    expect((await transfer(DEMO_OWNER.password)).statusCode).toBe(200);
    expect(await member("agency@example.com")).toMatchObject({ owner: true });
    expect(await member(DEMO_OWNER.email)).toMatchObject({ owner: false, roles: ["administrator"] });
    const owners = await t.database.db.select().from(memberships).where(eq(memberships.owner, true));
    expect(owners.filter((m) => m.websiteId === siteId)).toHaveLength(1);
    // The former owner, now an Administrator, cannot transfer it back nor reach billing.
    expect((await transfer(DEMO_OWNER.password, ownerId)).statusCode).toBe(403);
    expect((await owner.request({ url: api("/billing/invoices") })).statusCode).toBe(403);
    // Nor give billing to anyone, themselves included: no one grants more than they hold.
    const grant = await owner.request({
      method: "PATCH",
      url: api(`/members/${ownerId}`),
      payload: { roles: ["administrator", "billing_manager"] },
    });
    expect(grant.statusCode).toBe(403);
    expect(grant.json().error.message).toBe("Your role does not allow this.");
    expect((await invite("biller@example.com", ["billing_manager"])).statusCode).toBe(403);
    expect(await member(DEMO_OWNER.email)).toMatchObject({ roles: ["administrator"] });
    const types = (await t.database.db.select({ type: events.type }).from(events)).map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        "invitation.created",
        "member.added",
        "member.roles_changed",
        "member.removed",
        "ownership.transferred",
      ]),
    );
  });
});
