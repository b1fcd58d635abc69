import { describe, expect, it } from "vitest";
import { recordPredicates } from "./records.js";
import { fakeContext } from "./testing.js";

const table = recordPredicates();
const test = (name: string, node: unknown, args: string[] = [], root: unknown = {}) =>
  table[name](args, fakeContext(root).push(node));

describe("record type predicates", () => {
  it("match the record type code", () => {
    expect(test("text?", { recordType: 1 })).toBe(true);
    expect(test("store-item?", { recordType: 11 })).toBe(true);
    expect(test("event?", { recordType: 11 })).toBe(false);
    expect(test("kbarticle?", { recordType: 54 })).toBe(true);
    expect(test("undefined?", { recordType: -1 })).toBe(true);
    expect(test("undefined?", {})).toBe(false);
  });

  it("also accept a promoted block of the same kind for promotable types", () => {
    expect(test("video?", { promotedBlockType: "video" })).toBe(true);
    expect(test("external-video?", { recordType: 8 })).toBe(true);
    expect(test("image?", { promotedBlockType: "image" })).toBe(true);
    expect(test("quote?", { recordType: 1, promotedBlockType: "link" })).toBe(false);
    expect(test("link?", { recordType: 1, promotedBlockType: "link" })).toBe(true);
  });

  it("test promoted block types and background sources", () => {
    expect(test("promotedMAP?", { promotedBlockType: "map" })).toBe(true);
    expect(test("promotedMAP?", { promotedBlockType: "embed" })).toBe(false);
    expect(test("background-source-video?", { backgroundSource: 3 })).toBe(true);
    expect(test("background-source-none?", { backgroundSource: 3 })).toBe(false);
  });
});

describe("collection and folder predicates", () => {
  it("clickable? when the folder behaviour is unset, index or redirect", () => {
    expect(test("clickable?", {})).toBe(true);
    expect(test("clickable?", { folderBehavior: 1 })).toBe(true);
    expect(test("clickable?", { folderBehavior: 2 })).toBe(true);
    expect(test("clickable?", { folderBehavior: 3 })).toBe(false);
  });

  it("redirect? and folder?", () => {
    expect(test("redirect?", { folderBehavior: 2 })).toBe(true);
    expect(test("redirect?", {})).toBe(false);
    expect(test("folder?", { collection: { folder: true } })).toBe(true);
  });

  it("collection?, collection-page? and collection-template-page?", () => {
    expect(test("collection?", { collection: { id: 1 } })).toBe(true);
    expect(test("collection?", { collection: {} })).toBe(false);
    expect(test("collection-page?", { collection: { type: 10 } })).toBe(true);
    expect(test("collection-page?", { collection: { type: 1 } })).toBe(false);
    expect(test("collection-template-page?", { collection: { type: 7 } })).toBe(true);
    expect(test("collection-template-page?", { type: 7 })).toBe(true);
    expect(test("collection-template-page?", {})).toBe(false);
  });

  it("collectionTypeNameEquals? compares the type name in context", () => {
    expect(test("collectionTypeNameEquals?", { typeName: "blog" }, ["blog"])).toBe(true);
    expect(test("collectionTypeNameEquals?", { typeName: "blog" }, ["events"])).toBe(false);
    expect(test("collectionTypeNameEquals?", { typeName: "blog" })).toBe(false);
    expect(test("collectionTypeNameEquals?", {}, ["blog"], { typeName: "blog" })).toBe(true);
  });

  it("calendar-view? reads the flag in context", () => {
    expect(test("calendar-view?", { calendarView: true })).toBe(true);
    expect(test("calendar-view?", {}, [], { calendarView: true })).toBe(true);
    expect(test("calendar-view?", { calendarView: false })).toBe(false);
  });
});

describe("item predicates", () => {
  it("images", () => {
    expect(test("main-image?", { systemDataId: "x" })).toBe(true);
    expect(test("main-image?", { mainImageId: "" })).toBe(false);
    expect(test("child-images?", { items: [{ mainImageId: "m" }, {}] })).toBe(true);
    expect(test("child-images?", { items: [{}, { mainImageId: "m" }] })).toBe(false);
    expect(test("child-images?", { items: [] })).toBe(false);
  });

  it("links, locations and passthrough", () => {
    expect(test("external-link?", { externalLink: "https://a.test" })).toBe(true);
    expect(test("external-link?", { externalLink: "" })).toBe(false);
    expect(test("location?", { location: { mapLat: 1, mapLng: 2 } })).toBe(true);
    expect(test("location?", { location: { mapLat: 1 } })).toBe(false);
    expect(test("passthrough?", { passthrough: true, sourceUrl: "https://a.test" })).toBe(true);
    expect(test("passthrough?", { passthrough: true, sourceUrl: "" })).toBe(false);
  });

  it("excerpts need visible text", () => {
    expect(test("excerpt?", { excerpt: "<p>Hello</p>" })).toBe(true);
    expect(test("excerpt?", { excerpt: { html: "<p>\u00a0 \u200b</p>" } })).toBe(false);
    expect(test("excerpt?", { excerpt: { html: "<b>x</b>" } })).toBe(true);
    expect(test("excerpt?", {})).toBe(false);
  });

  it("has-multiple?, serviceNameEmail? and show-past-events?", () => {
    expect(test("has-multiple?", [1, 2])).toBe(true);
    expect(test("has-multiple?", [1])).toBe(false);
    expect(test("serviceNameEmail?", { serviceName: "email" })).toBe(true);
    expect(test("serviceNameEmail?", { serviceName: "sms" })).toBe(false);
    expect(test("show-past-events?", { showPastOrUpcomingEvents: "past" })).toBe(true);
    expect(test("show-past-events?", { showPastOrUpcomingEvents: "upcoming" })).toBe(false);
  });

  it("current-type? compares the slide's slice type", () => {
    expect(test("current-type?", { currentType: 5 }, ["gallery"])).toBe(true);
    expect(test("current-type?", { currentType: 4 }, ["gallery"])).toBe(false);
    expect(test("current-type?", { currentType: 5 }, ["nonsense"])).toBe(false);
    expect(test("current-type?", { currentType: 5 })).toBe(false);
  });
});
