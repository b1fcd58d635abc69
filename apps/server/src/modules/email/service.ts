/**
 * The outbox: every email the product sends is first a row of `outbound_emails`. With SMTP_URL
 * set, a job sends it through nodemailer (retrying on failure); without it the row is kept as
 * the record and owners read it in their outbox.
 */
import type { OutboxPage } from "@atelier/owner-api";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Config } from "../../config.js";
import type { Db, Tx } from "../../db/client.js";
import { compiled } from "../../db/compiled.js";
import { outboundEmails } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { newId } from "../../lib/ids.js";
import { selectOffsetPage } from "../../lib/paging.js";
import { enqueueJob, registerJobHandler } from "../jobs/service.js";

const EMAIL_JOB = "email.send";
/** Sending is tried this many times before the email is marked failed. */
export const EMAIL_MAX_ATTEMPTS = 5;

export interface EmailMessage {
  /** The site the email is about; null for product emails. */
  websiteId?: string | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Display name of the sender, e.g. the site's title. */
  fromName?: string;
  replyTo?: string;
  /** Extra headers (see unsubscribeHeaders in layout.ts); no line breaks. */
  headers?: Record<string, string>;
}

/** The sender address: no-reply at the public host. */
export function senderAddress(config: Config): string {
  let host = "localhost";
  try {
    host = new URL(config.publicUrl).hostname || host;
  } catch {
    // keep localhost
  }
  return `no-reply@${host.includes(".") ? host : `${host}.localdomain`}`;
}

/** Header values on one line each (a value can never add a header of its own). */
function cleanHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k.replace(/[^A-Za-z0-9-]/g, ""), v.replace(/[\r\n]+/g, " ")]),
  );
}

const insertEmail = compiled("email_queue", (db) => {
  const p = sql.placeholder;
  return db.insert(outboundEmails).values({
    id: p("id"),
    websiteId: p("websiteId"),
    toAddress: p("toAddress"),
    subject: p("subject"),
    textBody: p("textBody"),
    htmlBody: p("htmlBody"),
    headers: p("headers"),
    status: p("status"),
  });
});

/** An email's outbox row, and the sending job's values when the server can send (SMTP). */
export interface OutboxEmail {
  row: {
    id: string;
    websiteId: string | null;
    toAddress: string;
    subject: string;
    textBody: string;
    htmlBody: string | null;
    headers: Record<string, string> | null;
    status: "queued" | "kept";
  };
  job?: { kind: string; payload: Record<string, unknown>; maxAttempts: number };
}

/** What queueing `message` writes (a statement of its own may write it: checkout/settle-paid.ts). */
export function outboxEmail(config: Config, message: EmailMessage): OutboxEmail {
  const id = newId();
  const sendable = Boolean(config.smtpUrl);
  return {
    row: {
      id,
      websiteId: message.websiteId ?? null,
      toAddress: message.to,
      subject: message.subject.replace(/[\r\n]+/g, " ").slice(0, 300),
      textBody: message.text,
      htmlBody: message.html ?? null,
      headers: message.headers ? cleanHeaders(message.headers) : null,
      status: sendable ? "queued" : "kept",
    },
    job: sendable
      ? {
          kind: EMAIL_JOB,
          payload: { emailId: id, fromName: message.fromName ?? null, replyTo: message.replyTo ?? null },
          maxAttempts: EMAIL_MAX_ATTEMPTS,
        }
      : undefined,
  };
}

/**
 * Queues an email. Pass the caller's transaction: the email exists (and is sent) only when the
 * caller's work commits. Answers the outbox row's id.
 */
export async function queueEmail(db: Db | Tx, config: Config, message: EmailMessage): Promise<string> {
  const { row, job } = outboxEmail(config, message);
  await insertEmail(db, row);
  if (job) await enqueueJob(db, job.kind, job.payload, { maxAttempts: job.maxAttempts });
  return row.id;
}

const transports = new Map<string, Transporter>();
function transportFor(smtpUrl: string): Transporter {
  let t = transports.get(smtpUrl);
  if (!t) {
    t = nodemailer.createTransport(smtpUrl);
    transports.set(smtpUrl, t);
  }
  return t;
}

/** Sends one queued email (the job's work). Throws to have the job retried. */
async function sendQueuedEmail(
  deps: Deps,
  emailId: string,
  opts: { fromName?: string | null; replyTo?: string | null; lastAttempt?: boolean } = {},
): Promise<void> {
  const { db, config, clock } = deps;
  const [email] = await db.select().from(outboundEmails).where(eq(outboundEmails.id, emailId));
  if (!email || email.status === "sent") return;
  if (!config.smtpUrl) {
    await db.update(outboundEmails).set({ status: "kept" }).where(eq(outboundEmails.id, emailId));
    return;
  }
  const from = senderAddress(config);
  try {
    await transportFor(config.smtpUrl).sendMail({
      from: opts.fromName ? { name: opts.fromName, address: from } : from,
      to: email.toAddress,
      subject: email.subject,
      text: email.textBody,
      ...(email.htmlBody ? { html: email.htmlBody } : {}),
      ...(email.headers ? { headers: email.headers } : {}),
      ...(opts.replyTo ? { replyTo: opts.replyTo } : {}),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await db
      .update(outboundEmails)
      .set({
        attempts: email.attempts + 1,
        lastError: message.slice(0, 2000),
        status: opts.lastAttempt ? "failed" : "queued",
      })
      .where(eq(outboundEmails.id, emailId));
    throw err;
  }
  await db
    .update(outboundEmails)
    .set({ status: "sent", attempts: email.attempts + 1, sentAt: clock.now(), lastError: null })
    .where(eq(outboundEmails.id, emailId));
}

registerJobHandler(EMAIL_JOB, async (deps, payload, job) => {
  await sendQueuedEmail(deps, String(payload.emailId), {
    fromName: typeof payload.fromName === "string" ? payload.fromName : null,
    replyTo: typeof payload.replyTo === "string" ? payload.replyTo : null,
    lastAttempt: job.attempts >= job.maxAttempts,
  });
});

/** A site's outbox, newest first. */
export async function listOutbox(
  db: Db,
  websiteId: string,
  opts: { limit: number; offset: number; status?: string },
): Promise<OutboxPage> {
  const where = and(
    eq(outboundEmails.websiteId, websiteId),
    opts.status ? eq(outboundEmails.status, opts.status) : undefined,
  );
  const order = [desc(outboundEmails.createdAt), desc(outboundEmails.id)];
  const { rows, total } = await selectOffsetPage(db, outboundEmails, where, order, opts);
  return {
    emails: rows.map((r) => ({
      id: r.id,
      to: r.toAddress,
      subject: r.subject,
      text: r.textBody,
      html: r.htmlBody,
      status: r.status,
      attempts: r.attempts,
      lastError: r.lastError,
      createdOn: r.createdAt.getTime(),
      sentOn: r.sentAt ? r.sentAt.getTime() : null,
    })),
    total,
  };
}

/** Emails kept longer than this are deleted by housekeeping. */
export const OUTBOX_RETENTION_DAYS = 90;

export async function pruneOutbox(db: Db, before: Date): Promise<void> {
  await db.delete(outboundEmails).where(lt(outboundEmails.createdAt, before));
}
