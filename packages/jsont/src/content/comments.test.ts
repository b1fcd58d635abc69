import { describe, expect, it } from "vitest";
import {
  commentCountFormatter,
  commentCountText,
  commentLinkFormatter,
  commentsFormatter,
  commentsPredicate,
  disqusPredicate,
} from "./comments.js";
import { fakeContext, format } from "./testing.js";

describe("comment-count", () => {
  it("says No Comments, 1 Comment or N Comments", () => {
    expect(commentCountText(0)).toBe("No Comments");
    expect(commentCountText(1)).toBe("1 Comment");
    expect(commentCountText(12)).toBe("12 Comments");
    expect(format(commentCountFormatter, { publicCommentCount: 3 }, fakeContext({}))).toBe("3 Comments");
    expect(format(commentCountFormatter, {}, fakeContext({}))).toBe("No Comments");
  });
});

describe("comment-link", () => {
  const post = { id: "p9", fullUrl: "/journal/p9", publicCommentCount: 0 };

  it("links to the comments with their count", () => {
    expect(format(commentLinkFormatter, post, fakeContext({ post }))).toBe(
      '\n  <a href="/journal/p9#comments-p9" class="sqs-comment-link" data-id="p9">\n  No\n  Comments\n  </a>\n\n',
    );
    expect(
      String(format(commentLinkFormatter, { ...post, publicCommentCount: 1 }, fakeContext({}))),
    ).toContain("\n  1\n  Comment\n  </a>");
  });

  it("uses the Disqus link when the site has a Disqus short name", () => {
    const ctx = fakeContext({ websiteSettings: { disqusShortname: "shop" }, post });
    expect(format(commentLinkFormatter, post, ctx)).toBe(
      '\n  <a href="/journal/p9" class="sqs-comment-link sqs-disqus-comment-link" data-id="p9"></a>\n\n',
    );
  });
});

describe("comments", () => {
  it("carries the item's comment data", () => {
    const item = { id: "i1", publicCommentCount: 4, commentState: 1 };
    expect(format(commentsFormatter, item, fakeContext({ item }))).toBe(
      '\n  <div class="squarespace-comments" id="comments-i1" data-item-id="i1" data-public-comment-count="4" data-comment-state="1"></div>\n\n',
    );
  });

  it("falls back to the collection's comment data", () => {
    const collection = { id: "c1", publicCommentCount: 0, commentState: 2 };
    expect(String(format(commentsFormatter, collection, fakeContext({ collection })))).toContain(
      'id="comments-c1" data-collection-id="c1" data-public-comment-count="0" data-comment-state="2"></div>',
    );
  });

  it("renders the Disqus thread element for Disqus sites", () => {
    const ctx = fakeContext({ websiteSettings: { disqusShortname: "shop" } });
    expect(format(commentsFormatter, { id: "x" }, ctx)).toBe(
      '\n  <div class="squarespace-comments" id="disqus_thread"></div>\n\n',
    );
  });
});

describe("comments? and disqus?", () => {
  const check = (node: unknown) => commentsPredicate([], fakeContext({}).push(node));

  it("shows comments when open or already commented, unless disabled for the site", () => {
    expect(check({ commentState: 1, publicCommentCount: 0 })).toBe(true);
    expect(check({ commentState: 2, publicCommentCount: 5 })).toBe(true);
    expect(check({ commentState: 2, publicCommentCount: 0 })).toBe(false);
    expect(check({ commentState: 1, websiteSettings: { commentsEnabled: false } })).toBe(false);
    expect(check({ commentState: 1, websiteSettings: { commentsEnabled: true } })).toBe(true);
  });

  it("tests the Disqus short name", () => {
    expect(disqusPredicate([], fakeContext({ websiteSettings: { disqusShortName: "a" } }))).toBe(true);
    expect(disqusPredicate([], fakeContext({ websiteSettings: { disqusShortName: "" } }))).toBe(false);
    expect(disqusPredicate([], fakeContext({}))).toBe(false);
  });
});
