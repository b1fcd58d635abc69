/**
 * Runs the shared conformance cases of the commerce formatters and predicates through the
 * engine. The cases live in the shared folder beside the repository (never copied here).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCase, runCaseFile, shortDiff } from "../cli/cases.js";
import { PLUGIN_CASES_DIR as casesDir, caseNames, stemPattern } from "../cli/shared-cases.js";
import { Engine } from "../engine.js";
import { loadLocale } from "../i18n/cldr.js";

const FORMATTER_STEMS = [
  "add-to-cart-btn",
  "bookkeeper-money-format",
  "cart-quantity",
  "cart-subtotal",
  "cart-url",
  "from-price",
  "money-format",
  "money-format-camel",
  "money-string",
  "normal-price",
  "percentage-format",
  "product-price",
  "product-price-[a-z-]+",
  "product-quick-view",
  "product-restock-notification",
  "product-scarcity",
  "product-status",
  "quantity-input",
  "sale-price",
  "subscription-price-[a-z-]+",
  "variant-descriptor",
  "variants-select",
];
const PREDICATE_STEMS = ["has-variants", "on-sale", "sold-out", "varied-prices"];

/**
 * Two cases come from an older reference template of add-to-cart-btn (no primary-button
 * class, no data-dynamic-strings): their JSON and template equal those of
 * f-add-to-cart-btn-6 and -7, whose expected output is the current markup, so no engine
 * can pass both. The engine follows the current markup; the test below proves the clash.
 */
const SUPERSEDED: Record<string, string> = {
  "f-add-to-cart-btn-subscribable-attribute-false.html": "f-add-to-cart-btn-6.html",
  "f-add-to-cart-btn-subscribable-attribute-true.html": "f-add-to-cart-btn-7.html",
};

const pattern = stemPattern(FORMATTER_STEMS, PREDICATE_STEMS);
const files = caseNames(casesDir, (name) => pattern.test(name));

describe.skipIf(files.length === 0)("commerce conformance cases", () => {
  const engine = new Engine();

  beforeAll(async () => {
    await loadLocale("en-US");
  });

  it("finds the cases", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  for (const file of files.filter((f) => !(f in SUPERSEDED))) {
    it(file, () => {
      const outcome = runCaseFile(engine, join(casesDir, file));
      expect(outcome.problem).toBeUndefined();
      if (!outcome.passed) expect.fail(shortDiff(outcome.expected, outcome.actual));
    });
  }

  for (const [file, current] of Object.entries(SUPERSEDED)) {
    it(`${file} contradicts ${current}`, () => {
      const old = loadCase(join(casesDir, file));
      const now = loadCase(join(casesDir, current));
      expect(old.json).toEqual(now.json);
      expect(old.template).toEqual(now.template);
      expect(old.expected.trim()).not.toEqual(now.expected.trim());
      expect(runCaseFile(engine, join(casesDir, current)).passed).toBe(true);
      expect(readFileSync(join(casesDir, file), "utf8")).not.toContain("sqs-button-element--primary");
    });
  }
});
