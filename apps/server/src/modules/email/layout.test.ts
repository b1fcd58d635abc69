import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp, demoOwner, demoSite } from "../../../test/harness.js";
import { type TestSmtp, startTestSmtp } from "../../../test/smtp.js";
import { runDueJobs } from "../jobs/service.js";
import { emailBrandOf, renderEmail, unsubscribeHeaders } from "./layout.js";
import { queueEmail } from "./service.js";

describe("the site's email layout", () => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({ seed: true, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("wears the site's colours and fonts, inlined, with a plain-text twin", async () => {
    const { owner, siteId } = await demoOwner(t);
    const res = await owner.request({
      method: "PATCH",
      url: `/api/owner/sites/${siteId}/design`,
      payload: { styles: { colors: { accent: "#7a1f5c" }, fonts: { heading: "lora" } } },
    });
    expect(res.statusCode).toBe(200);
    const site = await demoSite(t.database.db);
    const brand = await emailBrandOf(t.database.db, site, "https://shop.example.com/");
    expect(brand.colors.accent).toBe("#7a1f5c");
    expect(brand.fonts.heading).toContain("Lora");
    const { html, text } = renderEmail(brand, {
      preheader: "Your cart is waiting",
      blocks: [
        { type: "heading", text: "You left <these> behind" },
        {
          type: "items",
          items: [
            {
              name: "Mug",
              details: "Colour: Blue",
              quantity: 2,
              price: "$24.00",
              imageUrl: "/media/x/mug.jpg",
              url: "/shop/mug",
            },
          ],
        },
        {
          type: "totals",
          rows: [
            ["Subtotal", "$24.00"],
            ["Total", "$24.00"],
          ],
        },
        { type: "button", text: "Back to your cart", url: "/cart/recover/abc" },
      ],
      footer: ["1 Main Street, Springfield"],
      unsubscribeUrl: "https://shop.example.com/email/unsubscribe/t0k",
    });
    // Inlined: the heading and the button carry their style on the element, in the site's font and colour.
    expect(html).toMatch(/<h1 style="[^"]*font-family:[^"]*Lora/);
    expect(html).toMatch(/<td class="button" style="[^"]*background:\s*#7a1f5c/);
    expect(html).toContain('href="https://shop.example.com/cart/recover/abc"');
    expect(html).toContain('src="https://shop.example.com/media/x/mug.jpg" width="64"');
    expect(html).toContain("You left &lt;these&gt; behind");
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("Your cart is waiting");
    expect(text).toContain("2 × Mug (Colour: Blue)  $24.00");
    expect(text).toContain("Back to your cart: https://shop.example.com/cart/recover/abc");
    expect(text).toContain("Unsubscribe: https://shop.example.com/email/unsubscribe/t0k");
    expect(text).toContain("1 Main Street, Springfield");
  });

  it("sends both parts and the one-click unsubscribe headers through SMTP", async () => {
    const site = await demoSite(t.database.db);
    const brand = await emailBrandOf(t.database.db, site, "https://shop.example.com");
    const unsubscribe = "https://shop.example.com/email/unsubscribe/t0k";
    const { html, text } = renderEmail(brand, {
      blocks: [{ type: "text", text: "News\nof the week" }],
      unsubscribeUrl: unsubscribe,
    });
    await queueEmail(t.database.db, t.config, {
      websiteId: site.id,
      to: "reader@example.com",
      subject: "News",
      text,
      html,
      headers: { ...unsubscribeHeaders(unsubscribe), "X-Evil": "a\r\nBcc: victim@example.com" },
    });
    await runDueJobs(t.app.deps, "w");
    const mail = smtp.received.at(-1)!;
    expect(mail.raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(mail.raw).toContain(`List-Unsubscribe: <${unsubscribe}>`);
    expect(mail.parsed.text).toContain("News\nof the week");
    expect(mail.parsed.html).toContain("News<br>of the week");
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.raw).toContain("X-Evil: a Bcc: victim@example.com");
    expect(mail.envelopeTo).toEqual(["reader@example.com"]);
  });
});
