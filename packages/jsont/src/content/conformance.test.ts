/**
 * Runs the shared conformance cases of the content formatters and predicates through the
 * engine. The cases live in the shared folder beside the repository (never copied here).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCaseFile, shortDiff } from "../cli/cases.js";
import { PLUGIN_CASES_DIR as casesDir, caseNames, stemPattern } from "../cli/shared-cases.js";
import { Engine } from "../engine.js";

/** Case-name stems (f-<stem>-N.html, p-<stem>-N.html) that exercise this part of the engine. */
const FORMATTER_STEMS = [
  "absurl",
  "activate-twitter-links",
  "child-image-meta",
  "color-weight",
  "comment-count",
  "comment-link",
  "comments",
  "cover-image-meta",
  "google-calendar-url",
  "height",
  "image",
  "image-color",
  "image-meta",
  "image-srcset",
  "item-classes",
  "like-button",
  "resized",
  "social-button",
  "social-button-inline",
  "summary-form-field-[a-z]+",
  "twitter-follow-button",
  "video",
  "website-color",
  "width",
];
const PREDICATE_STEMS = [
  "active-time",
  "attachment",
  "audio",
  "background-source",
  "binary",
  "calendar-view",
  "checkin",
  "child-images",
  "clickable",
  "collection",
  "collection-page",
  "collection-template-page",
  "collection-type-name-equals",
  "comments",
  "current-type",
  "disqus",
  "excerpt",
  "external-link",
  "external-video",
  "folder",
  "gallery-[a-z-]+",
  "has-multiple",
  "location",
  "main-image",
  "passthrough",
  "promoted",
  "record-type",
  "redirect",
  "service-name-email",
  "show-past-events",
];

const pattern = stemPattern(FORMATTER_STEMS, PREDICATE_STEMS);
const files = caseNames(casesDir, (name) => pattern.test(name));

describe.skipIf(files.length === 0)("content conformance cases", () => {
  const engine = new Engine();
  it.each(files)("%s", (name) => {
    const outcome = runCaseFile(engine, join(casesDir, name));
    const detail = outcome.problem ?? shortDiff(outcome.expected, outcome.actual);
    expect(outcome.passed, `${name}\n${detail}`).toBe(true);
  });
});
