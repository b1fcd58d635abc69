/**
 * The i18n formatters and predicates through the engine, beyond the shared conformance cases.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../engine.js";
import { loadLocale } from "./cldr.js";

const engine = new Engine();

function render(template: string, json: unknown, options: { locale?: string; now?: number } = {}) {
  const r = engine.render(template, json, options);
  return { output: r.output, errors: r.errors.map((e) => e.message) };
}
const out = (template: string, json: unknown, options: { locale?: string; now?: number } = {}) =>
  render(template, json, options).output;

beforeAll(async () => {
  await Promise.all([loadLocale("en-US"), loadLocale("fr-FR"), loadLocale("de-DE")]);
});

describe("date", () => {
  it("formats in the website's time zone", () => {
    const t = 1613597165345;
    expect(out("{t|date %H:%M %Z}", { t })).toBe("16:26 EST");
    expect(out("{t|date %H:%M %Z}", { t, website: { timeZone: "Europe/Paris" } })).toBe("22:26 CET");
    expect(out("{t|date %Y}", { t: "1613597165345" })).toBe("2021");
  });

  it("uses the render locale's month and weekday names", () => {
    expect(out("{t|date %A %e %B}", { t: 1613597165345 }, { locale: "fr-FR" })).toBe("mercredi 17 février");
  });

  it("prints 'Invalid Date' for values that are not dates and nothing for missing ones", () => {
    expect(out("{t|date %Y}", { t: "soon" })).toBe("Invalid Date");
    expect(out("{t|date %Y}", { t: { a: 1 } })).toBe("Invalid Date");
    expect(out("[{t|date %Y}]", {})).toBe("[]");
  });

  it("reports dates outside the Julian day range", () => {
    const r = render("[{t|date %Y}]", { t: -9e15 });
    expect(r.output).toBe("[]");
    expect(r.errors.some((m) => m.includes("Julian day"))).toBe(true);
  });

  it("warns and uses UTC when the zone has no data", () => {
    const r = render("{t|date %H:%M %Z}", { t: 0, website: { timeZone: "Nowhere/Atlantis" } });
    expect(r.output).toBe("00:00 UTC");
    expect(r.errors[0]).toMatch(/^No timezone data loaded/);
  });
});

describe("datetime and intervals", () => {
  it("formats dates with CLDR widths and skeletons", () => {
    const t = 1582663910000;
    expect(out("{t|datetime date:short}", { t })).toBe("2/25/20");
    expect(out("{t|datetime yMMMd}", { t }, { locale: "de-DE" })).toBe("25. Feb. 2020");
    expect(out("{t|datetime}", { t: "x" })).toBe("");
  });

  it("formats intervals in the website's zone", () => {
    const json = { s: 1582663910000, e: 1583763910000, website: { timeZone: "America/Los_Angeles" } };
    expect(out("{s,e|datetime-interval}", json)).toBe("Feb 25\u2009–\u2009Mar 9, 2020");
    expect(out("[{s|datetime-interval}]", json)).toBe("[]");
  });

  it("prints a zone only when the skeleton asks for one, as both references do", () => {
    // This CLDR data puts thin spaces around the dash and a narrow one before AM/PM.
    const t = (text: string) => text.replace(/ – /g, "\u2009–\u2009").replace(/ (AM|PM)/g, "\u202f$1");
    // 10:00 to 12:30 on one day in Los Angeles, then two days, then one minute.
    const s = Date.UTC(2024, 6, 4, 17);
    const la = { website: { timeZone: "America/Los_Angeles" } };
    expect(out("{s,e|datetime-interval}", { ...la, s, e: s + 150 * 60_000 })).toBe(t("10:00 AM – 12:30 PM"));
    expect(out("{s,e|datetime-interval}", { ...la, s, e: s + 60_000 })).toBe(t("10:00 – 10:01 AM"));
    expect(out("{s,e|datetime-interval}", { ...la, s, e: s + 2 * 86_400_000 })).toBe(t("Jul 4 – 6, 2024"));
    // Asked for: the zone's short generic name, or its GMT offset where the locale has none.
    expect(out("{s,e|datetime-interval hmv}", { ...la, s, e: s + 150 * 60_000 })).toBe(
      t("10:00 AM – 12:30 PM PT"),
    );
    expect(
      out("{s,e|datetime-interval hmv}", { website: { timeZone: "Europe/Paris" }, s, e: s + 3_600_000 }),
    ).toBe(t("7:00 – 8:00 PM GMT+2"));
    // A skeleton with no time: the same day prints the date twice, two months the month range.
    expect(out("{s,e|datetime-interval yMMMd}", { ...la, s, e: s + 60_000 })).toBe(
      t("Jul 4, 2024 – Jul 4, 2024"),
    );
    expect(out("{s,e|datetime-interval yMMM}", { ...la, s, e: s + 40 * 86_400_000 })).toBe(
      t("Jul – Aug 2024"),
    );
  });
});

describe("numbers", () => {
  it("clamps digit options to 0-50", () => {
    expect(out("{n|decimal maxfrac:-4}", { n: "2.5" })).toBe("2");
    expect(out("{n|decimal minfrac:99}", { n: "1" })).toBe(`1.${"0".repeat(50)}`);
  });

  it("formats in the render locale; a bare decimal does not group", () => {
    expect(out("{n|decimal}", { n: 1234567.5 }, { locale: "de-DE" })).toBe("1234567,5");
    expect(out("{n|decimal group}", { n: 1234567.5 }, { locale: "de-DE" })).toBe("1.234.567,5");
    expect(out("[{n|decimal}]", { n: "12a" })).toBe("[]");
  });

  it("groups as both references do in their migration cases: styles, percent, any digit option", () => {
    const d = (n: string, args: string) => out(`{n|decimal ${args}}`, { n });
    expect(d("-15789.12", "group")).toBe("-15,789.12");
    expect(d("1200", "style:long")).toBe("1.2 thousand");
    expect(d("-15789.12", "style:short")).toBe("-16K");
    expect(d("-100200300.40", "style:percent")).toBe("-10,020,030,040%");
    expect(d("123456.7890", "maximumFractionDigits:1")).toBe("123,456.8");
    expect(d("123456.7890", "maximumFractionDigits:1 round:down")).toBe("123,456.7");
    expect(d("1200", "no-group style:percent")).toBe("120000%");
    // Money groups always; accounting style in any digit mode.
    const m = (decimalValue: number, currencyCode: string, args: string) =>
      out(`{m|money ${args}}`, { m: { decimalValue, currencyCode } });
    expect(m(-1234.56, "USD", "style:accounting")).toBe("($1,234.56)");
    expect(m(-1234.56, "USD", "style:accounting mode:significant")).toBe("($1,234.56)");
    expect(m(1234.56, "AUD", "style:accounting")).toBe("A$1,234.56");
    expect(m(1234.56, "EUR", "style:accounting mode:significant")).toBe("€1,234.56");
  });

  it("keeps the source text of numbers like 1.0", () => {
    expect(out("{n|decimal minfrac:1}", JSON.parse('{"n": 3}'))).toBe("3.0");
  });
});

describe("digital units", () => {
  const unit = (n: string, args: string, locale = "en-US") => out(`{n|unit ${args}}`, { n }, { locale });
  it("converts within and across the bits and bytes families by powers of 1024, and 8 bits a byte", () => {
    expect(unit("1024", "in:byte compact:byte")).toBe("1kB");
    expect(unit("123456", "in:byte compact:byte")).toBe("120.6kB");
    expect(unit("1533", "in:megabyte compact:byte")).toBe("1.5GB");
    expect(unit("12345657890", "in:byte compact:bytes")).toBe("11.5GB");
    expect(unit("1000000", "in:bit compact:bit")).toBe("976.6kb");
    expect(unit("8192", "in:bit compact:byte")).toBe("1kB");
    expect(unit("1234567", "in:byte")).toBe("1.2MB");
  });
  it("infers bytes from an output unit, never from a compact form alone", () => {
    expect(unit("1234567", "out:kilobyte group:true")).toBe("1,205.6kB");
    expect(unit("1234567", "compact:byte")).toBe("1234567");
    expect(unit("1234567", "group")).toBe("1,234,567");
  });
  it("spells the units out in the long format in the locale", () => {
    expect(unit("1351531335", "format:long in:byte out:megabyte group:true")).toBe("1,288.9 megabytes");
    // French: a narrow no-break space between thousands, a no-break space before the unit.
    expect(unit("1351531335", "format:long in:byte out:megabyte group:true", "fr-FR")).toBe(
      "1\u202f288,9\u00a0mégaoctets",
    );
  });
});

describe("money", () => {
  it("formats decimalValue/currencyCode, and value/currency under the CLDR money format", () => {
    const m = { value: "12.5", currency: "USD" };
    expect(out("{m|money}", { m: { decimalValue: "12.5", currencyCode: "USD" } })).toBe("$12.50");
    expect(out("[{m|money}]", { m })).toBe("[]");
    expect(out("{m|money}", { m, website: { useCLDRMoneyFormat: true } })).toBe("$12.50");
    expect(
      out("{m|money style:name}", { m: { decimalValue: "1", currencyCode: "EUR" } }, { locale: "fr-FR" }),
    ).toBe("1,00 euro");
  });
});

describe("messages", () => {
  it("selects, pluralizes with exact values and offsets, and formats tags", () => {
    const msg =
      "{0 select female{She has} other{They have}} {1 plural =0{no items} one{# item} other{# items}}";
    expect(out("{msg|message g n}", { msg, g: "female", n: 0 })).toBe("She has no items");
    expect(out("{msg|message g n}", { msg, g: "x", n: 2 })).toBe("They have 2 items");
    const offset = "{0 plural offset:1 one{You and # other} other{You and # others}}";
    expect(out("{msg|message n}", { msg: offset, n: 3 })).toBe("You and 2 others");
  });

  it("binds named arguments, which also take a position", () => {
    expect(
      out("{msg|message who=person.name n}", { msg: "{who}/{0}/{1}", person: { name: "Ann" }, n: 4 }),
    ).toBe("Ann/Ann/4");
  });

  it("prints nothing for a plural category without a branch", () => {
    expect(out("[{msg|message n}]", { msg: "{0 plural other{many}}", n: 1 })).toBe("[]");
    expect(out("[{msg|message n}]", { msg: "{0 plural other{many}}", n: 2 })).toBe("[many]");
  });

  it("resolves @ to the node the message is used in", () => {
    expect(out("{.repeated section xs}{msg|message @}{.end}", { msg: "<{0}>", xs: ["a", "b"] })).toBe(
      "<a><b>",
    );
  });

  it("reads @.name paths from the message itself below level 2, from the enclosing node from 2", () => {
    const json = { box: { w: 7, h: 3 }, msg: "{w}x{h}" };
    const t = "{.section box}{msg|message w=@.w h=h}{.end}";
    expect(engine.render(t, json).output).toBe("x3");
    expect(engine.render(t, json, { compatLevel: 2 }).output).toBe("7x3");
  });

  it("from level 2 keeps unresolved arguments as text and splits names only at identifiers", () => {
    const json = { msg: "{0}|{1}|{2}|{site}|{n}", count: 5 };
    const t = "{msg|message https://shop.test/a?b=c n=count 3.5 site:ftp://files.test}";
    expect(engine.render(t, json, { compatLevel: 2 }).output).toBe(
      "https://shop.test/a?b=c|5|3.5|ftp://files.test|5",
    );
    // Legacy: the first ':' or '=' names the argument and an unresolved value is empty.
    expect(engine.render(t, json).output).toBe("|5|||5");
  });

  it("uses the locale's plural rules", () => {
    const msg = "{0 plural one{un} other{autre}}";
    expect(out("{msg|message n}", { msg, n: 0 }, { locale: "fr-FR" })).toBe("un");
    expect(out("{msg|message n}", { msg, n: 0 })).toBe("autre");
  });
});

describe("relative times and durations", () => {
  const now = Date.UTC(2021, 1, 17, 12);

  it("relative-time: from now or between two dates", () => {
    expect(out("{t|relative-time}", { t: now - 3 * 86_400_000 }, { now })).toBe("3 days ago");
    expect(out("{a,b|relative-time}", { a: now, b: now + 3_600_000 }, { now })).toBe("in 1 hour");
    expect(out("{t|relative-time}", { t: "yesterday" }, { now })).toBe("Invalid date.");
    expect(out("[{t|relative-time}]", {}, { now })).toBe("[]");
  });

  it("timesince: now within a minute or in the future, else how long ago", () => {
    const span = (t: number, text: string) => `<span class="timesince" data-date="${t}">${text}</span>`;
    expect(out("{t|timesince}", { t: now - 59_000 }, { now })).toBe(span(now - 59_000, "now"));
    expect(out("{t|timesince}", { t: now + 5_000_000 }, { now })).toBe(span(now + 5_000_000, "now"));
    expect(out("{t|timesince}", { t: now - 2 * 3_600_000 }, { now })).toBe(
      span(now - 2 * 3_600_000, "about 2 hours ago"),
    );
    expect(out("{t|timesince}", { t: "2021-02-17" }, { now })).toBe("Invalid date.");
    expect(out("{t|timesince}", { t: true }, { now })).toBe("Invalid date.");
  });

  it("timesince: whole years of 365 days, months of 30, then weeks, days, hours, minutes", () => {
    const day = 86_400_000;
    const since = (ms: number, locale?: string) =>
      out("{t|timesince}", { t: now - ms }, { now, locale }).replace(/<[^>]*>/g, "");
    expect(since(729 * day)).toBe("about a year ago");
    expect(since(730 * day)).toBe("about 2 years ago");
    expect(since(364 * day)).toBe("about 12 months ago");
    expect(since(59 * day)).toBe("about a month ago");
    expect(since(29 * day)).toBe("about 4 weeks ago");
    expect(since(13 * day)).toBe("about a week ago");
    expect(since(6 * day + 23 * 3_600_000)).toBe("about 6 days ago");
    expect(since(day - 1)).toBe("about 23 hours ago");
    expect(since(3_600_000)).toBe("about an hour ago");
    expect(since(119_000)).toBe("about a minute ago");
    expect(since(45 * 60_000)).toBe("about 45 minutes ago");
    // A numeric string is a date too; other languages word the same unit and count in CLDR.
    expect(out("{t|timesince}", { t: String(now - 730 * day) }, { now })).toContain("about 2 years ago");
    expect(since(730 * day, "de-DE")).toBe("vor 2 Jahren");
  });

  it("humanizeDuration prints minutes and seconds", () => {
    expect(out("{d|humanizeDuration}", { d: 3_725_000 })).toBe("62:05");
    expect(out("{d|humanize-duration}", { d: 5_000 })).toBe("0:05");
  });
});

describe("same-day?", () => {
  it("compares startDate and endDate in the website's zone", () => {
    const t = "{.section e}{.same-day?}same{.or}different{.end}{.end}";
    const e = { startDate: Date.UTC(2021, 1, 17, 15), endDate: Date.UTC(2021, 1, 18, 0, 30) };
    expect(out(t, { e })).toBe("same");
    expect(out(t, { e, website: { timeZone: "UTC" } })).toBe("different");
    expect(out(t, { e: { startDate: 1 } })).toBe("different");
  });
});

describe("locale data", () => {
  // A locale nothing in the app loads: test files share a worker's loaded modules, so a locale a
  // site uses (ja-JP) may already be loaded by an earlier file.
  it("reports a locale whose data is not loaded", () => {
    const r = render("[{n|decimal}]", { n: 1 }, { locale: "ko-KR" });
    expect(r.output).toBe("[]");
    expect(r.errors[0]).toMatch(/CLDR data for locale "ko-KR" is not loaded/);
  });
});
