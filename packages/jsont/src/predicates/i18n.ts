/**
 * Locale (i18n) predicates.
 */
import { sameDay } from "../i18n/date.js";
import { JulianDayRangeError } from "../i18n/julian.js";
import { websiteTimeZone } from "../i18n/timezone.js";
import type { Predicate, PredicateTable } from "../types.js";
import { isNumber, isObject, numberValue } from "../util/values.js";

/** `{.same-day?}`: the current node's startDate and endDate fall on one day in the website's zone. */
const sameDayPredicate: Predicate = (_args, ctx) => {
  const node = ctx.node();
  if (!isObject(node)) return false;
  const start = node.startDate;
  const end = node.endDate;
  if (!isNumber(start) || !isNumber(end)) return false;
  try {
    return sameDay(numberValue(start), numberValue(end), websiteTimeZone(ctx), (m) => ctx.error(m));
  } catch (e) {
    if (!(e instanceof JulianDayRangeError)) throw e;
    ctx.error(e.message);
    return false;
  }
};

export const i18nPredicates: PredicateTable = {
  "same-day?": sameDayPredicate,
};
