/**
 * Content predicates: record types, collections and folders, gallery options, slides and
 * comments, keyed with their trailing "?". The implementations live under src/content/.
 */
import { commentsPredicate, disqusPredicate } from "../content/comments.js";
import { galleryPredicates } from "../content/gallery.js";
import { recordPredicates } from "../content/records.js";
import type { PredicateTable } from "../types.js";

export const contentPredicates: PredicateTable = {
  ...recordPredicates(),
  ...galleryPredicates(),
  "comments?": commentsPredicate,
  "disqus?": disqusPredicate,
};
