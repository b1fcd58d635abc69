/**
 * The compose screen's live preview (`POST …/campaigns/preview`): the email as a recipient gets it,
 * in the site's design, from fields not yet saved; bad blocks answer 400; only the site's members
 * with the marketing area read it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, type TestApp, demoApp, ownerWithSite } from "../../../test/harness.js";

let t: TestApp;
let owner: Browser;
let siteId: string;
const url = () => `/api/owner/sites/${siteId}/campaigns/preview`;

beforeAll(async () => {
  ({ t, owner, siteId } = await demoApp());
}, 300_000);
afterAll(async () => {
  await t?.close();
});

describe("the campaign preview", () => {
  it("renders unsaved fields as the email: the text, a product's name and price, the site's name, no script", async () => {
    const products = (await owner.request({ url: `/api/owner/sites/${siteId}/products` })).json() as {
      products: { id: string; title: string }[];
    };
    const product = products.products[0]!;
    const res = await owner.request({
      method: "POST",
      url: url(),
      payload: {
        subject: "Spring pieces",
        previewText: "Three new bowls",
        blocks: [
          { type: "text", html: "<p>Hello from the <strong>studio</strong></p><script>alert(1)</script>" },
          { type: "product", productId: product.id },
          { type: "divider" },
          { type: "button", text: "Visit the shop", url: "/shop" },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { html, text } = res.json() as { html: string; text: string };
    expect(html).toContain("<strong>studio</strong>");
    expect(html).toContain(product.title);
    expect(html).toMatch(/\$\d/);
    expect(html).toContain("Three new bowls");
    expect(html).toContain("Visit the shop");
    expect(html).toContain("Atelier Demo");
    expect(html).not.toMatch(/<script/i);
    expect(text).toContain("Hello from the studio");
    expect(text).toContain(product.title);
    expect(text).toContain("/email/unsubscribe/");
  });

  it("answers 400 for blocks that are not campaign blocks", async () => {
    const res = await owner.request({
      method: "POST",
      url: url(),
      payload: { blocks: [{ type: "video", src: "x" }] },
    });
    expect(res.statusCode).toBe(400);
    const missing = await owner.request({ method: "POST", url: url(), payload: { subject: "No blocks" } });
    expect(missing.statusCode).toBe(400);
  });

  it("is not another owner's to read", async () => {
    const { owner: stranger } = await ownerWithSite(t, "stranger-preview@example.com");
    const res = await stranger.request({ method: "POST", url: url(), payload: { blocks: [] } });
    expect(res.statusCode).toBe(404);
  });
});
