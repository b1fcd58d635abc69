/** Sites and cards for the billing tests. */
import { expect } from "vitest";
import { type Browser, addSite } from "../../../test/harness.js";

/** A new site of the signed-in owner, with the base of its billing calls. */
export async function newSite(b: Browser, title: string, theme = "classic") {
  const res = await addSite(b, { title, theme });
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
