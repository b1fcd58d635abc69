/** Owners, sites and cards for the billing tests. */
import { expect } from "vitest";
import { type Browser, type TestApp, signedUpOwner } from "../../../test/harness.js";

/** A new owner account, signed in. */
export const newOwner = (t: TestApp, email: string): Promise<Browser> => signedUpOwner(t, email);

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
