/**
 * A campaign to 10,000 subscribers through the test SMTP server (smtp-server in this process):
 * prints messages per second and the process's peak memory (RSS), beside a baseline measured in
 * the same run: the same copy sent one email at a time through the outbox (queueEmail and its
 * nodemailer transport, run by the jobs queue).
 *
 *   npm run bench:campaign      BENCH_RECIPIENTS=10000 (default)  BENCH_BASELINE=500 (outbox emails)
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { createTestApp } from "../apps/server/test/harness.js";
import { startTestSmtp } from "../apps/server/test/smtp.js";
import { campaigns } from "../apps/server/src/db/schema.js";
import { rowsOf } from "../apps/server/src/db/rows.js";
import { dispatchCampaigns } from "../apps/server/src/modules/campaigns/sender.js";
import { createCampaign, sendCampaign } from "../apps/server/src/modules/campaigns/service.js";
import { queueEmail } from "../apps/server/src/modules/email/service.js";
import { runDueJobs } from "../apps/server/src/modules/jobs/service.js";
import { eq } from "drizzle-orm";

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const BASELINE = Number(process.env.BENCH_BASELINE ?? 500);

let peakRss = 0;
const sample = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

const smtp = await startTestSmtp();
let delivered = 0;
/** Counts and drops what the server received, so the server's own keeping does not grow memory. */
const drain = setInterval(() => {
  delivered += smtp.received.length;
  smtp.received.length = 0;
}, 100);

const t = await createTestApp({
  seed: true,
  env: { SMTP_URL: smtp.url, EMAIL_RATE_PER_MINUTE: "100000000" },
});
const { db } = t.database;
const deps = t.app.deps;
const [site] = rowsOf<{ id: string }>(
  await db.execute(sql`select id from websites where is_default limit 1`),
);
const websiteId = site!.id;
await db.execute(sql`insert into mailing_list_subscribers (id, website_id, email, source)
  select lpad(to_hex(g), 24, '0'), ${websiteId}, 'reader' || g || '@bench.example', 'bench'
  from generate_series(1, ${RECIPIENTS}) g on conflict do nothing`);
const blocks = [
  { type: "text" as const, html: "<p>Hello from the studio: three new pieces this week.</p>" },
  { type: "button" as const, text: "Shop now", url: "/shop" },
  { type: "divider" as const },
  { type: "social" as const },
];

// Baseline: the outbox, one email per job through nodemailer's transport.
const rssBefore = process.memoryUsage().rss;
let start = performance.now();
for (let i = 0; i < BASELINE; i++)
  await queueEmail(db, t.config, {
    websiteId,
    to: `base${i}@bench.example`,
    subject: "Baseline",
    text: "Hello",
    html: "<p>Hello</p>",
  });
while ((await runDueJobs(deps, "bench", 1000)).ran > 0);
const baselineSeconds = (performance.now() - start) / 1000;

const now = new Date();
const c = await createCampaign(
  db,
  websiteId,
  { subject: "Bench", audience: { kind: "subscribers" }, blocks },
  now,
);
delivered = 0;
smtp.received.length = 0;
peakRss = process.memoryUsage().rss;
start = performance.now();
await sendCampaign(db, websiteId, c.id, undefined, new Date());
for (;;) {
  await dispatchCampaigns(deps, 10_000);
  const [row] = await db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, c.id));
  if (row?.status !== "sending") break;
}
const seconds = (performance.now() - start) / 1000;
await new Promise((r) => setTimeout(r, 300));
delivered += smtp.received.length;
const sent = Number(
  rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from campaign_recipients where campaign_id = ${c.id} and status = 'sent'`,
    ),
  )[0]!.n,
);
clearInterval(sample);
clearInterval(drain);

console.log(
  `outbox baseline      ${BASELINE} emails in ${baselineSeconds.toFixed(1)} s: ${(BASELINE / baselineSeconds).toFixed(0)} messages/s`,
);
console.log(
  `campaign             ${sent} sent, ${delivered} received in ${seconds.toFixed(1)} s: ${(sent / seconds).toFixed(0)} messages/s`,
);
console.log(
  `peak memory (RSS)    ${mb(peakRss)} while sending (${mb(rssBefore)} before the baseline; max RSS of the process ${mb(process.resourceUsage().maxRSS * 1024)})`,
);
await t.close();
await smtp.close();
process.exit(0);
