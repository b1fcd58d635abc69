/** Owners' forms: every field type with its server-side rules, changing forms, and deleting them. */
import { MSG_FORM_INVALID } from "@atelier/forms";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signedUpOwner } from "../../../test/harness.js";
import { RecordType } from "../../db/enums.js";
import * as s from "../../db/schema.js";
import { EVERY_FIELD } from "./every-field.test-helper.js";
import {
  EMAIL_MSG,
  contactId,
  owner,
  submissions,
  submit,
  t,
  useFormsApp,
  validate,
  visitor,
  websiteId,
} from "./forms.test-helper.js";

useFormsApp();

describe("owner forms with every field type", () => {
  it("creates a form of all 19 field types and applies every rule to it on the server", async () => {
    const o = await owner();
    const created = await o.request({
      method: "POST",
      url: `/api/owner/sites/${websiteId}/forms`,
      payload: { name: "Workshop sign-up", fields: EVERY_FIELD, submissionMessage: "See you there!" },
    });
    expect(created.statusCode).toBe(201);
    const form = created.json().form;
    expect(form.fields.map((f: { type: string }) => f.type)).toEqual(EVERY_FIELD.map((f) => f.type));
    // Likert never required; sections carry no answer.
    expect(form.fields.find((f: { id: string }) => f.id === "f-likert").required).toBe(false);
    expect(form.fields.find((f: { id: string }) => f.id === "f-section").required).toBe(false);

    const b = await visitor();
    const empty = await submit(b, { formId: form.id, answers: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toEqual({
      code: "invalid_fields",
      message: MSG_FORM_INVALID,
      fields: {
        "f-text": "Required",
        "f-email": "Required",
        "f-date": "Required",
        "f-name": "Required",
        "f-phone": "Required",
        "f-radio": "Required",
        "f-checkbox": "Required",
        "f-select": "Required",
      },
    });
    const bad = await validate(b, form.id, { "f-email": "a@b", "f-textarea": "x".repeat(21) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields["f-email"]).toBe(EMAIL_MSG);
    expect(bad.json().error.fields["f-textarea"]).toBe("You have exceeded the character limit.");

    const answers = {
      "f-text": "Ada",
      "f-textarea": "",
      "f-email": "ada@example.com",
      "f-currency": "$25.50",
      "f-number": "4",
      "f-website": "example.com",
      "f-password": "swordfish",
      "f-twitter": "@ada",
      "f-date": ["12", "10", "2025"],
      "f-time": ["9", "30", "", "AM"],
      "f-name": ["Ada", "Lovelace"],
      "f-address": ["1 Main St", "", "Springfield", "IL", "62701", "USA"],
      "f-phone": ["212", "555", "0100"],
      "f-radio": "Advanced",
      "f-checkbox": ["Glaze", "Wheel"],
      "f-select": "Sunday",
      "f-likert": { "I like clay": "2" },
    };
    const ok = await submit(b, { formId: form.id, answers });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().submissionMessage).toBe("See you there!");
    const [row] = await submissions(form.id);
    expect(row!.values["f-phone"]).toEqual(["", "212", "555", "0100"]);
    expect(row!.values["f-password"]).toBe("••••••••");
    expect(Object.fromEntries(row!.summary.map((l) => [l.title, l.value]))).toEqual({
      Nickname: "Ada",
      "About you": "N/A",
      "Your email": "ada@example.com",
      Budget: "$25.50",
      Guests: "4",
      Website: "example.com",
      "Secret word": "••••••••",
      Twitter: "@ada",
      Date: "12/10/2025",
      Time: "9:30:00 AM",
      "Your name": "Ada Lovelace",
      Address: "1 Main St\nSpringfield, IL 62701\nUSA",
      "Phone number": "212-555-0100",
      Level: "Advanced",
      Topics: "Glaze, Wheel",
      Day: "Sunday",
      Survey: "I like clay: Strongly Agree",
      Campaign: "spring",
    });
  });

  it("changes a form, and refuses bad definitions with a message per property", async () => {
    const o = await owner();
    const url = `/api/owner/sites/${websiteId}/forms`;
    const bad = await o.request({
      method: "POST",
      url,
      payload: {
        name: " ",
        fields: [
          { id: "a", type: "text", title: "A" },
          { id: "a", type: "slider", title: "B" },
          { id: "bad id!", type: "radio", title: "C", options: [] },
          { id: "d", type: "likert", title: "" },
          { id: "e", type: "text", title: "E", maxLength: 5 },
        ],
        successRedirect: "javascript:alert(1)",
        notifyEmail: "nobody",
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      name: "Required",
      "fields.1.id": "Each field needs its own id.",
      "fields.1.type": expect.stringMatching(/^Choose one of the field types: text, textarea, /),
      "fields.2.id": "Field ids are 1 to 64 letters, digits, '-' or '_'.",
      "fields.2.options": "Give this field at least one option.",
      "fields.3.title": "Required",
      "fields.3.questions": "Give this field at least one statement to rate.",
      "fields.4.maxLength": "Only text areas have a character limit.",
      successRedirect: expect.stringMatching(/^Enter a page of this site/),
      notifyEmail: EMAIL_MSG,
    });
    for (const payload of [
      { name: "x" },
      { name: "x", fields: "nope" },
      { name: "x", fields: [], extra: 1 },
    ]) {
      const res = await o.request({ method: "POST", url, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }

    const created = await o.request({
      method: "POST",
      url,
      payload: { name: "Quick question", fields: [{ id: "q", type: "text", title: "Question" }] },
    });
    const id = created.json().form.id;
    const changed = await o.request({
      method: "PATCH",
      url: `${url}/${id}`,
      payload: { successRedirect: "/thank-you", notifyEmail: "team@example.com", captchaEnabled: true },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().form).toMatchObject({
      name: "Quick question",
      successRedirect: "/thank-you",
      notifyEmail: "team@example.com",
      captchaEnabled: true,
    });
    for (const target of ["//evil.example", "/\\evil.example", "ftp://x.example"]) {
      const res = await o.request({
        method: "PATCH",
        url: `${url}/${id}`,
        payload: { successRedirect: target },
      });
      expect(res.statusCode, target).toBe(400);
    }
    const missing = await o.request({ method: "PATCH", url: `${url}/${"0".repeat(24)}`, payload: {} });
    expect(missing.statusCode).toBe(404);

    // Visitors and other owners cannot create or change forms.
    const v = await visitor();
    expect((await v.request({ method: "POST", url, payload: { name: "x", fields: [] } })).statusCode).toBe(
      401,
    );
    expect(
      (await v.request({ method: "PATCH", url: `${url}/${id}`, payload: { name: "y" } })).statusCode,
    ).toBe(401);
    expect(
      (await o.request({ method: "POST", url, payload: { name: "x", fields: [] }, withCrumb: false }))
        .statusCode,
    ).toBe(403);
  });
});

describe("deleting a form", () => {
  const formBlockLayout = (formId: string) => ({
    rows: [{ columns: [{ span: 12, blocks: [{ id: "b1", type: "form", formId }] }] }],
  });

  it("refuses with 409 while a page or a product uses the form, then deletes it with its submissions", async () => {
    const o = await owner();
    const url = `/api/owner/sites/${websiteId}/forms`;
    const db = t.database.db;

    // The demo contact page shows the contact form.
    const contact = await o.request({ method: "DELETE", url: `${url}/${contactId}` });
    expect(contact.statusCode).toBe(409);
    expect(contact.json().error).toEqual({
      code: "form_in_use",
      message:
        'This form is used on the page "Contact". Remove the form from that page and publish before deleting it.',
    });

    const created = await o.request({
      method: "POST",
      url,
      payload: {
        name: "Short lived",
        fields: [{ id: "q", type: "text", title: "Question", required: true }],
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().form.id as string;

    // A block in a page's unpublished draft counts too.
    const pageId = "d".repeat(24);
    await db.insert(s.collections).values({
      id: pageId,
      websiteId,
      kind: "page",
      title: "Workshop",
      urlSlug: "workshop-delete-test",
      layout: { rows: [] },
      draftLayout: formBlockLayout(id),
    });
    const inDraft = await o.request({ method: "DELETE", url: `${url}/${id}` });
    expect(inDraft.statusCode).toBe(409);
    expect(inDraft.json().error.message).toMatch(/^This form is used on the page "Workshop"\./);
    await db.delete(s.collections).where(eq(s.collections.id, pageId));

    // A product asking for it as its additional-fields form.
    const [product] = await db
      .select()
      .from(s.contentItems)
      .where(
        and(eq(s.contentItems.websiteId, websiteId), eq(s.contentItems.recordType, RecordType.STORE_ITEM)),
      )
      .limit(1);
    expect(product).toBeDefined();
    const before = product!.structuredContent;
    await db
      .update(s.contentItems)
      .set({ structuredContent: { ...before, additionalFieldsFormId: id } })
      .where(eq(s.contentItems.id, product!.id));
    try {
      const inProduct = await o.request({ method: "DELETE", url: `${url}/${id}` });
      expect(inProduct.statusCode).toBe(409);
      expect(inProduct.json().error.message).toBe(
        `This form is the additional-fields form of the product "${product!.title}". Choose another form there before deleting it.`,
      );
    } finally {
      await db
        .update(s.contentItems)
        .set({ structuredContent: before })
        .where(eq(s.contentItems.id, product!.id));
    }

    // Visitors, other owners and calls without the crumb cannot delete it.
    const v = await visitor();
    expect((await v.request({ method: "DELETE", url: `${url}/${id}` })).statusCode).toBe(401);
    expect((await o.request({ method: "DELETE", url: `${url}/${id}`, withCrumb: false })).statusCode).toBe(
      403,
    );
    const stranger = await signedUpOwner(t, "stranger-delete@example.com");
    expect((await stranger.request({ method: "DELETE", url: `${url}/${id}` })).statusCode).toBe(404);

    // Unused: deleted, with its submissions.
    const b = await visitor();
    const sent = await submit(b, { formId: id, answers: { q: "Hello" } });
    expect(sent.statusCode).toBe(200);
    expect(await submissions(id)).toHaveLength(1);
    const gone = await o.request({ method: "DELETE", url: `${url}/${id}` });
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ ok: true });
    expect(await submissions(id)).toHaveLength(0);
    const list = await o.request({ url });
    expect(list.json().forms.map((f: { id: string }) => f.id)).not.toContain(id);
    const again = await o.request({ method: "DELETE", url: `${url}/${id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe("No such form.");
    // The contact form is still there.
    expect(list.json().forms.map((f: { id: string }) => f.id)).toContain(contactId);
  });
});
