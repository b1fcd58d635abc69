/**
 * Content formatters: images, video, colours, social and comment widgets, item classes,
 * calendar links and form summaries. The implementations live under src/content/.
 */
import { colorWeightFormatter, websiteColorFormatter } from "../content/color.js";
import { commentCountFormatter, commentLinkFormatter, commentsFormatter } from "../content/comments.js";
import {
  heightFormatter,
  resizedHeightForWidthFormatter,
  resizedWidthForHeightFormatter,
  thumbnailForHeightFormatter,
  thumbnailForWidthFormatter,
  widthFormatter,
} from "../content/dimensions.js";
import { summaryFormFieldFormatter } from "../content/form-summary.js";
import {
  childImageMetaFormatter,
  coverImageMetaFormatter,
  imageColorFormatter,
  imageFormatter,
  imageMetaFormatter,
  imageSrcsetFormatter,
} from "../content/images.js";
import { absUrlFormatter, audioPlayerFormatter, itemClassesFormatter } from "../content/items.js";
import {
  activateTwitterLinksFormatter,
  googleCalendarUrlFormatter,
  likeButtonFormatter,
  socialButtonFormatter,
  socialButtonInlineFormatter,
  twitterFollowButtonFormatter,
} from "../content/social.js";
import { videoFormatter } from "../content/video.js";
import type { FormatterTable } from "../types.js";

export const contentFormatters: FormatterTable = {
  AbsUrl: absUrlFormatter,
  "activate-twitter-links": activateTwitterLinksFormatter,
  "audio-player": audioPlayerFormatter,
  "child-image-meta": childImageMetaFormatter,
  "color-weight": colorWeightFormatter,
  "comment-count": commentCountFormatter,
  "comment-link": commentLinkFormatter,
  comments: commentsFormatter,
  "cover-image-meta": coverImageMetaFormatter,
  "google-calendar-url": googleCalendarUrlFormatter,
  height: heightFormatter,
  image: imageFormatter,
  "image-color": imageColorFormatter,
  "image-meta": imageMetaFormatter,
  "image-srcset": imageSrcsetFormatter,
  "item-classes": itemClassesFormatter,
  "like-button": likeButtonFormatter,
  resizedHeightForWidth: resizedHeightForWidthFormatter,
  resizedWidthForHeight: resizedWidthForHeightFormatter,
  "social-button": socialButtonFormatter,
  "social-button-inline": socialButtonInlineFormatter,
  squarespaceThumbnailForHeight: thumbnailForHeightFormatter,
  squarespaceThumbnailForWidth: thumbnailForWidthFormatter,
  "summary-form-field": summaryFormFieldFormatter,
  "twitter-follow-button": twitterFollowButtonFormatter,
  video: videoFormatter,
  "website-color": websiteColorFormatter,
  width: widthFormatter,
};
