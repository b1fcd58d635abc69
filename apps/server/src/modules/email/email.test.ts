import { type AddressInfo, createServer, type Server } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "../../../test/harness.js";
import * as s from "../../db/schema.js";
import { runDueJobs } from "../jobs/service.js";
import { EMAIL_MAX_ATTEMPTS, queueEmail, senderAddress } from "./service.js";

/** A tiny SMTP server that records what it receives (or refuses every message). */
function fakeSmtp(opts: { refuse?: boolean } = {}) {
  const received: { from: string; to: string[]; data: string }[] = [];
  const server: Server = createServer((socket) => {
    let mail = { from: "", to: [] as string[], data: "" };
    let inData = false;
    let buffer = "";
    socket.write("220 fake ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      while (true) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          mail.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(mail);
          mail = { from: "", to: [], data: "" };
          socket.write("250 queued\r\n");
          continue;
        }
        const nl = buffer.indexOf("\r\n");
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") socket.write("250-fake\r\n250 8BITMIME\r\n");
        else if (verb === "MAIL") {
          if (opts.refuse) socket.write("550 go away\r\n");
          else {
            mail.from = line;
            socket.write("250 ok\r\n");
          }
        } else if (verb === "RCPT") {
          mail.to.push(line);
          socket.write("250 ok\r\n");
        } else if (verb === "DATA") {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") {
          socket.end("221 bye\r\n");
        } else socket.write("250 ok\r\n");
      }
    });
    socket.on("error", () => {});
  });
  return {
    received,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
  const smtp = fakeSmtp();
  const refusing = fakeSmtp({ refuse: true });
  let t: TestApp;
  let badT: TestApp;
  beforeAll(async () => {
    const port = await smtp.listen();
    const badPort = await refusing.listen();
    t = await createTestApp({ clock, env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    badT = await createTestApp({ clock, env: { SMTP_URL: `smtp://127.0.0.1:${badPort}` } });
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
    expect(smtp.received[0]!.to[0]).toContain("reader@example.com");
    expect(smtp.received[0]!.data).toContain("Subject: Your order");
    expect(smtp.received[0]!.data).toContain("Reply-To: owner@example.com");
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
    expect(first!.lastError).toContain("go away");
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
