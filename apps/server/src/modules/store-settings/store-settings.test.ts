import { beforeAll, describe, expect, it } from "vitest";
import { owner, ownerSends, siteApi, t, useDemoApp } from "../../../test/demo-app.js";
import { signedUpOwner } from "../../../test/harness.js";
import { published } from "../owner-sites/published.test-helper.js";

let base: string;

useDemoApp();
beforeAll(() => {
  base = `${siteApi}/store`;
});

describe("store settings", () => {
  it("reads the settings and the 27 supported currencies", async () => {
    const res = await owner.request({ url: base });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toMatchObject({
      currency: "USD",
      useCLDRMoneyFormat: false,
      restockNotificationsEnabled: true,
    });
    expect(res.json().currencies).toHaveLength(27);
  });

  it("changes every store setting, the currency and the CLDR money format; the site shows them", async () => {
    const changes = {
      useCLDRMoneyFormat: true,
      multipleQuantityAllowedForServices: false,
      customSoldOutText: "Gone for now",
      restockNotificationsEnabled: false,
      restockNotificationsSuccessText: "We will write.",
      soldOutVariantsDropdownDisabled: true,
      measurementStandard: "metric",
    };
    const res = await ownerSends("PATCH", "/store", { ...changes, currency: "eur" });
    expect(res.statusCode).toBe(200);
    // The currency code comes back upper-cased; every other setting as sent.
    expect(res.json().settings).toEqual({ ...changes, currency: "EUR" });
    const page = (await published(t.app, "/", (r) => r.json.storeSettings.currency === "EUR")).json;
    expect(page.storeSettings).toMatchObject({
      currency: "EUR",
      customSoldOutText: "Gone for now",
      soldOutVariantsDropdownDisabled: true,
    });
    expect(page.websiteSettings.useCLDRMoneyFormat).toBe(true);
    const bad = await ownerSends("PATCH", "/store", { currency: "XYZ", measurementStandard: "cubits" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      currency: "Choose one of the supported currencies.",
      measurementStandard: "Choose imperial or metric.",
    });
    await ownerSends("PATCH", "/store", { currency: "USD", useCLDRMoneyFormat: false });
  });

  it("adds, changes and deletes shipping rules", async () => {
    const add = await ownerSends("POST", "/store/shipping-rules", {
      name: "Canada by weight",
      kind: "weight",
      priceCents: 800,
      perKgCents: 250,
      countries: ["ca"],
    });
    expect(add.statusCode).toBe(201);
    const rule = add.json().rule;
    expect(rule).toMatchObject({ kind: "weight", perKgCents: 250, countries: ["CA"] });
    const change = await ownerSends("PUT", `/store/shipping-rules/${rule.id}`, {
      name: "Free over $150",
      kind: "free",
      minSubtotalCents: 15000,
      priceCents: 999,
    });
    expect(change.json().rule).toMatchObject({
      kind: "free",
      priceCents: 0,
      minSubtotalCents: 15000,
      countries: [],
    });
    const bad = await ownerSends("POST", "/store/shipping-rules", {
      name: "X",
      kind: "teleport",
      countries: ["Canada"],
    });
    expect(bad.json().error.fields).toEqual({
      kind: "Choose flat rate, by weight or free.",
      countries: "Use two-letter country codes such as US, CA or GB.",
    });
    const list = await owner.request({ url: `${base}/shipping-rules` });
    expect(list.json().rules.map((r: { id: string }) => r.id)).toContain(rule.id);
    expect(
      (await owner.request({ method: "DELETE", url: `${base}/shipping-rules/${rule.id}` })).statusCode,
    ).toBe(200);
    expect(
      (await owner.request({ method: "DELETE", url: `${base}/shipping-rules/${rule.id}` })).statusCode,
    ).toBe(404);
  });

  it("adds and validates tax rules", async () => {
    const add = await ownerSends("POST", "/store/tax-rules", {
      name: "Ontario HST",
      country: "ca",
      region: "on",
      rateBasisPoints: 1300,
      appliesToShipping: true,
    });
    expect(add.json().rule).toMatchObject({
      country: "CA",
      region: "ON",
      rateBasisPoints: 1300,
      appliesToShipping: true,
    });
    const bad = await ownerSends("POST", "/store/tax-rules", {
      name: "Too much",
      country: "USA",
      rateBasisPoints: 10001,
    });
    expect(bad.json().error.fields).toEqual({
      country: "Use a two-letter country code such as US, CA or GB.",
      rateBasisPoints: "The rate is a percentage from 0 to 100 with at most two decimals.",
    });
  });

  it("adds coupons with unique codes and valid amounts and dates", async () => {
    const add = await ownerSends("POST", "/store/coupons", {
      code: " spring-10 ",
      kind: "percent",
      amount: 10,
      usageLimit: 100,
      startsAt: 1_700_000_000_000,
      endsAt: 1_800_000_000_000,
    });
    expect(add.statusCode).toBe(201);
    const coupon = add.json().rule;
    expect(coupon).toMatchObject({
      code: "SPRING-10",
      kind: "percent",
      amount: 10,
      timesUsed: 0,
      active: true,
    });
    const dup = await ownerSends("POST", "/store/coupons", { code: "Spring-10", kind: "fixed", amount: 500 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toBe("Another coupon already uses this code.");
    const badPercent = await ownerSends("POST", "/store/coupons", {
      code: "HALF",
      kind: "percent",
      amount: 150,
    });
    expect(badPercent.json().error.message).toBe("A percentage is a whole number from 1 to 100.");
    const backwards = await ownerSends("POST", "/store/coupons", {
      code: "LATE",
      kind: "free_shipping",
      startsAt: 2_000,
      endsAt: 1_000,
    });
    expect(backwards.json().error.message).toBe("The end must be after the start.");
    const off = await ownerSends("PUT", `/store/coupons/${coupon.id}`, {
      code: "SPRING-10",
      kind: "percent",
      amount: 15,
      active: false,
    });
    expect(off.json().rule).toMatchObject({ amount: 15, active: false, usageLimit: null });
  });

  it("keeps other owners out", async () => {
    const mallory = await signedUpOwner(t, "m3@example.com");
    expect((await mallory.request({ url: base })).statusCode).toBe(404);
    expect(
      (await mallory.request({ method: "PATCH", url: base, payload: { currency: "JPY" } })).statusCode,
    ).toBe(404);
    expect((await mallory.request({ url: `${base}/coupons` })).statusCode).toBe(404);
    expect(
      (
        await mallory.request({
          method: "POST",
          url: `${base}/coupons`,
          payload: { code: "FREE", kind: "free_shipping" },
        })
      ).statusCode,
    ).toBe(404);
    expect((await owner.request({ url: base })).json().settings.currency).toBe("USD");
  });
});
