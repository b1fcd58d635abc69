/**
 * Comments: the comment count text, the link to an item's comments, the comments thread
 * placeholder, and the predicates that say whether comments (or Disqus) are on.
 */
import type { Formatter, Predicate, RenderContext } from "../types.js";
import { asNumber, deepEquals, isTruthy, toDisplayString } from "../util/values.js";
import { get, lookup } from "./node.js";
import { quoteSafe } from "./text.js";

/** "No Comments", "1 Comment" or "N Comments". */
export function commentCountText(count: number): string {
  const n = Number.isFinite(count) ? Math.trunc(count) : 0;
  return `${n === 0 ? "No" : n} Comment${n === 1 ? "" : "s"}`;
}

/** `{item|comment-count}`: the item's public comment count as text. */
export const commentCountFormatter: Formatter = (_args, vars) => {
  vars[0].value = commentCountText(asNumber(get(vars[0].value, "publicCommentCount")));
};

function attr(node: unknown, dotted: string, ctx: RenderContext): string {
  return quoteSafe(toDisplayString(lookup(node, dotted, ctx)));
}

/** True when the site uses Disqus for comments (`websiteSettings.disqusShortname`). */
function usesDisqus(node: unknown, ctx: RenderContext): boolean {
  return isTruthy(lookup(node, "websiteSettings.disqusShortname", ctx));
}

/**
 * `{item|comment-link}`: a link to the item's comments showing their count, or the Disqus
 * count link when the site uses Disqus.
 */
export const commentLinkFormatter: Formatter = (_args, vars, ctx) => {
  const item = vars[0].value;
  const fullUrl = attr(item, "fullUrl", ctx);
  const id = attr(item, "id", ctx);
  let out: string;
  if (usesDisqus(item, ctx)) {
    out = `\n  <a href="${fullUrl}" class="sqs-comment-link sqs-disqus-comment-link" data-id="${id}"></a>\n`;
  } else {
    const count = lookup(item, "publicCommentCount", ctx);
    out = `\n  <a href="${fullUrl}#comments-${id}" class="sqs-comment-link" data-id="${id}">\n  `;
    out += deepEquals(count, 0) ? "No" : toDisplayString(count);
    out += "\n  Comment";
    if (!deepEquals(count, 1)) out += "s";
    out += "\n  </a>\n";
  }
  vars[0].value = `${out}\n`;
};

/**
 * `{item|comments}`: the placeholder the comments thread loads into, carrying the item's
 * (or else the collection's) id, public comment count and comment state; the Disqus
 * thread element when the site uses Disqus.
 */
export const commentsFormatter: Formatter = (_args, vars, ctx) => {
  const node = vars[0].value;
  let out: string;
  if (usesDisqus(node, ctx)) {
    out = '\n  <div class="squarespace-comments" id="disqus_thread"></div>\n';
  } else {
    out = `\n  <div class="squarespace-comments" id="comments-${attr(node, "id", ctx)}"`;
    for (const owner of ["item", "collection"]) {
      if (isTruthy(lookup(node, owner, ctx))) {
        out +=
          ` data-${owner}-id="${attr(node, `${owner}.id`, ctx)}"` +
          ` data-public-comment-count="${attr(node, `${owner}.publicCommentCount`, ctx)}"` +
          ` data-comment-state="${attr(node, `${owner}.commentState`, ctx)}"`;
        break;
      }
    }
    out += "></div>\n";
  }
  vars[0].value = `${out}\n`;
};

/**
 * `comments?`: comments are shown when the node's comment state is open (1) or it already
 * has public comments, unless the site's settings turn comments off.
 */
export const commentsPredicate: Predicate = (_args, ctx) => {
  const node = ctx.node();
  const settings = ctx.resolve("websiteSettings");
  if (settings !== undefined && !isTruthy(get(settings, "commentsEnabled"))) return false;
  return asNumber(get(node, "commentState")) === 1 || asNumber(get(node, "publicCommentCount")) > 0;
};

/** `disqus?`: the site has a Disqus short name (`websiteSettings.disqusShortName`). */
export const disqusPredicate: Predicate = (_args, ctx) =>
  isTruthy(ctx.resolve(["websiteSettings", "disqusShortName"]));
