/**
 * A real SMTP server in the test process (smtp-server), keeping every message it receives parsed
 * by mailparser; `refuse` answers each message with a permanent 550, as a mailbox that does not exist.
 */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  envelopeTo: string[];
  parsed: ParsedMail;
  raw: string;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

export async function startTestSmtp(opts: { refuse?: (address: string) => boolean } = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (opts.refuse?.(address.address)) {
        const err = Object.assign(new Error("5.1.1 No such mailbox here"), { responseCode: 550 });
        callback(err);
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw)
          .then((parsed) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), parsed, raw });
            callback();
          })
          .catch(callback);
      });
    },
  });
  // A sender killed mid-conversation resets its connection: expected here, not a failure.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
