/**
 * A fresh, explicit consent (a newsletter block, the pop-up, the restock form's "join the mailing
 * list", a confirmed double opt-in) clears an earlier unsubscribe: the address may be sent to again.
 * The subscriber row keeps when the unsubscribe was (`unsubscribedBeforeAt`; the sign-up's own time
 * is the row's `createdAt`, or `confirmedAt` after a double opt-in). An address its mail server
 * refused for good (5xx) stays suppressed whatever the sign-up: mail to it cannot arrive.
 */
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { emailSuppressions, mailingListSubscribers } from "../../db/schema.js";

export async function clearUnsubscribe(db: Db | Tx, websiteId: string, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  const [cleared] = await db
    .delete(emailSuppressions)
    .where(
      and(
        eq(emailSuppressions.websiteId, websiteId),
        eq(emailSuppressions.email, address),
        eq(emailSuppressions.reason, "unsubscribed"),
      ),
    )
    .returning({ at: emailSuppressions.createdAt });
  if (!cleared) return;
  await db
    .update(mailingListSubscribers)
    .set({ unsubscribedBeforeAt: cleared.at })
    .where(and(eq(mailingListSubscribers.websiteId, websiteId), eq(mailingListSubscribers.email, address)));
}
