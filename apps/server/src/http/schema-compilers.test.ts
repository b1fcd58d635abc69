/** Route schemas compiled once per process, at their first use (schema-compilers.ts). */
import { Type } from "@sinclair/typebox";
import { describe, expect, it, vi } from "vitest";
import { buildSerializer, buildValidator } from "./schema-compilers.js";

const options = { customOptions: { coerceTypes: "array", removeAdditional: true } };
const body = () => Type.Object({ quantity: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
const route = (schema: object) => ({ schema, method: "POST", url: "/x", httpPart: "body" });

describe("route schema compilers", () => {
  it("validates as Ajv does, with Ajv's errors and schemaEnv, one validator per schema text", () => {
    const compile = buildValidator({}, options as never);
    const validate = compile(route(body()) as never) as unknown as ((d: unknown) => boolean) & {
      errors?: { instancePath: string; keyword: string }[] | null;
      schemaEnv?: unknown;
    };
    expect(validate.schemaEnv).toBeDefined();
    expect(validate({ quantity: 0 })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: "/quantity", keyword: "minimum" });
    expect(validate({ quantity: 2 })).toBe(true);
    expect(validate.errors).toBeNull();
    // Another app's schema of the same text (a new object) gets the same validator.
    expect(buildValidator({}, options as never)(route(body()) as never)).toBe(validate);
    // Another part of a request is another validator.
    expect(compile({ ...route(body()), httpPart: "querystring" } as never)).not.toBe(validate);
  });

  it("compiles nothing until a schema is first used", async () => {
    const ajv = await import("ajv");
    const spy = vi.spyOn(ajv.default.prototype, "compile");
    const compile = buildValidator({}, options as never);
    const schema = Type.Object({ never: Type.String({ minLength: 3 }) });
    const validate = compile(route(schema) as never) as unknown as (d: unknown) => boolean;
    expect(spy).not.toHaveBeenCalled();
    expect(validate({ never: "ab" })).toBe(false);
    expect(spy).toHaveBeenCalledTimes(1);
    validate({ never: "abc" });
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it("serializes with the response schema, one serializer per schema text", () => {
    const schema = () => Type.Object({ id: Type.String() });
    const serialize = buildSerializer({}, {})({ schema: schema(), httpStatus: "200" } as never);
    expect(serialize({ id: "a", secret: "left out" })).toBe('{"id":"a"}');
    expect(buildSerializer({}, {})({ schema: schema(), httpStatus: "200" } as never)).toBe(serialize);
  });
});
