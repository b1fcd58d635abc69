/**
 * The announcement bar and the newsletter pop-up: the owner API
 * (`GET|PUT /api/owner/sites/:siteId/announcement-bar` and `…/newsletter-popup`, the design area's
 * permissions), the pop-up's sign-up call (`POST /api/newsletter-popup/subscribe`, with the crumb)
 * and the double opt-in confirmation link (`GET /newsletter/confirm/:token`).
 */
import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { badRequest } from "../../http/errors.js";
import { ErrorSchema, errorResponses } from "../../http/schemas.js";
import { siteApiRoutes } from "../../http/site-routes.js";
import { escapeHtml } from "../../lib/escape.js";
import { type RateLimit, addressLimiter } from "../cart/rate-limit.js";
import { confirmSubscription, signUpToMailingList } from "../forms/double-opt-in.js";
import { siteOf } from "../owner-sites/access.js";
import { siteAtHost } from "../sites/service.js";
import {
  BAR_TEXT_MAX,
  BUTTON_TEXT_MAX,
  DELAY_MAX_SECONDS,
  FREQUENCY_MAX_DAYS,
  LINK_TEXT_MAX,
  POPUP_TEXT_MAX,
  POPUP_TITLE_MAX,
  URL_MAX,
  announcementBarOf,
  checkBar,
  checkPopup,
  newsletterPopupOf,
  storePopups,
} from "./settings.js";

const TAGS = ["owner: announcement bar and pop-up"];
const OrNull = (t: ReturnType<typeof Type.String>) => Type.Union([t, Type.Null()]);
const WallTime = Type.Union(
  [Type.String({ maxLength: 40, description: "YYYY-MM-DDTHH:mm in the site's time zone" }), Type.Null()],
  { description: "YYYY-MM-DDTHH:mm in the site's time zone, or null" },
);

const BarSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    text: Type.String({ maxLength: BAR_TEXT_MAX * 2, description: `at most ${BAR_TEXT_MAX} characters` }),
    linkUrl: Type.Optional(OrNull(Type.String({ maxLength: URL_MAX, description: "https://… or /a-path" }))),
    linkText: Type.Optional(OrNull(Type.String({ maxLength: LINK_TEXT_MAX * 2 }))),
    startsAt: Type.Optional(WallTime),
    endsAt: Type.Optional(WallTime),
    dismissible: Type.Boolean(),
  },
  { additionalProperties: false },
);
const BarOut = Type.Object({
  enabled: Type.Boolean(),
  text: Type.String(),
  linkUrl: Type.Union([Type.String(), Type.Null()]),
  linkText: Type.Union([Type.String(), Type.Null()]),
  startsAt: Type.Union([Type.String(), Type.Null()]),
  endsAt: Type.Union([Type.String(), Type.Null()]),
  dismissible: Type.Boolean(),
});

const Trigger = Type.Union([
  Type.Object(
    {
      kind: Type.Literal("delay"),
      seconds: Type.Integer({
        minimum: 0,
        maximum: DELAY_MAX_SECONDS,
        description: "seconds after the page opens",
      }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal("scroll") },
    { additionalProperties: false, description: "past half of the page" },
  ),
]);
const PopupSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    title: Type.String({ maxLength: POPUP_TITLE_MAX * 2 }),
    text: Type.String({ maxLength: POPUP_TEXT_MAX * 2 }),
    buttonText: Type.String({ maxLength: BUTTON_TEXT_MAX * 2 }),
    trigger: Trigger,
    frequencyDays: Type.Integer({
      minimum: 1,
      maximum: FREQUENCY_MAX_DAYS,
      description: "shown at most once per visitor in this many days",
    }),
    doubleOptIn: Type.Optional(Type.Boolean({ description: "sign-ups confirm by an emailed link" })),
  },
  { additionalProperties: false },
);
const PopupOut = Type.Object({
  enabled: Type.Boolean(),
  title: Type.String(),
  text: Type.String(),
  buttonText: Type.String(),
  trigger: Trigger,
  frequencyDays: Type.Integer(),
  doubleOptIn: Type.Boolean(),
});

const SubscribeBody = Type.Object(
  { email: Type.String({ maxLength: 320 }) },
  { additionalProperties: false },
);
const TokenParams = Type.Object({ token: Type.String({ maxLength: 300 }) });

/** Pop-up sign-ups per visitor address per window. */
const SUBSCRIBE_LIMIT: RateLimit = { max: 10, windowMs: 60_000 };

/** A small page of the site's own (the confirmation link's answer). */
function page(reply: FastifyReply, status: number, title: string, text: string) {
  return reply
    .status(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>` +
        `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><main>` +
        `<h1 style="font-size:1.5rem">${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/">Go to the site</a></p></main></body></html>`,
    );
}

export const sitePopupRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock, config } = app.deps;
  const owner = siteApiRoutes(app, { tags: TAGS, area: "design" });

  owner.get(
    "/announcement-bar",
    {
      summary: "The announcement bar shown at the top of every page of the site",
      response: { 200: BarOut, ...errorResponses(401, 403, 404) },
    },
    async (request) => announcementBarOf(db, siteOf(request).id),
  );

  owner.put(
    "/announcement-bar",
    {
      summary:
        "Replaces the announcement bar: text, optional link, optional start and end in the site's time zone, dismissible or not",
      body: BarSchema,
      response: { 200: BarOut, ...errorResponses(400, 401, 403, 404) },
    },
    async (request) => {
      const bar = checkBar({
        linkUrl: null,
        linkText: null,
        startsAt: null,
        endsAt: null,
        ...(request.body as Static<typeof BarSchema>),
      });
      const websiteId = siteOf(request).id;
      await db.transaction((tx) => storePopups(tx, websiteId, { announcementBar: bar }, clock.now()));
      return bar;
    },
  );

  owner.get(
    "/newsletter-popup",
    {
      summary: "The newsletter pop-up that asks visitors to join the mailing list",
      response: { 200: PopupOut, ...errorResponses(401, 403, 404) },
    },
    async (request) => newsletterPopupOf(db, siteOf(request).id),
  );

  owner.put(
    "/newsletter-popup",
    {
      summary:
        "Replaces the newsletter pop-up: its words, when it opens (after some seconds, or past half of the page), how often a visitor may see it, double opt-in",
      body: PopupSchema,
      response: { 200: PopupOut, ...errorResponses(400, 401, 403, 404) },
    },
    async (request) => {
      const body = request.body as Static<typeof PopupSchema>;
      const popup = checkPopup({ ...body, doubleOptIn: body.doubleOptIn ?? false });
      const websiteId = siteOf(request).id;
      await db.transaction((tx) => storePopups(tx, websiteId, { newsletterPopup: popup }, clock.now()));
      return popup;
    },
  );

  app.post(
    "/api/newsletter-popup/subscribe",
    {
      preHandler: [
        requireCrumb,
        addressLimiter({ db, clock }, "newsletter-popup", SUBSCRIBE_LIMIT, "Please try again in a minute."),
      ],
      schema: {
        tags: ["newsletter"],
        summary:
          "The newsletter pop-up's sign-up: joins the site's mailing list (with double opt-in when the owner asks)",
        body: SubscribeBody,
        response: {
          200: Type.Object({
            status: Type.Union([
              Type.Literal("subscribed"),
              Type.Literal("pending"),
              Type.Literal("already"),
            ]),
            message: Type.String(),
          }),
          ...errorResponses(400, 403, 404, 429),
        },
      },
    },
    async (request) => {
      const site = await siteAtHost(db, request.headers.host);
      const popup = await newsletterPopupOf(db, site.id);
      const { email } = request.body as Static<typeof SubscribeBody>;
      const outcome = await db.transaction((tx) =>
        signUpToMailingList(tx, config, {
          site,
          email,
          source: "popup",
          doubleOptIn: popup.doubleOptIn,
          now: clock.now(),
        }),
      );
      if (!outcome)
        throw badRequest("Enter a valid email address.", { email: "Enter a valid email address." });
      const message =
        outcome === "pending"
          ? "Thanks! Please check your inbox: we sent you a link to confirm your subscription."
          : outcome === "already"
            ? "You are already on our mailing list. Thank you!"
            : "Thanks for signing up!";
      return { status: outcome, message };
    },
  );

  app.get(
    "/newsletter/confirm/:token",
    {
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
      schema: {
        tags: ["newsletter"],
        summary: "The double opt-in link of the confirmation email: confirms the subscription",
        params: TokenParams,
        response: { 200: Type.String({ description: "an HTML page" }), 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const site = await siteAtHost(db, request.headers.host);
      const { token } = request.params as Static<typeof TokenParams>;
      const done = await confirmSubscription(db, config.dataDir, site.id, token, clock.now());
      if (!done)
        return page(
          reply,
          404,
          "This link does not work",
          "The confirmation link is incomplete or not for this site. Sign up again and we will send a new one.",
        );
      return page(
        reply,
        200,
        "You are subscribed",
        `Thank you: ${done.email} is now on the mailing list of ${site.title}.`,
      );
    },
  );
};
