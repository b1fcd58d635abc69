import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  mailingListSubscribers,
  outboundEmails,
  productVariants,
  restockSignups,
  storeSettings,
  websiteSettings,
} from "../../db/schema.js";
import { CRUMB_EXPIRED } from "../../http/crumb.js";
import { MSG_BAD_CURSOR, encodeCursor } from "../../lib/paging.js";
import { siteId as websiteId, t, useDemoApp } from "../../../test/demo-app.js";
import {
  type Browser,
  DEMO_OWNER,
  expectRefusals,
  signedInOwner,
  signedUpOwner,
  visitorFrom,
} from "../../../test/harness.js";
import { MSG_CAPTCHA_INCOMPLETE } from "@atelier/forms";
import { TEST_CAPTCHA_PASS } from "../captcha/service.js";
import { emailsTo } from "../checkout/test-helpers.js";
import { runDueJobs } from "../jobs/service.js";
import { RESTOCK_SIGNUP_LIMIT } from "./routes.js";
import {
  DEFAULT_SUCCESS_TEXT,
  MSG_EMAIL_BLANK,
  MSG_EMAIL_INVALID,
  MSG_RESTOCK_DISABLED,
  MSG_STILL_SOLD_OUT,
  MSG_UNKNOWN_VARIANT,
  enqueueRestockCheck,
  sweepRestocked,
} from "./service.js";

const BASE = "/api/site-users/account/notifications/restock";
let addressN = 0;

useDemoApp();

interface Product {
  id: string;
  variants: { id: string; sku: string; attributes: Record<string, string> }[];
}

async function product(slug: string): Promise<Product> {
  const res = await t.app.inject({ url: `/shop/p/${slug}?format=json`, headers: { host: "localhost" } });
  const item = res.json().item;
  return { id: item.id, variants: item.structuredContent.variants };
}

function visitor(): Promise<Browser> {
  return visitorFrom(t, `10.2.0.${++addressN}`);
}

async function owner(): Promise<Browser> {
  return signedInOwner(t, DEMO_OWNER, await visitor());
}

function signUp(b: Browser, payload: Record<string, unknown>) {
  return b.request({ method: "POST", url: BASE, payload });
}

/** A sign-up for the merino throw's second variant, from `siteVisitorEmail`. */
async function merinoSignUp(siteVisitorEmail: string) {
  const merino = await product("merino-throw");
  return { productId: merino.id, variantId: merino.variants[1]!.id, siteVisitorEmail };
}

async function setStock(variantId: string, qty: number) {
  await t.database.db
    .update(productVariants)
    .set({ qtyInStock: qty })
    .where(eq(productVariants.id, variantId));
}

describe("POST /api/site-users/account/notifications/restock", () => {
  it("signs a visitor up, once per variant and address, and can join the mailing list", async () => {
    const b = await visitor();
    const merino = await product("merino-throw");
    const oat = merino.variants[0]!;
    const res = await signUp(b, {
      productId: merino.id,
      variantId: oat.id,
      siteVisitorEmail: "  Reader@Example.com ",
      isJoinMailingList: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: "Thank you! We will email you when it is back in stock.",
    });
    const again = await signUp(b, {
      productId: merino.id,
      variantId: oat.id,
      siteVisitorEmail: "reader@example.com",
    });
    expect(again.statusCode).toBe(200);
    const rows = await t.database.db
      .select()
      .from(restockSignups)
      .where(eq(restockSignups.variantId, oat.id));
    expect(rows.map((r) => r.email)).toEqual(["reader@example.com"]);
    const list = await t.database.db
      .select()
      .from(mailingListSubscribers)
      .where(eq(mailingListSubscribers.email, "reader@example.com"));
    expect(list).toHaveLength(1);
    expect(list[0]!.source).toBe("restock");
  });

  it("answers each bad input with the SPEC's message", async () => {
    const b = await visitor();
    const merino = await product("merino-throw");
    const v = merino.variants[1]!.id;
    const cases: [Record<string, unknown>, string][] = [
      [{ productId: merino.id, variantId: v }, MSG_EMAIL_BLANK],
      [{ productId: merino.id, variantId: v, siteVisitorEmail: "" }, MSG_EMAIL_BLANK],
      [{ productId: merino.id, variantId: v, siteVisitorEmail: "   " }, MSG_EMAIL_BLANK],
      [{ productId: merino.id, variantId: v, siteVisitorEmail: "not-an-email" }, MSG_EMAIL_INVALID],
      [{ productId: merino.id, variantId: v, siteVisitorEmail: "a@b" }, MSG_EMAIL_INVALID],
      [
        { productId: merino.id, variantId: v, siteVisitorEmail: `${"x".repeat(260)}@example.com` },
        MSG_EMAIL_INVALID,
      ],
      [{ productId: merino.id, variantId: "nope", siteVisitorEmail: "a@example.com" }, MSG_UNKNOWN_VARIANT],
      [{ productId: "nope", variantId: v, siteVisitorEmail: "a@example.com" }, MSG_UNKNOWN_VARIANT],
    ];
    await expectRefusals(cases, (payload) => signUp(b, payload));
    const blank = await signUp(b, { productId: merino.id, variantId: v, siteVisitorEmail: "" });
    expect(blank.json().error.fields).toEqual({ siteVisitorEmail: MSG_EMAIL_BLANK });
    const noCrumb = await b.request({
      method: "POST",
      url: BASE,
      payload: { productId: merino.id, variantId: v, siteVisitorEmail: "a@example.com" },
      withCrumb: false,
    });
    expect(noCrumb.statusCode).toBe(403);
    expect(noCrumb.json().error.message).toBe(CRUMB_EXPIRED);
  });

  it("asks for the captcha when the site has one", async () => {
    await t.database.db
      .update(websiteSettings)
      .set({ captchaProvider: "test" })
      .where(eq(websiteSettings.websiteId, websiteId));
    try {
      const b = await visitor();
      const base = await merinoSignUp("c@example.com");
      for (const captchaToken of [undefined, "", "wrong"]) {
        const res = await signUp(b, { ...base, captchaToken });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toBe(MSG_CAPTCHA_INCOMPLETE);
      }
      const ok = await signUp(b, { ...base, captchaToken: TEST_CAPTCHA_PASS });
      expect(ok.statusCode).toBe(200);
    } finally {
      await t.database.db
        .update(websiteSettings)
        .set({ captchaProvider: null })
        .where(eq(websiteSettings.websiteId, websiteId));
    }
  });

  it("is refused when the store turned restock notifications off, and uses the default text", async () => {
    const b = await visitor();
    const body = await merinoSignUp("d@example.com");
    await t.database.db
      .update(storeSettings)
      .set({ restockNotificationsEnabled: false })
      .where(eq(storeSettings.websiteId, websiteId));
    const off = await signUp(b, body);
    expect(off.statusCode).toBe(400);
    expect(off.json().error.message).toBe(MSG_RESTOCK_DISABLED);
    await t.database.db
      .update(storeSettings)
      .set({ restockNotificationsEnabled: true, restockNotificationsSuccessText: null })
      .where(eq(storeSettings.websiteId, websiteId));
    const on = await signUp(b, body);
    expect(on.json().message).toBe(DEFAULT_SUCCESS_TEXT);
  });
});

describe("sign-up rate limit", () => {
  it("answers 429 'Please try again in a few seconds.' past the limit", async () => {
    const b = await visitor();
    const merino = await product("merino-throw");
    const statuses: number[] = [];
    for (let i = 0; i < RESTOCK_SIGNUP_LIMIT.max + 1; i++) {
      const res = await signUp(b, {
        productId: merino.id,
        variantId: merino.variants[0]!.id,
        siteVisitorEmail: `burst${i}@example.com`,
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().error.message).toBe("Please try again in a few seconds.");
    }
    expect(statuses.slice(0, RESTOCK_SIGNUP_LIMIT.max).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("owner calls", () => {
  it("need an owner session, of an owner of this website", async () => {
    const b = await visitor();
    expect((await b.request({ url: `${BASE}/groups` })).statusCode).toBe(401);
    const stranger = await signedUpOwner(t, "stranger@example.com", await visitor());
    const res = await stranger.request({ url: `${BASE}/groups` });
    expect(res.statusCode).toBe(404);
    const send = await stranger.request({
      method: "POST",
      url: `${BASE}/send/all`,
      payload: { sendRequests: [] },
    });
    expect(send.statusCode).toBe(404);
  });

  it("pages through groups and sign-ups with cursors; every page together has every sign-up", async () => {
    const o = await owner();
    const v = await visitor();
    const planter = await product("ceramic-planter");
    const shirt = await product("everyday-linen-shirt");
    const targets = [planter.variants[2]!, shirt.variants[2]!, shirt.variants[7]!];
    const owners = [planter.id, shirt.id, shirt.id];
    for (const [i, variant] of targets.entries()) {
      for (let n = 0; n <= i; n++) {
        const res = await signUp(v, {
          productId: owners[i],
          variantId: variant.id,
          siteVisitorEmail: `page${i}-${n}@example.com`,
        });
        expect(res.statusCode).toBe(200);
      }
    }
    // All pages fetched in a loop, one group per page.
    const groups: { variantId: string; signUpCount: number; productTitle: string; inStock: boolean }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await o.request({ url: `${BASE}/groups?limit=1${cursor ? `&cursor=${cursor}` : ""}` });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      groups.push(...body.signUpGroups);
      expect(body.hasNextPage).toBe(body.nextPageCursor !== null);
      cursor = body.nextPageCursor;
      pages++;
    } while (cursor && pages < 50);
    const ours = groups.filter((g) => targets.some((t) => t.id === g.variantId));
    expect(ours.map((g) => g.signUpCount).sort()).toEqual([1, 2, 3]);
    expect(new Set(groups.map((g) => g.variantId)).size).toBe(groups.length);
    expect(ours.find((g) => g.variantId === targets[0]!.id)).toMatchObject({
      productTitle: "Ceramic Planter",
      inStock: false,
    });

    // Sign-ups of one variant, two per page, totals summed across variants.
    let total = 0;
    for (const [i, variant] of targets.entries()) {
      const emails: string[] = [];
      let c: string | null = null;
      do {
        const res = await o.request({
          url: `${BASE}?productId=${owners[i]}&variantId=${variant.id}&limit=2${c ? `&cursor=${c}` : ""}`,
        });
        expect(res.statusCode).toBe(200);
        emails.push(...res.json().signUps.map((s: { email: string }) => s.email));
        c = res.json().nextPageCursor;
      } while (c);
      expect(emails.sort()).toEqual(Array.from({ length: i + 1 }, (_, n) => `page${i}-${n}@example.com`));
      total += emails.length;
    }
    expect(total).toBe(6);

    for (const bad of ["garbage", encodeCursor(["only-one"]), "%7B%7D"]) {
      const res = await o.request({ url: `${BASE}/groups?cursor=${bad}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(MSG_BAD_CURSOR);
    }
    const badDate = await o.request({
      url: `${BASE}?productId=${planter.id}&variantId=${targets[0]!.id}&cursor=${encodeCursor(["not a date", "x"])}`,
    });
    expect(badDate.json().error.message).toBe(MSG_BAD_CURSOR);
    expect((await o.request({ url: `${BASE}?productId=${planter.id}` })).statusCode).toBe(400);
  });

  it("sends to a variant back in stock through the outbox, and refuses one still sold out", async () => {
    const o = await owner();
    const v = await visitor();
    const tote = await product("everyday-tote");
    const tobacco = tote.variants[1]!;
    await setStock(tobacco.id, 0);
    for (const n of [1, 2]) {
      await signUp(v, {
        productId: tote.id,
        variantId: tobacco.id,
        siteVisitorEmail: `tote${n}@example.com`,
      });
    }
    const soldOut = await o.request({
      method: "POST",
      url: `${BASE}/send`,
      payload: { productId: tote.id, variantId: tobacco.id },
    });
    expect(soldOut.statusCode).toBe(409);
    expect(soldOut.json().error.message).toBe(MSG_STILL_SOLD_OUT);
    const unknown = await o.request({
      method: "POST",
      url: `${BASE}/send`,
      payload: { productId: tote.id, variantId: "nope" },
    });
    expect(unknown.statusCode).toBe(404);

    await setStock(tobacco.id, 4);
    const sent = await o.request({
      method: "POST",
      url: `${BASE}/send`,
      payload: { productId: tote.id, variantId: tobacco.id },
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ count: 2, skipped: [] });
    const mails = await t.database.db
      .select()
      .from(outboundEmails)
      .where(eq(outboundEmails.subject, "Everyday Canvas Tote is back in stock"));
    expect(mails.map((m) => m.toAddress).sort()).toEqual(["tote1@example.com", "tote2@example.com"]);
    expect(mails[0]!.textBody).toContain("Everyday Canvas Tote (Tobacco) is back in stock at Atelier Demo");
    expect(mails[0]!.textBody).toContain("http://localhost/shop/p/everyday-tote");
    expect(mails[0]!.status).toBe("kept");
    // Nobody is emailed twice.
    const again = await o.request({
      method: "POST",
      url: `${BASE}/send`,
      payload: { productId: tote.id, variantId: tobacco.id },
    });
    expect(again.json().count).toBe(0);
    const none = await o.request({ method: "POST", url: `${BASE}/send`, payload: { productId: tote.id } });
    expect(none.statusCode).toBe(400);
  });

  it("send-all sums the counts, skips variants still sold out, and sends nothing for an empty list", async () => {
    const o = await owner();
    const v = await visitor();
    const napkins = await product("cotton-napkins");
    const [earth, sea] = napkins.variants as [Product["variants"][0], Product["variants"][0]];
    await setStock(earth.id, 0);
    await setStock(sea.id, 0);
    for (const variant of [earth, sea]) {
      for (const n of [1, 2]) {
        await signUp(v, {
          productId: napkins.id,
          variantId: variant.id,
          siteVisitorEmail: `n${n}@example.com`,
        });
      }
    }
    const empty = await o.request({ method: "POST", url: `${BASE}/send/all`, payload: { sendRequests: [] } });
    expect(empty.json()).toEqual({ count: 0, skipped: [] });
    await setStock(earth.id, 3);
    const res = await o.request({
      method: "POST",
      url: `${BASE}/send/all`,
      payload: {
        sendRequests: [
          { productId: napkins.id, variantId: earth.id },
          { productId: napkins.id, variantId: sea.id },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 2, skipped: [{ productId: napkins.id, variantId: sea.id }] });
    const bad = await o.request({
      method: "POST",
      url: `${BASE}/send/all`,
      payload: { sendRequests: "all" },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("when stock comes back", () => {
  it("a job emails everyone waiting, once", async () => {
    const v = await visitor();
    const merino = await product("merino-throw");
    const forest = merino.variants[1]!;
    await signUp(v, { productId: merino.id, variantId: forest.id, siteVisitorEmail: "wool@example.com" });
    const pending = () =>
      t.database.db
        .select()
        .from(restockSignups)
        .where(and(eq(restockSignups.variantId, forest.id), isNull(restockSignups.notifiedAt)));
    const waiting = (await pending()).length;
    expect(waiting).toBeGreaterThan(0);

    // Still sold out: the job sends nothing.
    await enqueueRestockCheck(t.database.db, websiteId, [forest.id], new Date());
    await runDueJobs(t.app.deps, "test");
    expect(await pending()).toHaveLength(waiting);

    // Back in stock (by any route): the sweep finds it and the job emails everyone waiting.
    await setStock(forest.id, 5);
    expect(await sweepRestocked(t.database.db, new Date())).toBeGreaterThan(0);
    await runDueJobs(t.app.deps, "test");
    expect(await pending()).toHaveLength(0);
    const mails = await emailsTo(t.database.db, "wool@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Merino Wool Throw is back in stock");
    await enqueueRestockCheck(t.database.db, websiteId, [forest.id], new Date());
    await runDueJobs(t.app.deps, "test");
    expect(await emailsTo(t.database.db, "wool@example.com")).toHaveLength(1);
  });
});
