/**
 * One SMTP connection that sends a campaign's copies one after another (SMTP_URL, parsed as the
 * outbox's nodemailer transport parses it). Each copy is held before the end of its DATA: the
 * caller records it as sent, and only then is the final "." written. A process that dies before
 * recording leaves the message unfinished, and the server discards it; so a copy is delivered at
 * most once, and the next process sends the ones that were not recorded.
 */
import { Readable } from "node:stream";
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
}

/** What the server said: delivered, refused for good (5xx), or not now (try again later). */
export type SendOutcome =
  | { kind: "sent" }
  | { kind: "refused"; message: string }
  | { kind: "retry"; message: string }
  /** The caller did not record it as sent (lost the claim, the campaign was cancelled): not sent. */
  | { kind: "withheld" };

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

  /**
   * Sends one copy; `record` runs once the server has taken the whole message but before it is
   * finished, and answers whether to finish it (true) or drop it (false).
   */
  async send(copy: OutgoingCopy, record: () => Promise<boolean>): Promise<SendOutcome> {
    const raw = await new MailComposer({
      from: copy.from,
      to: copy.to,
      replyTo: copy.replyTo,
      subject: copy.subject,
      text: copy.text,
      html: copy.html,
      headers: copy.headers,
    })
      .compile()
      .build();
    let connection: SMTPConnection;
    try {
      connection = await this.open();
    } catch (err) {
      return { kind: "retry", message: messageOf(err) };
    }
    let recorded: Promise<boolean> | undefined;
    let pushed = false;
    const body = new Readable({
      read() {
        if (pushed) return;
        pushed = true;
        this.push(raw);
        recorded = record().catch(() => false);
        recorded.then((finish) => {
          if (finish) this.push(null);
          else {
            // Never finish it: closing the connection mid-DATA makes the server discard it.
            connection.close();
            this.destroy();
          }
        });
      },
    });
    const outcome = await new Promise<SendOutcome>((resolve) => {
      connection.send({ from: copy.from.address, to: [copy.to] }, body, (err) => {
        if (!err) return resolve({ kind: "sent" });
        const code = (err as { responseCode?: number }).responseCode;
        if (recorded === undefined || code !== undefined)
          return resolve(
            code && code >= 500
              ? { kind: "refused", message: messageOf(err) }
              : { kind: "retry", message: messageOf(err) },
          );
        resolve({ kind: "withheld" });
      });
    });
    if (outcome.kind !== "sent" && this.connection === connection && recorded !== undefined) {
      // A message that failed after its DATA leaves the connection in no known state.
      connection.close();
      this.connection = undefined;
    } else if (outcome.kind !== "sent") {
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
    if (outcome.kind === "sent" && recorded && !(await recorded)) return { kind: "withheld" };
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
