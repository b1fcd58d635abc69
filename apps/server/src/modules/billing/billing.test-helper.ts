/** Owners, sites and cards for the billing tests. */
import { expect } from "vitest";
import { Browser, type TestApp } from "../../../test/harness.js";

export async function newOwner(t: TestApp, email: string): Promise<Browser> {
  const b = new Browser(t.app);
  await b.visit("/");
  await b.request({
    method: "POST",
    url: "/api/owner/account",
    payload: { email, password: "long enough password" },
  });
  return b;
}

export async function newSite(b: Browser, title: string, theme = "classic") {
  const res = await b.request({ method: "POST", url: "/api/owner/sites", payload: { title, theme } });
  expect(res.statusCode).toBe(201);
  const site = res.json().site as { id: string; identifier: string };
  return { ...site, base: `/api/owner/sites/${site.id}/billing` };
}

export const card = (cardNumber: string, extra: object = {}) => ({
  cardNumber,
  expMonth: 12,
  expYear: 2030,
  cvc: "123",
  ...extra,
});
