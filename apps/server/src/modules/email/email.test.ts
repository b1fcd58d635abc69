import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "../../../test/harness.js";
import { type TestSmtp, startTestSmtp } from "../../../test/smtp.js";
import * as s from "../../db/schema.js";
import { runDueJobs } from "../jobs/service.js";
import { EMAIL_MAX_ATTEMPTS, queueEmail, senderAddress } from "./service.js";

const clock = { offset: 0, now: () => new Date(Date.now() + clock.offset) };

describe("the outbox without SMTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());

  it("keeps emails as the record and queues no job", async () => {
    const id = await queueEmail(t.database.db, t.config, {
      to: "a@example.com",
      subject: "Hi\r\nBcc: x",
      text: "Hello",
    });
    const [row] = await t.database.db.select().from(s.outboundEmails).where(eq(s.outboundEmails.id, id));
    expect(row).toMatchObject({ status: "kept", subject: "Hi Bcc: x", toAddress: "a@example.com" });
    expect(await t.database.db.select().from(s.jobs)).toEqual([]);
    expect(senderAddress(t.config)).toBe("no-reply@localhost.localdomain");
  });
});

describe("the outbox with SMTP_URL", () => {
  let smtp: TestSmtp;
  let refusing: TestSmtp;
  let t: TestApp;
  let badT: TestApp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    refusing = await startTestSmtp({ refuse: () => true });
    t = await createTestApp({ clock, env: { SMTP_URL: smtp.url } });
    badT = await createTestApp({ clock, env: { SMTP_URL: refusing.url } });
  });
  afterAll(async () => {
    await t.close();
    await badT.close();
    await smtp.close();
    await refusing.close();
  });

  it("sends queued emails through a job", async () => {
    const id = await queueEmail(t.database.db, t.config, {
      to: "reader@example.com",
      subject: "Your order",
      text: "Thank you",
      html: "<p>Thank you</p>",
      fromName: "Atelier Demo",
      replyTo: "owner@example.com",
    });
    const [queued] = await t.database.db.select().from(s.outboundEmails).where(eq(s.outboundEmails.id, id));
    expect(queued!.status).toBe("queued");
    const run = await runDueJobs(t.app.deps, "test-worker");
    expect(run).toEqual({ ran: 1, failed: 0 });
    const [sent] = await t.database.db.select().from(s.outboundEmails).where(eq(s.outboundEmails.id, id));
    expect(sent).toMatchObject({ status: "sent", attempts: 1 });
    expect(sent!.sentAt).toBeInstanceOf(Date);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.envelopeTo).toEqual(["reader@example.com"]);
    expect(mail.parsed.subject).toBe("Your order");
    expect(mail.parsed.replyTo?.text).toBe("owner@example.com");
    expect(mail.parsed.from?.value[0]).toEqual({ name: "Atelier Demo", address: senderAddress(t.config) });
    expect(mail.parsed.text?.trim()).toBe("Thank you");
    expect(mail.parsed.html).toContain("<p>Thank you</p>");
    // Nothing is left to run.
    expect(await runDueJobs(t.app.deps, "test-worker")).toEqual({ ran: 0, failed: 0 });
  });

  it("retries a refused email later and marks it failed after the last attempt", async () => {
    const id = await queueEmail(badT.database.db, badT.config, {
      to: "x@example.com",
      subject: "S",
      text: "T",
    });
    expect(await runDueJobs(badT.app.deps, "w")).toEqual({ ran: 0, failed: 1 });
    const [first] = await badT.database.db.select().from(s.outboundEmails).where(eq(s.outboundEmails.id, id));
    expect(first).toMatchObject({ status: "queued", attempts: 1 });
    expect(first!.lastError).toContain("No such mailbox");
    // Not due again until the retry delay has passed.
    expect(await runDueJobs(badT.app.deps, "w")).toEqual({ ran: 0, failed: 0 });
    try {
      for (let i = 2; i <= EMAIL_MAX_ATTEMPTS; i++) {
        clock.offset += 2 * 3_600_000;
        expect(await runDueJobs(badT.app.deps, "w")).toEqual({ ran: 0, failed: 1 });
      }
      clock.offset += 2 * 3_600_000;
      expect(await runDueJobs(badT.app.deps, "w")).toEqual({ ran: 0, failed: 0 });
    } finally {
      clock.offset = 0;
    }
    const [last] = await badT.database.db.select().from(s.outboundEmails).where(eq(s.outboundEmails.id, id));
    expect(last).toMatchObject({ status: "failed", attempts: EMAIL_MAX_ATTEMPTS });
  });
});
