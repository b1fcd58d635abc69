import { describe, expect, it } from "vitest";
import { escapeHtml, escapeXml } from "./escape.js";

describe("escaping", () => {
  it("escapes the five HTML characters, once each, for text and either attribute quote", () => {
    expect(escapeHtml(`Tom & "Jerry's" <b>`)).toBe("Tom &amp; &quot;Jerry&#39;s&quot; &lt;b&gt;");
    expect(escapeHtml("&amp;")).toBe("&amp;amp;");
    expect(escapeHtml("plain")).toBe("plain");
  });

  it("escapes XML with its predefined entities", () => {
    expect(escapeXml(`Tom & "Jerry's" <b>`)).toBe("Tom &amp; &quot;Jerry&apos;s&quot; &lt;b&gt;");
  });
});
