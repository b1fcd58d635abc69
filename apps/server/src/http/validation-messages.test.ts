import { describe, expect, it } from "vitest";
import { allowedBy, labelOf, plainFailures } from "./validation-messages.js";

describe("schema failures in plain words", () => {
  it("derives labels from property names", () => {
    expect(labelOf("title")).toBe("Title");
    expect(labelOf("timeZone")).toBe("Time zone");
    expect(labelOf("itemId")).toBe("Item ID");
    expect(labelOf("profileUrl")).toBe("Profile URL");
    expect(labelOf("priceCents")).toBe("Price (in cents)");
    expect(labelOf("sale_price")).toBe("Sale price");
  });

  it("says what a schema allows", () => {
    expect(allowedBy({ type: "string", minLength: 1, maxLength: 200 })).toBe("text of 1 to 200 characters");
    expect(allowedBy({ type: "string", maxLength: 1 })).toBe("text of at most 1 character");
    expect(allowedBy({ type: "string", minLength: 8, maxLength: 100, pattern: "^[A-Za-z0-9_:.-]+$" })).toBe(
      "text of 8 to 100 characters: letters, digits and the signs _ : . -",
    );
    expect(allowedBy({ type: "string", pattern: "^[A-Za-z0-9_:.-]+$" })).toBe(
      "letters, digits and the signs _ : . -",
    );
    expect(allowedBy({ type: "integer", minimum: 1, maximum: 9999 })).toBe("a whole number from 1 to 9999");
    expect(allowedBy({ type: "number", exclusiveMinimum: 0 })).toBe("a number above 0");
    expect(allowedBy({ type: "boolean" })).toBe("true or false");
    expect(allowedBy({ type: "array", maxItems: 20, items: { type: "string" } })).toBe(
      "a list of at most 20 entries of text",
    );
    expect(allowedBy({ anyOf: [{ type: "string", maxLength: 5 }, { type: "null" }] })).toBe(
      "text of at most 5 characters or empty (null)",
    );
    expect(allowedBy({ type: "string", format: "email" })).toBe("an email address");
  });

  it("turns the errors of a union of choices into one sentence naming every choice", () => {
    const theme = { anyOf: ["commerce", "market", "cover"].map((c) => ({ const: c })) };
    const errors = [
      ...theme.anyOf.map((b) => ({ keyword: "const", instancePath: "/theme", parentSchema: b })),
      { keyword: "anyOf", instancePath: "/theme", parentSchema: theme },
    ];
    expect(plainFailures(errors, "body")).toEqual([
      {
        field: "theme",
        message: "Theme must be one of: Commerce, Market, Cover.",
        fieldMessage: "Theme must be one of: Commerce, Market, Cover.",
      },
    ]);
  });

  it("names missing and extra fields, and uses a schema's title as the label", () => {
    const object = { type: "object", properties: { fullName: { title: "Your name", type: "string" } } };
    const missing = plainFailures(
      [
        {
          keyword: "required",
          instancePath: "",
          params: { missingProperty: "fullName" },
          parentSchema: object,
        },
      ],
      "body",
    );
    expect(missing).toEqual([
      { field: "fullName", message: "Your name is required.", fieldMessage: "Required" },
    ]);
    const extra = plainFailures(
      [{ keyword: "additionalProperties", instancePath: "/address", params: { additionalProperty: "zip" } }],
      "body",
    );
    expect(extra[0]!.field).toBe("address.zip");
    expect(extra[0]!.message).toBe("“zip” is not a field that can be sent here; remove it.");
    const nested = plainFailures(
      [
        {
          keyword: "maxLength",
          instancePath: "/socialLinks/0/profileUrl",
          parentSchema: { type: "string", maxLength: 3000 },
        },
      ],
      "body",
    );
    expect(nested[0]).toMatchObject({
      field: "socialLinks.0.profileUrl",
      message: "Profile URL must be text of at most 3000 characters.",
    });
    const whole = plainFailures(
      [{ keyword: "type", instancePath: "", parentSchema: { type: "object" } }],
      "body",
    );
    expect(whole[0]!.message).toBe("The request body must be a set of named values.");
  });
});
