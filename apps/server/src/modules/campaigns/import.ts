/**
 * Importing subscribers from a CSV file (`email`, `consent`, optionally `firstName`, `lastName`):
 * only the lines whose consent says yes join the list; each line's fate is reported.
 */
import { isValidEmail } from "@atelier/forms";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { emailSuppressions, mailingListSubscribers } from "../../db/schema.js";
import { badRequest } from "../../http/errors.js";
import { csvHeader, csvRecords } from "../../lib/csv.js";
import { normalizeEmail } from "../../lib/email.js";
import { newId } from "../../lib/ids.js";

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_LINES = 50_000;
export const NEEDS_COLUMNS =
  "The file needs an email column and a consent column (yes or true for those who agreed).";

export interface ImportLine {
  line: number;
  email: string;
  result: "imported" | "skipped";
  reason?: string;
}

const CONSENTED = new Set(["yes", "true", "y", "1"]);

export async function importSubscribers(db: Db, websiteId: string, csv: string, now: Date) {
  const header = csvHeader(csv).map((h) => h.toLowerCase());
  if (!header.includes("email") || !header.includes("consent"))
    throw badRequest(NEEDS_COLUMNS, { file: NEEDS_COLUMNS });
  const records = csvRecords(csv);
  if (records.length > IMPORT_MAX_LINES)
    throw badRequest(`Import at most ${IMPORT_MAX_LINES} lines at a time.`, {
      file: `Import at most ${IMPORT_MAX_LINES} lines at a time.`,
    });
  const lines: ImportLine[] = [];
  const seen = new Set<string>();
  const wanted: { line: ImportLine; firstName: string; lastName: string }[] = [];
  for (const r of records) {
    const email = normalizeEmail(r.get("email"));
    const line: ImportLine = { line: r.line, email, result: "skipped" };
    lines.push(line);
    if (!isValidEmail(email)) line.reason = "Not a valid email address.";
    else if (!CONSENTED.has(r.get("consent").toLowerCase()))
      line.reason = "No consent: the consent column does not say yes.";
    else if (seen.has(email)) line.reason = "Already earlier in the file.";
    else {
      seen.add(email);
      wanted.push({
        line,
        firstName: r.get("firstName").slice(0, 100),
        lastName: r.get("lastName").slice(0, 100),
      });
    }
  }
  await db.transaction(async (tx) => {
    for (let i = 0; i < wanted.length; i += 500) {
      const chunk = wanted.slice(i, i + 500);
      const emails = chunk.map((w) => w.line.email);
      const refused = new Map(
        (
          await tx
            .select({ email: emailSuppressions.email, reason: emailSuppressions.reason })
            .from(emailSuppressions)
            .where(and(eq(emailSuppressions.websiteId, websiteId), inArray(emailSuppressions.email, emails)))
        ).map((s) => [s.email, s.reason]),
      );
      const fresh = chunk.filter((w) => {
        const reason = refused.get(w.line.email);
        if (reason)
          w.line.reason =
            reason === "refused" ? "Its mail server refuses mail for it." : "They unsubscribed.";
        return !reason;
      });
      if (!fresh.length) continue;
      const added = new Set(
        (
          await tx
            .insert(mailingListSubscribers)
            .values(
              fresh.map((w) => ({
                id: newId(),
                websiteId,
                email: w.line.email,
                source: "import",
                firstName: w.firstName,
                lastName: w.lastName,
                createdAt: now,
              })),
            )
            .onConflictDoNothing()
            .returning({ email: mailingListSubscribers.email })
        ).map((r) => r.email),
      );
      for (const w of fresh) {
        if (added.has(w.line.email)) w.line.result = "imported";
        else w.line.reason = "Already on the mailing list.";
      }
    }
  });
  return {
    imported: lines.filter((l) => l.result === "imported").length,
    skipped: lines.filter((l) => l.result === "skipped").length,
    lines,
  };
}
