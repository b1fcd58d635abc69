/**
 * Who a campaign goes to. Only people who agreed are ever sent to, so every audience is a part of
 * the mailing list (newsletter blocks, the restock form's choice, imports with consent): all of
 * it, those of it who ordered (customers), those with a site account (site users), or those a
 * segment's rule picks. Addresses refused by their mail server are left out for good; those who
 * unsubscribed are left out unless they signed up again afterwards.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import type { StoredAudience, StoredSegmentRule } from "../../db/schema.js";
import { rowsOf } from "../../db/rows.js";

/** Orders that count as ordering (paid or later, refunded included). */
const ORDERED = sql`o.status <> 'pending'`;

function ruleCondition(websiteId: string, rule: StoredSegmentRule, now: Date): SQL {
  const buyer = sql`o.website_id = ${websiteId} and lower(o.email) = s.email and ${ORDERED}`;
  switch (rule.kind) {
    case "bought_product":
      return sql`exists (select 1 from orders o join order_lines l on l.order_id = o.id where ${buyer} and l.item_id = ${rule.productId})`;
    case "bought_category":
      return sql`exists (select 1 from orders o join order_lines l on l.order_id = o.id join content_items ci on ci.id = l.item_id where ${buyer} and ${rule.category} = any(ci.categories))`;
    case "spent_at_least":
      return sql`(select coalesce(sum(o.grand_total_cents - o.refunded_cents), 0) from orders o where ${buyer}) >= ${rule.amountCents}`;
    case "ordered_within_days":
      return sql`exists (select 1 from orders o where ${buyer} and o.created_at >= ${new Date(now.getTime() - rule.days * 86_400_000).toISOString()}::timestamptz)`;
    case "signed_up_through_form":
      return sql`s.source = ${`form:${rule.formId}`}`;
  }
}

/**
 * The SQL condition on a mailing-list row `s` of the audience. The subscriber's consent is the
 * row itself (a double opt-in still waiting for its confirmation is not consent; see the report).
 */
export function audienceCondition(
  websiteId: string,
  audience: StoredAudience,
  rule: StoredSegmentRule | undefined,
  now: Date,
): SQL {
  const base = sql`s.website_id = ${websiteId} and not s.confirmation_pending
    and not exists (select 1 from email_suppressions x where x.website_id = s.website_id and x.email = s.email
      and (x.reason = 'refused' or x.created_at >= s.created_at))`;
  switch (audience.kind) {
    case "subscribers":
      return base;
    case "customers":
      return sql`${base} and exists (select 1 from orders o where o.website_id = ${websiteId} and lower(o.email) = s.email and ${ORDERED})`;
    case "site_users":
      return sql`${base} and exists (select 1 from site_users u where u.website_id = ${websiteId} and lower(u.email) = s.email)`;
    case "segment":
      return rule ? sql`${base} and ${ruleCondition(websiteId, rule, now)}` : sql`false`;
  }
}

export async function countAudience(db: Db | Tx, condition: SQL): Promise<number> {
  const res = await db.execute(
    sql`select count(*)::int as n from mailing_list_subscribers s where ${condition}`,
  );
  return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
}

/** Rows copied into a campaign's recipients per transaction. */
export const MATERIALISE_PAGE = 1000;

/**
 * Copies the next page of the audience (by mailing-list id, after `after`) into the campaign's
 * recipients, in SQL: the rows never pass through this process. Answers the last id copied and
 * whether that was the last page.
 */
export async function materialisePage(
  tx: Tx,
  opts: { websiteId: string; campaignId: string; condition: SQL; after: string | null },
): Promise<{ last: string | null; done: boolean }> {
  const after = opts.after ?? "";
  const result = await tx.execute(sql`
    with page as (
      select s.id, s.email from mailing_list_subscribers s
      where ${opts.condition} and s.id > ${after}
      order by s.id limit ${MATERIALISE_PAGE}
    ), added as (
      insert into campaign_recipients (website_id, campaign_id, email)
      select ${opts.websiteId}, ${opts.campaignId}, email from page
      on conflict do nothing
    )
    select max(id) as last, count(*)::int as n from page`);
  const row = rowsOf<{ last: string | null; n: number }>(result)[0];
  const n = Number(row?.n ?? 0);
  return { last: row?.last ?? opts.after, done: n < MATERIALISE_PAGE };
}
