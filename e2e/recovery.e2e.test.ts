/**
 * Abandoned-checkout recovery in Chromium, on a server of this file's own whose clock the test
 * moves: the owner turns recovery emails on in the dashboard; a shopper enters an email at
 * checkout and leaves; past an hour the reminder is in the outbox; its link, opened in a fresh
 * browser context, restores the cart; the purchase is made and no further reminder is sent; the
 * dashboard lists the checkout as recovered. Screenshots at desktop and phone width.
 */
import { and, eq, gte } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { abandonedCheckouts, jobs, outboundEmails, websites } from "../apps/server/src/db/schema.js";
import { SCAN_JOB } from "../apps/server/src/modules/recovery/service.js";
import { seedDemoIfEmpty } from "../apps/server/src/seed/demo.js";
import { DESKTOP, PHONE, browser, screenshot } from "./browser.js";
import { ownerLogIn } from "./owner.js";
import { useOwnServer } from "./own-server.js";
import { addCandle, fillCheckout } from "./shopper.js";

let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };
const server = useOwnServer(
  "recovery",
  (database, config) => seedDemoIfEmpty(database.db, config, clock),
  {},
  clock,
);
const base = () => `http://localhost:${server.port}`;
const db = () => server.database.db;
const SHOPPER = "leaver@example.com";
const HOUR = 3_600_000;

const siteId = async () => (await db().select().from(websites).where(eq(websites.isDefault, true)))[0]!.id;
/** The recovery reminders in the outbox for an address (not its order confirmation). */
const remindersTo = async (to: string) =>
  (await db().select().from(outboundEmails).where(eq(outboundEmails.toAddress, to))).filter((m) =>
    m.textBody.includes("/cart/recover/"),
  );
/** Waits for a scan of the jobs queue that ran on the moved clock. */
async function scannedAfter(when: Date) {
  await expect
    .poll(
      async () =>
        (
          await db()
            .select({ id: jobs.id })
            .from(jobs)
            .where(and(eq(jobs.kind, SCAN_JOB), gte(jobs.doneAt, when)))
        ).length,
      { timeout: 20_000, interval: 200 },
    )
    .toBeGreaterThan(0);
}

describe("abandoned-checkout recovery in a browser", () => {
  it("the owner turns recovery emails on under Marketing", async () => {
    const { context, page, errors } = await ownerLogIn(browser, base());
    await page.goto(`${base()}/config/sites/${await siteId()}/marketing/abandoned-checkouts`);
    await page.getByRole("heading", { name: "Abandoned checkouts", level: 1 }).waitFor();
    await page.getByLabel("Email shoppers who leave a checkout").check();
    await expect(page.getByLabel("Subject").first().inputValue()).resolves.toBe(
      "You left something in your cart",
    );
    await page.getByRole("button", { name: "Save recovery emails" }).click();
    await page.getByText("Recovery emails saved.").waitFor();
    await screenshot(page, "recovery-settings-desktop");
    // The first reminder carries a single-use 10 % code made for the cart.
    const url = `/api/owner/sites/${await siteId()}/abandoned-checkouts/settings`;
    const crumb = (await context.cookies()).find((c) => c.name === "crumb")?.value ?? "";
    const settings = await (await page.request.get(`${base()}${url}`)).json();
    settings.reminders[0].discount = { kind: "percentage", value: 10 };
    const saved = await page.request.put(`${base()}${url}`, {
      headers: { "x-csrf-token": crumb },
      data: settings,
    });
    expect(saved.status(), await saved.text()).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a shopper who leaves comes back by the reminder's link, buys, and gets no more reminders", async () => {
    // The shopper puts a candle in the cart, types their email at checkout, moves on, and leaves.
    const first = await browser.newContext({ viewport: DESKTOP });
    const page = await first.newPage();
    await addCandle(page, 1, base());
    await page.goto(`${base()}/checkout`);
    await page.getByRole("button", { name: /^Pay \$/ }).waitFor();
    await page.getByLabel("Email", { exact: true }).fill(SHOPPER);
    await page.getByLabel("First name", { exact: true }).first().focus();
    await expect
      .poll(
        async () =>
          (await db().select().from(abandonedCheckouts).where(eq(abandonedCheckouts.email, SHOPPER))).length,
      )
      .toBe(1);
    await first.close();

    // Past an hour of quiet and the first reminder's hour, the jobs queue sends it.
    offset = 2 * HOUR + 5 * 60_000;
    await expect
      .poll(async () => (await remindersTo(SHOPPER)).length, { timeout: 20_000, interval: 200 })
      .toBe(1);
    const [reminder] = await remindersTo(SHOPPER);
    expect(reminder!.subject).toBe("You left something in your cart");
    expect(reminder!.htmlBody).toContain("Beeswax Pillar Candle");
    const link = /http:\/\/[^\s]+\/cart\/recover\/[A-Za-z0-9._-]+/.exec(reminder!.textBody)?.[0];
    expect(link).toBeDefined();

    // A fresh browser (no cookies) opens the link: the cart is back, and the purchase goes through.
    const second = await browser.newContext({ viewport: PHONE });
    const back = await second.newPage();
    const errors: string[] = [];
    back.on("pageerror", (e) => errors.push(e.message));
    await back.goto(`${base()}${new URL(link!).pathname}`);
    await back.waitForURL(/\/cart$/);
    await back.getByText("Beeswax Pillar Candle").first().waitFor();
    await screenshot(back, "recovery-restored-cart-phone");
    await back.goto(`${base()}/checkout`);
    // The reminder's code came back with the cart: the checkout applies it without typing.
    const code = /code (BACK-[A-Z0-9]+)/.exec(reminder!.textBody)?.[1];
    expect(code).toBeDefined();
    await back.locator(".checkout-codes").getByText(code!).first().waitFor();
    await back.locator(".checkout-totals").getByText(`Discount (${code})`).waitFor();
    await screenshot(back, "recovery-checkout-code-phone");
    await fillCheckout(back, "4242 4242 4242 4242", SHOPPER);
    await back.getByRole("button", { name: /^Pay \$/ }).click();
    await back.waitForURL(/\/checkout\/order-confirmed\?orderId=[a-f0-9]{24}&token=/);
    expect(errors).toEqual([]);
    await second.close();

    // Days later the scan has run again, and no further reminder went out.
    offset = 100 * HOUR;
    await scannedAfter(clock.now());
    expect(await remindersTo(SHOPPER)).toHaveLength(1);
    await expect
      .poll(
        async () =>
          (await db().select().from(abandonedCheckouts).where(eq(abandonedCheckouts.email, SHOPPER)))[0]
            ?.orderId,
      )
      .toBeTruthy();
  });

  it("the dashboard lists the checkout as recovered, with the recovered revenue (phone)", async () => {
    const { context, page, errors } = await ownerLogIn(browser, base(), PHONE);
    await page.goto(`${base()}/config/sites/${await siteId()}/marketing/abandoned-checkouts`);
    const row = page.getByRole("row").filter({ hasText: SHOPPER });
    await row.getByText("Recovered").waitFor();
    await expect(page.locator(".recovery-figure .figure").innerText()).resolves.not.toBe("$0.00");
    await screenshot(page, "recovery-list-phone");
    expect(errors).toEqual([]);
    await context.close();
  });
});
