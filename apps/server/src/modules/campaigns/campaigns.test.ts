/**
 * Campaigns end to end on the real app with a real SMTP server: import with consent, audiences,
 * the copies as mail clients get them (both parts, RFC 8058 headers, a working one-click
 * unsubscribe), tracked clicks through signed redirects, a refused address skipped next time,
 * cancelling, and bad input answered 400 with the field's message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, type TestApp, demoApp, visitorFrom } from "../../../test/harness.js";
import { multipartUpload } from "../../../test/multipart.js";
import { type TestSmtp, startTestSmtp } from "../../../test/smtp.js";
import { and, eq } from "drizzle-orm";
import { RECIPIENT_LEASE_MS, dispatchCampaigns } from "./sender.js";
import { campaignRecipients, campaigns, emailSuppressions, mailingListSubscribers } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";

let t: TestApp;
let owner: Browser;
let siteId: string;
let smtp: TestSmtp;
let refusedRcpt = 0;
const REFUSED = "nobody@refused.example";
const api = (path: string) => `/api/owner/sites/${siteId}${path}`;

beforeAll(async () => {
  smtp = await startTestSmtp({
    refuse: (a) => {
      if (a === REFUSED) refusedRcpt++;
      return a === REFUSED;
    },
  });
  ({ t, owner, siteId } = await demoApp({ env: { SMTP_URL: smtp.url, EMAIL_RATE_PER_MINUTE: "100000" } }));
}, 300_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function importCsv(csv: string) {
  return owner.request({
    method: "POST",
    url: api("/subscribers/import"),
    ...multipartUpload({ bytes: Buffer.from(csv), filename: "list.csv", contentType: "text/csv" }),
  });
}

async function productId(): Promise<string> {
  const res = await owner.request({ url: api("/products") });
  return (res.json() as { products: { id: string }[] }).products[0]!.id;
}

const received = (to: string) => smtp.received.filter((m) => m.envelopeTo.includes(to));

/** Sends everything due, as the dispatch job does. */
async function dispatch() {
  for (let i = 0; i < 20; i++) if ((await dispatchCampaigns(t.app.deps, 5_000)) === 0) break;
}

describe("campaigns", () => {
  it("imports subscribers who agreed, reporting every line, and refuses a file without a consent column", async () => {
    const res = await importCsv(
      [
        "email,consent,firstName,lastName",
        "ada@example.com,yes,Ada,Lovelace",
        "grace@example.com,true,Grace,Hopper",
        "no-consent@example.com,no,,",
        "not-an-email,yes,,",
        "ADA@example.com,yes,,",
        `${REFUSED},yes,,`,
      ].join("\r\n"),
    );
    expect(res.statusCode, res.body).toBe(200);
    const { report } = res.json();
    expect(report.imported).toBe(3);
    expect(report.skipped).toBe(3);
    expect(report.lines.map((l: { line: number; result: string }) => [l.line, l.result])).toEqual([
      [2, "imported"],
      [3, "imported"],
      [4, "skipped"],
      [5, "skipped"],
      [6, "skipped"],
      [7, "imported"],
    ]);
    expect(report.lines[2].reason).toMatch(/consent/i);

    const bad = await importCsv("email,name\nx@example.com,X\n");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/consent column/);
    const none = await owner.request({ method: "POST", url: api("/subscribers/import"), payload: {} });
    expect(none.statusCode).toBe(400);

    const count = async () =>
      (await owner.request({ url: api("/audiences/count?audience=subscribers") })).json().count as number;
    const before = await count();
    expect(before).toBeGreaterThanOrEqual(3);
    // A double opt-in sign-up still waiting for its confirmation has not agreed yet.
    await t.database.db.insert(mailingListSubscribers).values({
      id: newId(),
      websiteId: siteId,
      email: "pending@example.com",
      source: "newsletter",
      confirmationPending: true,
    });
    expect(await count()).toBe(before);
  });

  it("answers 400 with the field's message for a bad campaign", async () => {
    const base = { subject: "Spring", audience: { kind: "subscribers" }, blocks: [{ type: "divider" }] };
    const noSubject = await owner.request({
      method: "POST",
      url: api("/campaigns"),
      payload: { ...base, subject: " " },
    });
    expect(noSubject.statusCode).toBe(400);
    expect(noSubject.json().error.fields.subject).toBe("Give the campaign a subject.");

    const empty = await owner.request({
      method: "POST",
      url: api("/campaigns"),
      payload: { ...base, audience: { kind: "customers" } },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.audience).toMatch(/No one/);

    const image = await owner.request({
      method: "POST",
      url: api("/campaigns"),
      payload: { ...base, blocks: [{ type: "image", mediaId: "0123456789abcdef01234567", alt: "x" }] },
    });
    expect(image.statusCode).toBe(400);
    expect(image.json().error.fields["blocks.0.mediaId"]).toBe("Choose an image from the media library.");

    const wrongType = await owner.request({
      method: "POST",
      url: api("/campaigns"),
      payload: { ...base, blocks: [{ type: "video" }] },
    });
    expect(wrongType.statusCode).toBe(400);

    const created = await owner.request({ method: "POST", url: api("/campaigns"), payload: base });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().campaign.id;
    const past = await owner.request({
      method: "POST",
      url: api(`/campaigns/${id}/send`),
      payload: { at: "2020-01-01T09:00" },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.fields.at).toBe("Choose a time in the future.");
    const garbled = await owner.request({
      method: "POST",
      url: api(`/campaigns/${id}/send`),
      payload: { at: "soon" },
    });
    expect(garbled.statusCode).toBe(400);

    const scheduled = await owner.request({
      method: "POST",
      url: api(`/campaigns/${id}/send`),
      payload: { at: "2099-06-01T09:00" },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(202);
    expect(scheduled.json().campaign.status).toBe("scheduled");
    const cancelled = await owner.request({ method: "POST", url: api(`/campaigns/${id}/cancel`) });
    expect(cancelled.json().campaign.status).toBe("cancelled");
    const again = await owner.request({ method: "POST", url: api(`/campaigns/${id}/cancel`) });
    expect(again.statusCode).toBe(409);
  });

  it("sends each subscriber their own copy with both parts, one-click unsubscribe, tracked clicks and a report", async () => {
    const settings = await owner.request({
      method: "PUT",
      url: api("/campaign-settings"),
      payload: { postalAddress: "12 Harbour Lane, Portland, ME 04101" },
    });
    expect(settings.statusCode).toBe(200);
    const pid = await productId();
    const created = await owner.request({
      method: "POST",
      url: api("/campaigns"),
      payload: {
        subject: "New in the studio",
        previewText: "Three new pieces",
        fromName: "The Studio",
        replyTo: "hello@example.com",
        audience: { kind: "subscribers" },
        tracking: true,
        blocks: [
          { type: "text", html: "<p>Hello <strong>friends</strong><script>alert(1)</script></p>" },
          { type: "product", productId: pid },
          { type: "button", text: "Shop now", url: "/shop" },
          { type: "divider" },
          { type: "spacer" },
          { type: "social" },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().campaign.id;

    const test = await owner.request({
      method: "POST",
      url: api(`/campaigns/${id}/test`),
      payload: { email: "author@example.com" },
    });
    expect(test.statusCode).toBe(202);

    const sent = await owner.request({ method: "POST", url: api(`/campaigns/${id}/send`), payload: {} });
    expect(sent.statusCode, sent.body).toBe(202);
    await dispatch();

    const [ada] = received("ada@example.com");
    expect(ada, "ada's copy").toBeDefined();
    expect(received("ada@example.com")).toHaveLength(1);
    const mail = ada!.parsed;
    expect(mail.subject).toBe("New in the studio");
    expect(mail.from?.value[0]?.name).toBe("The Studio");
    expect(mail.replyTo?.value[0]?.address).toBe("hello@example.com");
    expect(typeof mail.html).toBe("string");
    expect(mail.text).toContain("Hello friends");
    expect(mail.text).toContain("12 Harbour Lane");
    expect(mail.html as string).toContain("12 Harbour Lane");
    expect(mail.html as string).not.toContain("<script");
    expect(mail.html as string).toMatch(/<td[^>]*style="[^"]*background/);
    const head = ada!.raw.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, " ");
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
    const listUnsubscribe = /^List-Unsubscribe: <([^>]+)>$/im.exec(head)?.[1];
    const unsubscribeUrl = new URL(listUnsubscribe!);
    expect(mail.text).toContain(unsubscribeUrl.toString());

    // A tracked link redirects to the campaign's own address, and a made-up one goes nowhere.
    const click = /href="(http[^"]*\/email\/click\/[^"]+)"/.exec(mail.html as string)![1]!;
    const clicked = await t.app.inject({ url: new URL(click).pathname });
    expect(clicked.statusCode).toBe(302);
    expect(clicked.headers.location).toMatch(/^http:\/\/localhost\//);
    const forged = await t.app.inject({ url: `${new URL(click).pathname.replace(/\/\d+$/, "")}/999` });
    expect(forged.statusCode).toBe(404);
    const tampered = await t.app.inject({ url: new URL(click).pathname.replace(/\.[^./]+\//, ".AAAA/") });
    expect(tampered.statusCode).toBe(404);

    // One click: a POST with no cookie and no crumb, then a confirmation page.
    const page = await t.app.inject({ url: unsubscribeUrl.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("List-Unsubscribe");
    const oneClick = await t.app.inject({
      method: "POST",
      url: unsubscribeUrl.pathname,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect(oneClick.body).toContain("You are unsubscribed");
    const badToken = await t.app.inject({
      method: "POST",
      url: "/email/unsubscribe/1.nope",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(badToken.statusCode).toBe(404);

    // The refused address was marked.
    expect(refusedRcpt).toBe(1);
    const report = await owner.request({ url: api(`/campaigns/${id}/report`) });
    expect(report.statusCode).toBe(200);
    const r = report.json();
    expect(r.refused).toBe(1);
    expect(r.sent).toBe(r.recipients - 1);
    expect(r.unsubscribed).toBe(1);
    expect(r.clicked).toBe(1);
    expect(r.links.reduce((n: number, l: { clicks: number }) => n + l.clicks, 0)).toBe(1);
    expect((await owner.request({ url: api(`/campaigns/${id}`) })).json().campaign.status).toBe("sent");

    // The author's test copy came through the outbox's jobs.
    const { runDueJobs } = await import("../jobs/service.js");
    await runDueJobs(t.app.deps, "test");
    expect(received("author@example.com")[0]?.parsed.subject).toBe("[Test] New in the studio");
  });

  it("skips the refused and the unsubscribed next time", async () => {
    const before = received("grace@example.com").length;
    const created = await owner.request({
      method: "POST",
      url: api("/campaigns"),
      payload: {
        subject: "Second",
        audience: { kind: "subscribers" },
        blocks: [{ type: "text", html: "<p>Again</p>" }],
      },
    });
    const id = created.json().campaign.id;
    await owner.request({ method: "POST", url: api(`/campaigns/${id}/send`), payload: {} });
    await dispatch();
    expect(received("grace@example.com")).toHaveLength(before + 1);
    expect(received("ada@example.com")).toHaveLength(1);
    expect(refusedRcpt).toBe(1);
    const r = (await owner.request({ url: api(`/campaigns/${id}/report`) })).json();
    expect(r.refused).toBe(0);
    expect(r.sent).toBe(r.recipients);
    const reimport = await importCsv(`email,consent\n${REFUSED},yes\nada@example.com,yes\n`);
    expect(reimport.json().report.imported).toBe(0);
  });

  it("sends a copy left in flight by a killed process again under the same Message-ID, and no other", async () => {
    expect((await importCsv("email,consent\nlin@example.com,yes\nmo@example.com,yes\n")).statusCode).toBe(
      200,
    );
    const created = await owner.request({
      method: "POST",
      url: api("/campaigns"),
      payload: {
        subject: "In flight",
        audience: { kind: "subscribers" },
        blocks: [{ type: "text", html: "<p>Once</p>" }],
      },
    });
    const id = created.json().campaign.id as string;
    await owner.request({ method: "POST", url: api(`/campaigns/${id}/send`), payload: {} });
    const copies = () => smtp.received.filter((m) => m.parsed.subject === "In flight");
    await dispatch();
    const first = copies();
    expect(first.map((m) => m.envelopeTo[0]).sort()).toEqual([
      "grace@example.com",
      "lin@example.com",
      "mo@example.com",
    ]);
    const grace = first.find((m) => m.envelopeTo[0] === "grace@example.com")!;
    expect(grace.parsed.messageId).toMatch(new RegExp(`^<campaign\\.${id}\\.\\d+@`));
    // What a process killed after the server's 250 but before recording it leaves behind: the row
    // still in flight, its lease run out, the campaign still sending.
    const { db } = t.app.deps;
    const stale = new Date(Date.now() - RECIPIENT_LEASE_MS - 1000);
    await db
      .update(campaignRecipients)
      .set({ status: "sending", lockedAt: stale, lockedBy: "a-killed-process", sentAt: null })
      .where(and(eq(campaignRecipients.campaignId, id), eq(campaignRecipients.email, "grace@example.com")));
    await db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, id));
    await dispatch();
    const after = copies();
    expect(after).toHaveLength(first.length + 1);
    const again = after.at(-1)!;
    expect(again.envelopeTo).toEqual(["grace@example.com"]);
    expect(again.parsed.messageId).toBe(grace.parsed.messageId);
    expect(new Set(after.map((m) => m.parsed.messageId)).size).toBe(first.length);
    const r = (await owner.request({ url: api(`/campaigns/${id}/report`) })).json();
    expect(r.sent).toBe(r.recipients);
    expect((await owner.request({ url: api(`/campaigns/${id}`) })).json().campaign.status).toBe("sent");
  });

  it("sends again to someone who unsubscribed and then signed up again, never to a refused address", async () => {
    const popup = await owner.request({
      method: "PUT",
      url: api("/newsletter-popup"),
      payload: {
        enabled: true,
        title: "Join the studio letter",
        text: "News once a month.",
        buttonText: "Sign me up",
        trigger: { kind: "delay", seconds: 5 },
        frequencyDays: 14,
        doubleOptIn: false,
      },
    });
    expect(popup.statusCode, popup.body).toBe(200);
    const [unsubscribed] = await t.app.deps.db
      .select()
      .from(emailSuppressions)
      .where(eq(emailSuppressions.email, "ada@example.com"));
    expect(unsubscribed?.reason).toBe("unsubscribed");
    const visitor = await visitorFrom(t, "10.77.0.1");
    for (const email of ["ada@example.com", REFUSED]) {
      const res = await visitor.request({
        method: "POST",
        url: "/api/newsletter-popup/subscribe",
        payload: { email },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // The fresh consent cleared the unsubscribe and kept when it was; the refusal stays.
    const [ada] = await t.app.deps.db
      .select()
      .from(mailingListSubscribers)
      .where(eq(mailingListSubscribers.email, "ada@example.com"));
    expect(ada?.source).toBe("popup");
    expect(ada?.unsubscribedBeforeAt?.toISOString()).toBe(unsubscribed!.createdAt.toISOString());
    const left = await t.app.deps.db.select().from(emailSuppressions);
    expect(left.map((x) => [x.email, x.reason])).toEqual([[REFUSED, "refused"]]);

    const created = await owner.request({
      method: "POST",
      url: api("/campaigns"),
      payload: {
        subject: "Welcome back",
        audience: { kind: "subscribers" },
        blocks: [{ type: "text", html: "<p>Hi</p>" }],
      },
    });
    const id = created.json().campaign.id;
    await owner.request({ method: "POST", url: api(`/campaigns/${id}/send`), payload: {} });
    await dispatch();
    expect(received("ada@example.com").map((m) => m.parsed.subject)).toEqual([
      "New in the studio",
      "Welcome back",
    ]);
    expect(received(REFUSED)).toHaveLength(0);
    expect(refusedRcpt).toBe(1);
    const r = (await owner.request({ url: api(`/campaigns/${id}/report`) })).json();
    expect(r.sent).toBe(r.recipients);
    expect(r.refused).toBe(0);
  });

  it("keeps other owners out", async () => {
    const res = await t.app.inject({ url: api("/campaigns") });
    expect(res.statusCode).toBe(401);
  });
});
