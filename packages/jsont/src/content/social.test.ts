import { describe, expect, it } from "vitest";
import {
  activateTwitterLinksFormatter,
  compactUtc,
  googleCalendarUrlFormatter,
  likeButtonFormatter,
  socialButtonFormatter,
  socialButtonInlineFormatter,
  twitterFollowButtonFormatter,
} from "./social.js";
import { fakeContext, format } from "./testing.js";

describe("activate-twitter-links", () => {
  it("links urls, mentions and hashtags", () => {
    const out = format(
      activateTwitterLinksFormatter,
      "see https://example.org/x?a=1 @Jane #news_today",
      fakeContext({}),
    );
    expect(out).toBe(
      'see <a target="new" href="https://example.org/x?a=1">https://example.org/x?a=1</a> ' +
        '<a target="new" href="https://twitter.com/Jane/">@Jane</a> ' +
        '<a target="new" href="https://twitter.com/hashtag/news_today?src=hash">#news_today</a>',
    );
  });

  it("leaves mid-word @ and # alone", () => {
    expect(format(activateTwitterLinksFormatter, "mail a@b.c and C#sharp", fakeContext({}))).toBe(
      "mail a@b.c and C#sharp",
    );
  });
});

describe("social buttons", () => {
  const item = {
    systemDataId: "sd1",
    mainImageId: "mi1",
    mainImage: { assetUrl: "/main.jpg" },
    recordType: 2,
    title: 'A "quoted" title',
    fullUrl: "/blog/post",
  };

  it("renders the share button placeholder", () => {
    const ctx = fakeContext({ website: { shareButtonOptions: { facebook: true } } });
    expect(format(socialButtonFormatter, item, ctx)).toBe(
      '<div class="squarespace-social-buttons button-style" data-system-data-id="sd1" data-asset-url="/main.jpg" ' +
        'data-record-type="2" data-full-url="/blog/post" data-title="A &quot;quoted&quot; title"></div>',
    );
    expect(format(socialButtonInlineFormatter, { ...item, assetUrl: "/own.jpg" }, ctx)).toBe(
      '<span class="squarespace-social-buttons inline-style" data-system-data-id="sd1" data-asset-url="/own.jpg" ' +
        'data-record-type="2" data-full-url="/blog/post" data-title="A &quot;quoted&quot; title"></span>',
    );
  });

  it("renders nothing without share button options", () => {
    expect(format(socialButtonFormatter, item, fakeContext({}))).toBe("");
    expect(format(socialButtonFormatter, item, fakeContext({ website: { shareButtonOptions: [] } }))).toBe(
      "",
    );
  });
});

describe("twitter-follow-button", () => {
  it("uses the user name or the profile url's last segment", () => {
    expect(format(twitterFollowButtonFormatter, { userName: "jane" }, fakeContext({}))).toContain(
      'data-username="jane"',
    );
    expect(
      format(
        twitterFollowButtonFormatter,
        { userName: "", profileUrl: "https://x.com/jdoe/" },
        fakeContext({}),
      ),
    ).toContain('<div class="squarespace-follow-button" data-username="jdoe"></div>');
  });

  it("escapes the user name and renders nothing without one", () => {
    expect(format(twitterFollowButtonFormatter, { userName: 'a"b' }, fakeContext({}))).toContain(
      'data-username="a&quot;b"',
    );
    expect(format(twitterFollowButtonFormatter, { userName: "", profileUrl: "" }, fakeContext({}))).toBe("");
  });
});

describe("like-button", () => {
  it("renders when simple liking is on", () => {
    const ctx = fakeContext({ websiteSettings: { simpleLikingEnabled: true } });
    expect(format(likeButtonFormatter, { id: "p1", likeCount: 7 }, ctx)).toBe(
      '\n  <span class="sqs-simple-like" data-item-id="p1" data-like-count="7">\n' +
        '    <span class="like-icon"></span>\n    <span class="like-count"></span>\n  </span>\n',
    );
  });

  it("renders nothing when liking is off", () => {
    expect(format(likeButtonFormatter, { id: "p1" }, fakeContext({ websiteSettings: {} }))).toBe("");
  });
});

describe("google-calendar-url", () => {
  it("formats instants in compact UTC", () => {
    expect(compactUtc(Date.UTC(2021, 0, 2, 3, 4, 5))).toBe("20210102T030405Z");
  });

  it("builds the link with title, dates and location", () => {
    const event = {
      title: "Open day & tour",
      startDate: Date.UTC(2022, 5, 1, 9, 0, 0),
      endDate: Date.UTC(2022, 5, 1, 17, 30, 0),
      location: { addressLine1: "1 Quay St", addressLine2: " ", addressCountry: "NZ" },
    };
    expect(format(googleCalendarUrlFormatter, event, fakeContext({}))).toBe(
      "http://www.google.com/calendar/event?action=TEMPLATE&text=Open%20day%20%26%20tour" +
        "&dates=20220601T090000Z/20220601T173000Z&location=1%20Quay%20St%2C%20NZ",
    );
  });

  it("leaves out an empty location", () => {
    const event = { startDate: 0, endDate: 1000, location: {} };
    expect(format(googleCalendarUrlFormatter, event, fakeContext({}))).toBe(
      "http://www.google.com/calendar/event?action=TEMPLATE&text=&dates=19700101T000000Z/19700101T000001Z",
    );
  });
});
