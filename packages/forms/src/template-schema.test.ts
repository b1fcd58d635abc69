import { describe, expect, it } from "vitest";
import { FIELD_TYPES } from "./fields.js";
import { formTemplateSchema } from "./template-schema.js";
import { validateForm } from "./validate.js";

describe("form template schemas", () => {
  it("describes every field type for a form block, by name or by number", () => {
    const schema = formTemplateSchema("form")!;
    expect(schema.blockType).toBe(9);
    expect(schema.fieldTypes.map((t) => t.type)).toEqual([...FIELD_TYPES]);
    expect(formTemplateSchema("9")?.type).toBe("form");
    const phone = schema.fieldTypes.find((t) => t.type === "phone")!;
    expect(phone.parts?.map((p) => p.name)).toEqual(["Country", "Areacode", "Prefix", "Line"]);
    expect(phone.parts?.[0]?.requiredWhenFieldIs).toBe(false);
    expect(schema.fieldTypes.find((t) => t.type === "likert")?.canBeRequired).toBe(false);
    expect(schema.fieldTypes.find((t) => t.type === "textarea")?.hasMaxLength).toBe(true);
  });

  it("gives a newsletter block an email field, and nothing for other types", () => {
    const schema = formTemplateSchema("newsletter")!;
    expect(schema.blockType).toBe(51);
    expect(schema.defaults.fields).toEqual([
      { id: "email", type: "email", title: "Email Address", required: true },
    ]);
    expect(validateForm(schema.defaults.fields, {}).errors).toEqual({ email: "Required" });
    expect(formTemplateSchema("gallery")).toBeUndefined();
    expect(formTemplateSchema("")).toBeUndefined();
  });
});
