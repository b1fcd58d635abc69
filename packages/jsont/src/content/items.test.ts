import { describe, expect, it } from "vitest";
import { createEngine } from "../index.js";
import { absUrlFormatter, audioPlayerFormatter, itemClassesFormatter } from "./items.js";
import { fakeContext, format } from "./testing.js";

describe("item-classes", () => {
  it("lists the item's classes from its section", () => {
    const item = {
      promotedBlockType: "Quote",
      categories: ["News", "Big Events!"],
      tags: ["a b"],
      author: { displayName: "Mary Ann" },
      recordTypeLabel: "text",
      starred: true,
      recordType: 1,
    };
    const ctx = fakeContext({ items: [item] }).push(item, 3);
    expect(format(itemClassesFormatter, item, ctx)).toBe(
      "hentry promoted promoted-block-quote category-news category-big-events tag-a-b author-mary-ann post-type-text article-index-3 featured",
    );
  });

  it("adds sale and stock status for store items", () => {
    const product = {
      recordType: 11,
      recordTypeLabel: "store-item",
      structuredContent: { productType: 1, variants: [{ onSale: true, qtyInStock: 0 }] },
    };
    const ctx = fakeContext(product);
    expect(format(itemClassesFormatter, product, ctx)).toBe("hentry post-type-store-item on-sale sold-out");
    const download = { recordType: 11, structuredContent: { productType: 2, onSale: false } };
    expect(format(itemClassesFormatter, download, fakeContext(download))).toBe("hentry post-type-");
  });
});

describe("item-classes in the engine", () => {
  it("takes each name from the innermost frame that has it (false counts), for any item", () => {
    const json = {
      starred: true,
      tags: ["outer tag"],
      recordTypeLabel: "text",
      items: [
        { categories: ["A"] },
        { tags: ["inner"], starred: false, author: { displayName: "X Y" }, promotedBlockType: "" },
        5,
        null,
      ],
    };
    const src =
      "{.repeated section items}{@|item-classes}|{.end}{.section items}{.section 0}{@|item-classes}{.end}{.end}";
    const expected =
      "hentry category-a tag-outer-tag post-type-text article-index-1 featured|" +
      "hentry tag-inner author-x-y post-type-text article-index-2|" +
      "hentry tag-outer-tag post-type-text article-index-3 featured|" +
      "hentry tag-outer-tag post-type-text article-index-4 featured|" +
      "hentry category-a tag-outer-tag post-type-text featured";
    expect(createEngine().render(src, json).output).toBe(expected);
    expect(createEngine({ codegen: false }).render(src, json).output).toBe(expected);
  });
});

describe("small item formatters", () => {
  it("makes urls absolute against base-url", () => {
    expect(format(absUrlFormatter, "shop/cart", fakeContext({ "base-url": "https://a.test" }))).toBe(
      "https://a.test/shop/cart",
    );
  });

  it("renders the audio player from the item's own data", () => {
    const episode = { id: "e1", structuredContent: { audioAssetUrl: "/ep1.mp3" } };
    expect(format(audioPlayerFormatter, episode, fakeContext({ id: "outer" }))).toBe(
      "<script>Y.use('squarespace-audio-player-frontend');</script>\n" +
        '<div class="squarespace-audio-player" data-audio-asset-url="/ep1.mp3" data-item-id="e1" id="audio-player-e1"></div>',
    );
  });
});
