/**
 * One SMTP connection that sends a campaign's copies one after another (SMTP_URL, parsed as the
 * outbox's nodemailer transport parses it). Each copy carries the Message-ID its caller gives it
 * (the same for every attempt at one recipient's copy), and is sent whole: the caller records it
 * as sent once the server has answered 250. A process that dies between the server taking the
 * message and that record leaves the row in flight; the next process sends it again with the same
 * Message-ID, which the receiving mail system recognises as the copy it already has.
 */
import MailComposer from "nodemailer/lib/mail-composer";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import SMTPConnection from "nodemailer/lib/smtp-connection";

export interface OutgoingCopy {
  from: { name: string; address: string };
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** `<…@…>`, the same on every attempt at this copy. */
  messageId: string;
}

/** What the server said: delivered, refused for good (5xx), or not now (try again later). */
export type SendOutcome =
  | { kind: "sent" }
  | { kind: "refused"; message: string }
  | { kind: "retry"; message: string };

export class CampaignSmtp {
  private connection: SMTPConnection | undefined;
  private connecting: Promise<SMTPConnection> | undefined;
  constructor(private readonly smtpUrl: string) {}

  private open(): Promise<SMTPConnection> {
    if (this.connection) return Promise.resolve(this.connection);
    if (this.connecting) return this.connecting;
    const options = parseConnectionUrl(this.smtpUrl) as Record<string, unknown>;
    const auth = options.auth as { user?: string; pass?: string } | undefined;
    this.connecting = new Promise<SMTPConnection>((resolve, reject) => {
      const c = new SMTPConnection({ ...options, connectionTimeout: 30_000, socketTimeout: 60_000 } as never);
      c.once("error", (err) => {
        this.connection = undefined;
        reject(err);
      });
      c.on("end", () => {
        if (this.connection === c) this.connection = undefined;
      });
      c.connect(() => {
        const ready = () => {
          c.removeAllListeners("error");
          c.on("error", () => {
            if (this.connection === c) this.connection = undefined;
          });
          this.connection = c;
          resolve(c);
        };
        if (auth?.user)
          c.login({ user: auth.user, pass: auth.pass ?? "" }, (err) => (err ? reject(err) : ready()));
        else ready();
      });
    }).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Sends one copy whole and answers what the server said. */
  async send(copy: OutgoingCopy): Promise<SendOutcome> {
    const raw = await new MailComposer({
      from: copy.from,
      to: copy.to,
      replyTo: copy.replyTo,
      subject: copy.subject,
      text: copy.text,
      html: copy.html,
      headers: copy.headers,
      messageId: copy.messageId,
    })
      .compile()
      .build();
    let connection: SMTPConnection;
    try {
      connection = await this.open();
    } catch (err) {
      return { kind: "retry", message: messageOf(err) };
    }
    const outcome = await new Promise<SendOutcome>((resolve) => {
      connection.send({ from: copy.from.address, to: [copy.to] }, raw, (err) => {
        if (!err) return resolve({ kind: "sent" });
        const code = (err as { responseCode?: number }).responseCode;
        resolve(
          code && code >= 500
            ? { kind: "refused", message: messageOf(err) }
            : { kind: "retry", message: messageOf(err) },
        );
      });
    });
    if (outcome.kind !== "sent") {
      await new Promise<void>((resolve) =>
        connection.reset((err) => {
          if (err) {
            connection.close();
            if (this.connection === connection) this.connection = undefined;
          }
          resolve();
        }),
      );
    }
    return outcome;
  }

  close(): void {
    this.connection?.quit();
    this.connection = undefined;
  }
}

function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}
