import {
  INSTALMENT_COUNT,
  formatMoney,
  instalmentAmount,
  instalmentLocale,
  instalmentRange,
} from "@atelier/commerce";
import { describe, expect, it } from "vitest";
import { INSTALMENT_CONTENT, instalmentContent, instalmentLine } from "./content.js";

const line = (priceCents: number, locale = "en-US") => {
  const where = instalmentLocale(locale);
  return instalmentLine(instalmentRange(priceCents), instalmentContent(where.country, where.language), {
    count: INSTALMENT_COUNT,
    amount: formatMoney(instalmentAmount(priceCents), "USD"),
    min: formatMoney(100, "USD"),
    max: formatMoney(150000, "USD"),
  });
};

describe("instalment content shipped per country", () => {
  it("covers every supported country and language, and falls back to the US text", () => {
    expect(Object.keys(INSTALMENT_CONTENT).sort()).toEqual(["AU-en", "CA-en", "CA-fr", "NZ-en", "US-en"]);
    for (const c of Object.values(INSTALMENT_CONTENT)) {
      expect(c.title).not.toBe("");
      expect(c.steps.length).toBeGreaterThanOrEqual(3);
      expect(c.terms).not.toBe("");
    }
    expect(instalmentContent("DE", "de")).toBe(INSTALMENT_CONTENT["US-en"]);
    expect(instalmentContent("CA", "fr").title).toBe("Payez en 4 versements sans intérêts");
    expect(instalmentContent("AU", "en").intro).toContain("Australia");
  });

  it("says 4 payments of a quarter of the price in range, else the minimum or the maximum", () => {
    expect(line(6800)).toBe("or 4 interest-free payments of $17.00");
    expect(line(101)).toBe("or 4 interest-free payments of $0.26");
    expect(line(150000)).toBe("or 4 interest-free payments of $375.00");
    expect(line(100)).toBe("Pay in 4 interest-free payments on orders over $1.00");
    expect(line(150001)).toBe("Pay in 4 interest-free payments on orders up to $1,500.00");
    expect(line(6800, "fr-CA")).toBe("ou 4 versements sans intérêts de $17.00");
  });
});
