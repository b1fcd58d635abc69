/**
 * Social formatters: linkified tweets, share and follow buttons, the like button and the
 * add-to-calendar link of events.
 */
import type { Formatter } from "../types.js";
import { escapeAttr } from "../util/html.js";
import { asNumber, asString, isTruthy, toDisplayString } from "../util/values.js";
import { firstPresent, get, lookup, path, sizeOf } from "./node.js";
import { quoteSafe } from "./text.js";

const URL_RE = /(\b(https?|ftp|file):\/\/[-A-Z0-9+&@#/%?=~_|!:,.;]*[-A-Z0-9+&@#/%=~_|])/gi;
const MENTION_RE = /(^| )@([a-z0-9_]+)/gi;
const HASHTAG_RE = /(^| )#([a-z0-9_]+)/gi;

/**
 * `{text|activate-twitter-links}`: turns URLs, `@mentions` and `#hashtags` of a tweet into
 * links opening in a new window. The text is otherwise left as it is (tweets arrive as HTML).
 */
export const activateTwitterLinksFormatter: Formatter = (_args, vars) => {
  let text = asString(vars[0].value);
  text = text.replace(URL_RE, '<a target="new" href="$1">$1</a>');
  text = text.replace(MENTION_RE, '$1<a target="new" href="https://twitter.com/$2/">@$2</a>');
  text = text.replace(
    HASHTAG_RE,
    (_m, prefix: string, tag: string) =>
      `${prefix}<a target="new" href="https://twitter.com/hashtag/${encodeURIComponent(tag)}?src=hash">#${tag}</a>`,
  );
  vars[0].value = text;
};

/** The share-button placeholder the front end fills in, or "" when the site has no share buttons. */
function socialButton(website: unknown, item: unknown, inline: boolean): string {
  const options = get(website, "shareButtonOptions");
  if (website === undefined || options === undefined || sizeOf(options) === 0) return "";
  const imageId = asString(firstPresent(item, "systemDataId", "mainImageId"));
  let assetUrl = get(item, "assetUrl");
  if (assetUrl === undefined) assetUrl = path(item, ["mainImage", "assetUrl"]);
  const tag = inline ? "span" : "div";
  return (
    `<${tag} class="squarespace-social-buttons ${inline ? "inline-style" : "button-style"}"` +
    ` data-system-data-id="${quoteSafe(imageId)}"` +
    ` data-asset-url="${quoteSafe(asString(assetUrl))}"` +
    ` data-record-type="${quoteSafe(asString(get(item, "recordType")))}"` +
    ` data-full-url="${quoteSafe(asString(get(item, "fullUrl")))}"` +
    ` data-title="${escapeAttr(asString(get(item, "title")))}"></${tag}>`
  );
}

/** `{item|social-button}`: a block of share buttons for the item. */
export const socialButtonFormatter: Formatter = (_args, vars, ctx) => {
  vars[0].value = socialButton(ctx.resolve("website"), vars[0].value, false);
};

/** `{item|social-button-inline}`: inline share buttons for the item. */
export const socialButtonInlineFormatter: Formatter = (_args, vars, ctx) => {
  vars[0].value = socialButton(ctx.resolve("website"), vars[0].value, true);
};

/**
 * `{account|twitter-follow-button}`: a follow button for a connected account; the user name
 * is the account's `userName`, else the last segment of its `profileUrl`. Nothing is
 * rendered for an account without either.
 */
export const twitterFollowButtonFormatter: Formatter = (_args, vars) => {
  const account = vars[0].value;
  let userName = asString(get(account, "userName"));
  if (userName === "") {
    const segments = asString(get(account, "profileUrl"))
      .split("/")
      .filter((s) => s.length > 0);
    userName = segments.length > 0 ? segments[segments.length - 1] : "";
  }
  if (userName === "") {
    vars[0].value = "";
    return;
  }
  vars[0].value =
    "<script>Y.use('squarespace-follow-buttons', function(Y) { " +
    "Y.on('domready', function() { Y.Squarespace.FollowButtonUtils.renderAll(); }); });" +
    `</script><div class="squarespace-follow-button" data-username="${escapeAttr(userName)}"></div>`;
};

/**
 * `{item|like-button}`: the like button of an item, when the site has simple liking on
 * (`websiteSettings.simpleLikingEnabled`); otherwise nothing.
 */
export const likeButtonFormatter: Formatter = (_args, vars, ctx) => {
  const item = vars[0].value;
  if (!isTruthy(item) || !isTruthy(lookup(item, "websiteSettings.simpleLikingEnabled", ctx))) {
    vars[0].value = "";
    return;
  }
  const id = quoteSafe(toDisplayString(lookup(item, "id", ctx)));
  const likeCount = quoteSafe(toDisplayString(lookup(item, "likeCount", ctx)));
  vars[0].value =
    `\n  <span class="sqs-simple-like" data-item-id="${id}" data-like-count="${likeCount}">\n` +
    '    <span class="like-icon"></span>\n' +
    '    <span class="like-count"></span>\n' +
    "  </span>\n";
};

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** An instant in the compact UTC form calendar links use: YYYYMMDDTHHMMSSZ. */
export function compactUtc(epochMillis: number): string {
  const d = new Date(epochMillis);
  if (Number.isNaN(d.getTime())) return "";
  return (
    String(d.getUTCFullYear()).padStart(4, "0") +
    pad2(d.getUTCMonth() + 1) +
    pad2(d.getUTCDate()) +
    "T" +
    pad2(d.getUTCHours()) +
    pad2(d.getUTCMinutes()) +
    pad2(d.getUTCSeconds()) +
    "Z"
  );
}

/** An event location as one line: its address lines and country, the empty ones left out. */
function locationLine(location: unknown): string {
  return ["addressLine1", "addressLine2", "addressCountry"]
    .map((name) => asString(get(location, name)).trim())
    .filter((s) => s.length > 0)
    .join(", ");
}

/**
 * `{event|google-calendar-url}`: an add-to-calendar link for an event, with its title, its
 * start and end dates in compact UTC form, and its location when it has one.
 */
export const googleCalendarUrlFormatter: Formatter = (_args, vars) => {
  const event = vars[0].value;
  const start = compactUtc(asNumber(get(event, "startDate")));
  const end = compactUtc(asNumber(get(event, "endDate")));
  let url = "http://www.google.com/calendar/event?action=TEMPLATE";
  url += `&text=${encodeURIComponent(asString(get(event, "title")))}`;
  url += `&dates=${start}/${end}`;
  const location = get(event, "location");
  if (location !== undefined) {
    const line = locationLine(location);
    if (line !== "") url += `&location=${encodeURIComponent(line)}`;
  }
  vars[0].value = url;
};
