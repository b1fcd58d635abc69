/** A cart's entries: additional fields, quantities and removal. */
import {
  MSG_NOT_ENOUGH_STOCK,
  MSG_QUANTITY_NOT_A_NUMBER,
  MSG_QUANTITY_NOT_WHOLE,
  MSG_QUANTITY_OUT_OF_RANGE,
  MSG_VARIANT_UNAVAILABLE,
} from "@atelier/commerce";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contentItems, forms, websites } from "../../db/schema.js";
import { expectRefusals } from "../../../test/harness.js";
import { MSG_ADDITIONAL_FIELDS_INVALID, MSG_ENTRY_NOT_FOUND } from "./service.js";
import { add, product, sku, t, useCartApp, visitor } from "./cart.test-helper.js";

useCartApp();

describe("entries: additional fields, quantity, removal", () => {
  it("checks the answers of a product's additional-fields form with the form's rules", async () => {
    const site = (await t.database.db.select().from(websites))[0]!;
    const course = await product("pottery-at-home-course");
    await t.database.db.insert(forms).values({
      id: "f0rm00000000000000000001",
      websiteId: site.id,
      name: "Engraving",
      fields: [
        { id: "engraving", type: "text", title: "Engraving", required: true },
        { id: "email", type: "email", title: "Gift email" },
      ],
    });
    const [row] = await t.database.db.select().from(contentItems).where(eq(contentItems.id, course.id));
    await t.database.db
      .update(contentItems)
      .set({
        structuredContent: { ...row!.structuredContent, additionalFieldsFormId: "f0rm00000000000000000001" },
      })
      .where(eq(contentItems.id, course.id));
    try {
      const b = await visitor();
      const formAnswer = await b.request({
        url: `/api/commerce/products/${course.id}/additional-fields-form`,
      });
      expect(formAnswer.statusCode).toBe(200);
      expect(formAnswer.json().form).toMatchObject({
        id: "f0rm00000000000000000001",
        name: "Engraving",
        fields: [{ id: "engraving", type: "text", title: "Engraving", required: true }, { id: "email" }],
      });
      const vase = await product("hand-thrown-vase");
      const noForm = await b.request({ url: `/api/commerce/products/${vase.id}/additional-fields-form` });
      expect(noForm.statusCode).toBe(404);
      const none = await add(b, { itemId: course.id });
      expect(none.statusCode).toBe(400);
      expect(none.json().error).toMatchObject({
        message: "One or more fields is invalid, please check your entries.",
        fields: { engraving: "Required" },
      });
      const badEmail = await add(b, {
        itemId: course.id,
        additionalFields: JSON.stringify({ engraving: "Ada", email: "nope" }),
      });
      expect(badEmail.json().error.fields.email).toMatch(/^Email is not valid\./);
      const ok = await add(b, {
        itemId: course.id,
        additionalFields: JSON.stringify({ engraving: "Ada", junk: 1 }),
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().newlyAdded.additionalFields).toEqual({ engraving: "Ada", email: "" });
      const put = await b.request({
        method: "PUT",
        url: `/api/commerce/shopping-cart/entries/${ok.json().newlyAdded.id}/additionalFields`,
        payload: { itemId: course.id, additionalFields: "{}" },
      });
      expect(put.statusCode).toBe(400);
      expect(put.json().error.fields).toEqual({ engraving: "Required" });
    } finally {
      await t.database.db
        .update(contentItems)
        .set({ structuredContent: row!.structuredContent })
        .where(eq(contentItems.id, course.id));
    }
  });

  it('takes the JSON strings "null" and "" as no additional fields on every call that carries them', async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const natural = await sku("linen-work-apron", { Color: "Natural" });
    for (const none of ["null", "", " null "]) {
      const res = await add(b, { itemId: apron.id, sku: natural, additionalFields: none });
      expect({ none, status: res.statusCode }).toEqual({ none, status: 200 });
      expect(res.json().newlyAdded.additionalFields ?? null).toBeNull();
    }
    // All three adds merged into one entry, as adds without fields do.
    const cart = (await add(b, { itemId: apron.id, sku: natural, additionalFields: "null" })).json();
    expect(cart.shoppingCart.entries).toHaveLength(1);
    expect(cart.shoppingCart.entries[0].quantity).toBe(4);

    const course = await product("pottery-at-home-course");
    const added = (await add(b, { itemId: course.id, additionalFields: '{"name":"Ada"}' })).json();
    const put = await b.request({
      method: "PUT",
      url: `/api/commerce/shopping-cart/entries/${added.newlyAdded.id}/additionalFields`,
      payload: { itemId: course.id, additionalFields: "null" },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().updatedEntry.additionalFields ?? null).toBeNull();

    const coffee = await product("single-origin-coffee");
    for (const none of ["null", ""]) {
      const sub = await b.request({
        method: "POST",
        url: "/api/3/commerce/cart/subscription",
        payload: { itemId: coffee.id, sku: coffee.variants[1]!.sku, qty: 1, additionalFields: none },
      });
      expect({ none, status: sub.statusCode }).toEqual({ none, status: 200 });
    }
    // Other JSON that is not an object is still refused.
    for (const bad of ["42", '"text"', "true", "[oops"]) {
      const res = await add(b, { itemId: apron.id, sku: natural, additionalFields: bad });
      expect({ bad, message: res.json().error?.message }).toEqual({
        bad,
        message: MSG_ADDITIONAL_FIELDS_INVALID,
      });
    }
  });

  it("replaces an entry's additional fields", async () => {
    const b = await visitor();
    const course = await product("pottery-at-home-course");
    const added = (await add(b, { itemId: course.id, additionalFields: '{"name":"Ada"}' })).json();
    const entryId = added.newlyAdded.id;
    expect(added.newlyAdded.additionalFields).toEqual({ name: "Ada" });
    const url = `/api/commerce/shopping-cart/entries/${entryId}/additionalFields`;
    const res = await b.request({
      method: "PUT",
      url,
      payload: { itemId: course.id, sku: added.newlyAdded.sku, additionalFields: '{"name":"Grace"}' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().updatedEntry).toMatchObject({ id: entryId, additionalFields: { name: "Grace" } });
    expect(res.json().shoppingCart.entries[0].additionalFields).toEqual({ name: "Grace" });

    const bad = await b.request({
      method: "PUT",
      url,
      payload: { itemId: course.id, additionalFields: "[oops" },
    });
    expect(bad.json().error.message).toBe(MSG_ADDITIONAL_FIELDS_INVALID);
    const wrongItem = await b.request({
      method: "PUT",
      url,
      payload: { itemId: "000000000000000000000000", additionalFields: "{}" },
    });
    expect(wrongItem.statusCode).toBe(400);
    expect(wrongItem.json().error.message).toBe(MSG_VARIANT_UNAVAILABLE);
    const unknown = await b.request({
      method: "PUT",
      url: "/api/commerce/shopping-cart/entries/000000000000000000000000/additionalFields",
      payload: { itemId: course.id, additionalFields: "{}" },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(MSG_ENTRY_NOT_FOUND);
    // Another visitor cannot touch this entry.
    const other = await visitor();
    const theirs = await other.request({
      method: "PUT",
      url,
      payload: { itemId: course.id, additionalFields: "{}" },
    });
    expect(theirs.statusCode).toBe(404);
  });

  it("changes an entry's quantity within the rules and removes entries", async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const charcoal = await sku("linen-work-apron", { Color: "Charcoal" });
    const entryId = (await add(b, { itemId: apron.id, sku: charcoal })).json().newlyAdded.id;
    const url = `/api/commerce/shopping-cart/entries/${entryId}`;
    const ok = await b.request({ method: "PATCH", url, payload: { quantity: 4 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().updatedEntry.quantity).toBe(4);
    expect(ok.json().shoppingCart.subtotalCents).toBe(4 * 6800);
    const cases: [unknown, string][] = [
      ["lots", MSG_QUANTITY_NOT_A_NUMBER],
      [null, MSG_QUANTITY_NOT_A_NUMBER],
      [2.25, MSG_QUANTITY_NOT_WHOLE],
      [0, MSG_QUANTITY_OUT_OF_RANGE],
      [-1, MSG_QUANTITY_OUT_OF_RANGE],
      [10000, MSG_QUANTITY_OUT_OF_RANGE],
      [6, MSG_NOT_ENOUGH_STOCK],
    ];
    await expectRefusals(cases, (quantity) => b.request({ method: "PATCH", url, payload: { quantity } }));
    const missing = await b.request({ method: "PATCH", url, payload: {} });
    expect(missing.statusCode).toBe(400);
    const other = await visitor();
    expect((await other.request({ method: "PATCH", url, payload: { quantity: 1 } })).statusCode).toBe(404);
    expect((await other.request({ method: "DELETE", url })).statusCode).toBe(404);

    const removed = await b.request({ method: "DELETE", url });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().shoppingCart).toMatchObject({ entries: [], totalQuantity: 0, subtotalCents: 0 });
    const again = await b.request({ method: "DELETE", url });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(MSG_ENTRY_NOT_FOUND);
  });
});
