/**
 * A campaign survives its sending process being killed (SIGKILL) halfway: after a restart the
 * next process sends the rest, and each of the 2,000 recipients gets the campaign exactly once,
 * counted as a mailbox counts it, by Message-ID: one Message-ID per recipient, no one missing. The
 * one copy that may have been on its way at the kill can arrive a second time on the wire, under
 * the same Message-ID (SMTP has no way to ask the server whether it took a message; see
 * docs/campaigns.md), and no other copy is ever sent twice.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FetchClient, firstSiteId, signInDemoOwner } from "./fetch-client.js";
import type { ChildProcess } from "node:child_process";
import { exited, freePort, startServer, useChildDatabase, waitHealthy } from "./server-process.js";
import { startTestSmtp } from "./smtp.js";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-campaign-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const databaseUrl = useChildDatabase("atelier_campaign_crash");
const RECIPIENTS = 2000;
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

describe("a campaign and a server crash", () => {
  it("reaches every recipient exactly once after the sending process was killed halfway", async () => {
    const smtp = await startTestSmtp();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      SMTP_URL: smtp.url,
      EMAIL_RATE_PER_MINUTE: "600000",
      PUBLIC_URL: base,
      DATABASE_URL: databaseUrl(),
    };
    try {
      const first = startServer(port, dataDir, env);
      children.push(first);
      await waitHealthy(base);
      const owner = new FetchClient(base);
      expect((await signInDemoOwner(owner)).status).toBe(200);
      const siteId = await firstSiteId(owner);
      const api = (p: string) => `/api/owner/sites/${siteId}${p}`;
      const lines = ["email,consent"];
      for (let i = 0; i < RECIPIENTS; i++) lines.push(`reader${i}@crash.example,yes`);
      const form = new FormData();
      form.append("file", new Blob([lines.join("\n")], { type: "text/csv" }), "list.csv");
      const imported = await owner.call(api("/subscribers/import"), "POST", form);
      expect(imported.status).toBe(200);
      expect(((await imported.json()) as { report: { imported: number } }).report.imported).toBe(RECIPIENTS);
      const created = await owner.call(api("/campaigns"), "POST", {
        subject: "Crash-proof",
        audience: { kind: "subscribers" },
        blocks: [{ type: "text", html: "<p>Once each.</p>" }],
      });
      expect(created.status).toBe(201);
      const { campaign } = (await created.json()) as { campaign: { id: string } };
      expect((await owner.call(api(`/campaigns/${campaign.id}/send`), "POST", {})).status).toBe(202);

      const ours = () => smtp.received.filter((m) => m.envelopeTo[0]?.endsWith("@crash.example"));
      await expect
        .poll(() => ours().length, { timeout: 120_000, interval: 20 })
        .toBeGreaterThan(RECIPIENTS / 3);
      first.kill("SIGKILL");
      await exited(first);
      const atCrash = ours().length;
      expect(atCrash).toBeLessThan(RECIPIENTS);

      const second = startServer(port, dataDir, env);
      children.push(second);
      await waitHealthy(base);
      await expect
        .poll(
          async () => {
            const res = await owner.call(api(`/campaigns/${campaign.id}`));
            return ((await res.json()) as { campaign: { status: string } }).campaign.status;
          },
          { timeout: 200_000, interval: 500 },
        )
        .toBe("sent");
      const messageIds = new Map<string, Set<string>>();
      for (const m of ours()) {
        const to = m.envelopeTo[0]!;
        const ids = messageIds.get(to) ?? new Set<string>();
        ids.add(m.parsed.messageId ?? "");
        messageIds.set(to, ids);
      }
      const missing = lines
        .slice(1)
        .map((l) => l.split(",")[0]!)
        .filter((a) => !messageIds.has(a));
      expect(missing).toEqual([]);
      expect(messageIds.size).toBe(RECIPIENTS);
      const distinct = new Set<string>();
      for (const [to, ids] of messageIds) {
        expect([to, ids.size]).toEqual([to, 1]);
        const [id] = [...ids];
        expect(id).toMatch(new RegExp(`^<campaign\\.${campaign.id}\\.\\d+@`));
        distinct.add(id!);
      }
      expect(distinct.size).toBe(RECIPIENTS);
      // On the wire: at most the one copy that was on its way when the process was killed.
      expect(ours().length - RECIPIENTS).toBeLessThanOrEqual(1);
      const report = (await (await owner.call(api(`/campaigns/${campaign.id}/report`))).json()) as {
        sent: number;
        recipients: number;
      };
      expect(report.sent).toBe(report.recipients);
      second.kill("SIGTERM");
      expect(await exited(second)).toBe(0);
    } finally {
      await smtp.close();
    }
  }, 600_000);
});
