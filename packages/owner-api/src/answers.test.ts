import { describe, expect, it } from "vitest";
import { apiErrorOf, readJson } from "./answers.js";

describe("reading an owner API answer", () => {
  it("reads a JSON body, and nothing from an empty one or a proxy's HTML page", async () => {
    await expect(readJson(Response.json({ site: { id: "s1" } }))).resolves.toEqual({ site: { id: "s1" } });
    await expect(readJson(new Response(null, { status: 204 }))).resolves.toBeUndefined();
    await expect(
      readJson(new Response("<html>Bad gateway</html>", { status: 502 })),
    ).resolves.toBeUndefined();
  });

  it("finds the error of a refused answer with its fields, line and column", async () => {
    const body = {
      error: {
        code: "template_syntax",
        message: "Unclosed section",
        fields: { source: "x" },
        line: 3,
        column: 7,
      },
    };
    expect(apiErrorOf(await readJson(Response.json(body, { status: 400 })))).toEqual(body.error);
    expect(apiErrorOf(undefined)).toBeUndefined();
    expect(apiErrorOf({ error: "not an object" })).toBeUndefined();
    expect(apiErrorOf(null)).toBeUndefined();
  });
});
