/**
 * Email campaigns in the owner API (`/api/owner/sites/:siteId/campaigns…`, segments, audience
 * counts, the subscribers import; the marketing area's permissions) and the links in every copy,
 * on the site's address: one-click unsubscribe (GET shows a page with the button, POST is the RFC
 * 8058 one-click call, no cookie, no crumb), the open pixel and the signed click redirects.
 */
import multipart from "@fastify/multipart";
import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { badRequest, conflict } from "../../http/errors.js";
import { ErrorSchema, Id, errorResponses } from "../../http/schemas.js";
import { pathParam, siteApiRoutes, siteParams } from "../../http/site-routes.js";
import { escapeHtml } from "../../lib/escape.js";
import { linkPage } from "../email/link-page.js";
import { queueEmail } from "../email/service.js";
import { siteOf } from "../owner-sites/access.js";
import { siteAtHost, siteBaseUrl } from "../sites/service.js";
import { IMPORT_MAX_BYTES, NEEDS_COLUMNS, importSubscribers } from "./import.js";
import { CLICK_PATH, OPEN_PATH, UNSUBSCRIBE_PATH, recipientOfToken } from "./links.js";
import { personalise, postalAddressOf, renderCampaign } from "./render.js";
import "./sender.js";
import {
  type CampaignRow,
  SUBJECT_MAX,
  audienceCount,
  campaignOf,
  campaignReport,
  cancelCampaign,
  createCampaign,
  createSegment,
  deleteCampaign,
  listCampaigns,
  listSegments,
  saveCampaignSettings,
  sendCampaign,
  updateCampaign,
} from "./service.js";
import { recordClick, recordOpen, unsubscribeRecipient } from "./tracking.js";
import { zonedTime } from "./time.js";

const TAGS = ["owner: campaigns"];
const URL_MAX = 2000;

const AudienceKind = Type.Union([
  Type.Literal("subscribers"),
  Type.Literal("customers"),
  Type.Literal("site_users"),
  Type.Literal("segment"),
]);
const Audience = Type.Object(
  { kind: AudienceKind, segmentId: Type.Optional(Id) },
  { additionalProperties: false },
);
const Block = Type.Union([
  Type.Object(
    { type: Type.Literal("text"), html: Type.String({ maxLength: 50_000 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal("image"),
      mediaId: Type.String({ maxLength: 64 }),
      alt: Type.String({ maxLength: 300 }),
      url: Type.Optional(Type.String({ maxLength: URL_MAX })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal("button"),
      text: Type.String({ minLength: 1, maxLength: 100 }),
      url: Type.String({ minLength: 1, maxLength: URL_MAX }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { type: Type.Literal("product"), productId: Type.String({ maxLength: 64 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal("products"),
      productIds: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 3 }),
    },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal("divider") }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal("spacer") }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal("social") }, { additionalProperties: false }),
]);
const fields = {
  subject: Type.String({ maxLength: SUBJECT_MAX }),
  previewText: Type.Optional(Type.String({ maxLength: 200 })),
  fromName: Type.Optional(Type.String({ maxLength: 100 })),
  replyTo: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
  audience: Audience,
  blocks: Type.Array(Block, { maxItems: 100 }),
  tracking: Type.Optional(
    Type.Boolean({ description: "count opens (an image) and clicks (signed redirects)" }),
  ),
};
const CreateBody = Type.Object(fields, { additionalProperties: false });
const PatchBody = Type.Partial(Type.Object(fields), { additionalProperties: false });
const PreviewBody = Type.Object(
  {
    subject: Type.Optional(fields.subject),
    previewText: fields.previewText,
    blocks: fields.blocks,
  },
  { additionalProperties: false },
);
const Status = Type.Union(["draft", "scheduled", "sending", "sent", "cancelled"].map((s) => Type.Literal(s)));
const Campaign = Type.Object({
  id: Type.String(),
  subject: Type.String(),
  previewText: Type.String(),
  fromName: Type.String(),
  replyTo: Type.Union([Type.String(), Type.Null()]),
  audience: Type.Object({ kind: AudienceKind, segmentId: Type.Optional(Type.String()) }),
  blocks: Type.Array(Type.Unknown()),
  tracking: Type.Boolean(),
  status: Status,
  scheduledOn: Type.Union([Type.Number(), Type.Null()], { description: "epoch milliseconds" }),
  startedOn: Type.Union([Type.Number(), Type.Null()]),
  finishedOn: Type.Union([Type.Number(), Type.Null()]),
  createdOn: Type.Number(),
  updatedOn: Type.Number(),
});
const Report = Type.Object({
  recipients: Type.Integer(),
  sent: Type.Integer(),
  refused: Type.Integer(),
  unsubscribed: Type.Integer(),
  opened: Type.Integer(),
  clicked: Type.Integer(),
  orders: Type.Integer({ description: "orders placed within 7 days of a click" }),
  revenueCents: Type.Integer({ description: "minor units" }),
  links: Type.Array(Type.Object({ url: Type.String(), clicks: Type.Integer() })),
});
const Rule = Type.Union([
  Type.Object(
    { kind: Type.Literal("bought_product"), productId: Type.String({ maxLength: 64 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal("bought_category"), category: Type.String({ maxLength: 100 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal("spent_at_least"),
      amountCents: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal("ordered_within_days"), days: Type.Integer({ minimum: 1, maximum: 3650 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal("signed_up_through_form"), formId: Type.String({ maxLength: 64 }) },
    { additionalProperties: false },
  ),
]);
const Segment = Type.Object({ id: Type.String(), name: Type.String(), rule: Rule, count: Type.Integer() });
const SegmentBody = Type.Object(
  { name: Type.String({ maxLength: 100 }), rule: Rule },
  { additionalProperties: false },
);
const ImportReport = Type.Object({
  report: Type.Object({
    imported: Type.Integer(),
    skipped: Type.Integer(),
    lines: Type.Array(
      Type.Object({
        line: Type.Integer(),
        email: Type.String(),
        result: Type.Union([Type.Literal("imported"), Type.Literal("skipped")]),
        reason: Type.Optional(Type.String()),
      }),
    ),
  }),
});
const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) });

function campaignJson(c: CampaignRow) {
  return {
    id: c.id,
    subject: c.subject,
    previewText: c.previewText,
    fromName: c.fromName,
    replyTo: c.replyTo,
    audience: c.audience,
    blocks: c.blocks,
    tracking: c.tracking,
    status: c.status as Static<typeof Status>,
    scheduledOn: c.scheduledAt?.getTime() ?? null,
    startedOn: c.startedAt?.getTime() ?? null,
    finishedOn: c.finishedAt?.getTime() ?? null,
    createdOn: c.createdAt.getTime(),
    updatedOn: c.updatedAt.getTime(),
  };
}

/** The 1×1 transparent GIF of the open pixel. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

export const campaignRoutes: FastifyPluginAsync = async (app) => {
  const deps = app.deps;
  const { db, clock, config } = deps;
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5 } });
  const site = siteApiRoutes(app, { tags: TAGS, area: "marketing" });
  const one = siteParams("campaignId");

  site.get(
    "/campaigns",
    {
      summary: "The site's email campaigns, newest first",
      response: { 200: Type.Object({ campaigns: Type.Array(Campaign) }) },
    },
    async (request) => ({ campaigns: (await listCampaigns(db, siteOf(request).id)).map(campaignJson) }),
  );

  site.post(
    "/campaigns",
    {
      summary: "Writes a campaign (a draft): subject, preview text, sender, audience and blocks",
      body: CreateBody,
      response: { 201: Type.Object({ campaign: Campaign }), ...errorResponses(400, 401, 403, 404) },
    },
    async (request, reply) => {
      const c = await createCampaign(
        db,
        siteOf(request).id,
        request.body as Static<typeof CreateBody>,
        clock.now(),
      );
      return reply.status(201).send({ campaign: campaignJson(c) });
    },
  );

  site.get(
    "/campaigns/:campaignId",
    {
      summary: "One campaign",
      params: one,
      response: { 200: Type.Object({ campaign: Campaign }), ...errorResponses(401, 403, 404) },
    },
    async (request) => ({
      campaign: campaignJson(await campaignOf(db, siteOf(request).id, pathParam(request, "campaignId"))),
    }),
  );

  site.patch(
    "/campaigns/:campaignId",
    {
      summary: "Changes a draft or scheduled campaign",
      params: one,
      body: PatchBody,
      response: { 200: Type.Object({ campaign: Campaign }), ...errorResponses(400, 401, 403, 404, 409) },
    },
    async (request) => ({
      campaign: campaignJson(
        await updateCampaign(
          db,
          siteOf(request).id,
          pathParam(request, "campaignId"),
          request.body as Static<typeof PatchBody>,
          clock.now(),
        ),
      ),
    }),
  );

  site.delete(
    "/campaigns/:campaignId",
    {
      summary: "Deletes a campaign that is not sending",
      params: one,
      response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409) },
    },
    async (request, reply) => {
      await deleteCampaign(db, siteOf(request).id, pathParam(request, "campaignId"));
      return reply.status(204).send();
    },
  );

  site.post(
    "/campaigns/:campaignId/test",
    {
      summary: "Sends a test copy of the campaign to one address (the author's)",
      params: one,
      body: Type.Object(
        { email: Type.String({ format: "email", maxLength: 256 }) },
        { additionalProperties: false },
      ),
      response: { 202: Type.Object({ ok: Type.Boolean() }), ...errorResponses(400, 401, 403, 404) },
    },
    async (request, reply) => {
      const website = siteOf(request);
      const c = await campaignOf(db, website.id, pathParam(request, "campaignId"));
      const origin = siteBaseUrl(website, config.publicUrl);
      const copy = personalise(await renderCampaign(db, website, origin, { ...c, tracking: false }), "test");
      await queueEmail(db, config, {
        websiteId: website.id,
        to: (request.body as { email: string }).email.trim(),
        subject: `[Test] ${c.subject || "(no subject)"}`,
        ...copy,
        fromName: c.fromName || website.title,
        replyTo: c.replyTo ?? undefined,
      });
      return reply.status(202).send({ ok: true });
    },
  );

  site.post(
    "/campaigns/:campaignId/send",
    {
      summary: "Sends the campaign now, or at `at` (ISO 8601; without an offset, in the site's time zone)",
      params: one,
      body: Type.Object(
        { at: Type.Optional(Type.String({ maxLength: 40 })) },
        { additionalProperties: false },
      ),
      response: { 202: Type.Object({ campaign: Campaign }), ...errorResponses(400, 401, 403, 404, 409) },
    },
    async (request, reply) => {
      const website = siteOf(request);
      if (!config.smtpUrl)
        throw conflict("Sending campaigns needs an SMTP server: the operator sets SMTP_URL.");
      const raw = (request.body as { at?: string } | undefined)?.at;
      const at = raw ? zonedTime(raw, website.timeZone) : undefined;
      if (raw && !at)
        throw badRequest("Enter the time as 2026-12-01T09:00.", {
          at: "Enter the time as 2026-12-01T09:00.",
        });
      const c = await sendCampaign(db, website.id, pathParam(request, "campaignId"), at, clock.now());
      return reply.status(202).send({ campaign: campaignJson(c) });
    },
  );

  site.post(
    "/campaigns/:campaignId/cancel",
    {
      summary: "Stops a scheduled or sending campaign",
      params: one,
      response: { 200: Type.Object({ campaign: Campaign }), ...errorResponses(401, 403, 404, 409) },
    },
    async (request) => ({
      campaign: campaignJson(
        await cancelCampaign(db, siteOf(request).id, pathParam(request, "campaignId"), clock.now()),
      ),
    }),
  );

  site.get(
    "/campaigns/:campaignId/report",
    {
      summary:
        "What the campaign did: recipients, sent, refused, unsubscribed, opens, clicks, orders and revenue within 7 days of a click, its links",
      params: one,
      response: { 200: Report, ...errorResponses(401, 403, 404) },
    },
    async (request) => campaignReport(db, siteOf(request).id, pathParam(request, "campaignId")),
  );

  site.post(
    "/campaigns/preview",
    {
      summary:
        "The email a campaign's fields make, as a recipient would get it (HTML and plain text, untracked), for the compose screen's live preview",
      body: PreviewBody,
      response: {
        200: Type.Object({ html: Type.String(), text: Type.String() }),
        ...errorResponses(400, 401, 403, 404),
      },
    },
    async (request) => {
      const website = siteOf(request);
      const body = request.body as Static<typeof PreviewBody>;
      const rendered = await renderCampaign(db, website, siteBaseUrl(website, config.publicUrl), {
        subject: body.subject ?? "",
        previewText: body.previewText ?? "",
        blocks: body.blocks,
        tracking: false,
      });
      return personalise(rendered, "preview");
    },
    "marketing.read",
  );

  site.get(
    "/segments",
    {
      summary: "The site's segments with how many each reaches now",
      response: { 200: Type.Object({ segments: Type.Array(Segment) }) },
    },
    async (request) => {
      const websiteId = siteOf(request).id;
      const rows = await listSegments(db, websiteId);
      const now = clock.now();
      const out = [];
      for (const s of rows)
        out.push({
          id: s.id,
          name: s.name,
          rule: s.rule,
          count: await audienceCount(db, websiteId, { kind: "segment", segmentId: s.id }, now),
        });
      return { segments: out };
    },
  );

  site.post(
    "/segments",
    {
      summary: "Adds a segment of the mailing list by rule",
      body: SegmentBody,
      response: { 201: Type.Object({ segment: Segment }), ...errorResponses(400, 401, 403, 404) },
    },
    async (request, reply) => {
      const websiteId = siteOf(request).id;
      const body = request.body as Static<typeof SegmentBody>;
      const s = await createSegment(db, websiteId, body.name, body.rule);
      const n = await audienceCount(db, websiteId, { kind: "segment", segmentId: s.id }, clock.now());
      return reply.status(201).send({ segment: { id: s.id, name: s.name, rule: s.rule, count: n } });
    },
  );

  site.get(
    "/audiences/count",
    {
      summary: "How many people who agreed to get emails an audience reaches now",
      querystring: Type.Object(
        { audience: AudienceKind, segmentId: Type.Optional(Id) },
        { additionalProperties: false },
      ),
      response: { 200: Type.Object({ count: Type.Integer() }), ...errorResponses(400, 401, 403, 404) },
    },
    async (request) => {
      const q = request.query as { audience: "subscribers"; segmentId?: string };
      return {
        count: await audienceCount(
          db,
          siteOf(request).id,
          { kind: q.audience, segmentId: q.segmentId },
          clock.now(),
        ),
      };
    },
  );

  site.get(
    "/campaign-settings",
    {
      summary: "What every campaign's footer says: the store's postal address",
      response: { 200: Type.Object({ postalAddress: Type.String() }) },
    },
    async (request) => ({ postalAddress: await postalAddressOf(db, siteOf(request).id) }),
  );

  site.put(
    "/campaign-settings",
    {
      summary: "Sets the store's postal address shown in every campaign's footer",
      body: Type.Object({ postalAddress: Type.String({ maxLength: 300 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ postalAddress: Type.String() }), ...errorResponses(400, 401, 403, 404) },
    },
    async (request) => {
      const { postalAddress } = request.body as { postalAddress: string };
      await saveCampaignSettings(db, siteOf(request).id, postalAddress.trim(), clock.now());
      return { postalAddress: postalAddress.trim() };
    },
  );

  site.post(
    "/subscribers/import",
    {
      summary:
        "Imports subscribers from a CSV file (multipart field `file`; columns email and consent (yes/true), optionally firstName, lastName)",
      response: { 200: ImportReport, ...errorResponses(400, 401, 403, 404, 413) },
    },
    async (request: FastifyRequest) => {
      if (!request.isMultipart())
        throw badRequest(`Send the CSV file as multipart/form-data in the field file. ${NEEDS_COLUMNS}`);
      let csv: string | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type !== "file") continue;
          const bytes = await part.toBuffer();
          if (part.fieldname === "file" && csv === undefined) csv = bytes.toString("utf8");
        }
      } catch (err) {
        if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
          throw badRequest("The file is too large: import at most 5 MB at a time.", {
            file: "The file is too large.",
          });
        throw badRequest("The upload could not be read. Send the CSV file in the field file.");
      }
      if (csv === undefined)
        throw badRequest("Send the CSV file in the field file.", { file: "Choose a CSV file." });
      return { report: await importSubscribers(db, siteOf(request).id, csv, clock.now()) };
    },
  );

  // ─── The links in every copy, on the site's address ────────────────────────────────────────

  const linkLimit = { rateLimit: { max: 60, timeWindow: "1 minute" } };
  const invalid = (reply: Parameters<typeof linkPage>[0]) =>
    linkPage(reply, 404, "This link is not valid", "Check that the whole link from the email was opened.");

  app.get(
    `${UNSUBSCRIBE_PATH}:token`,
    {
      config: linkLimit,
      schema: {
        tags: ["email"],
        summary: "A campaign's unsubscribe link: a page with the button",
        params: TokenParams,
        response: { 200: Type.String(), 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const token = pathParam(request, "token");
      if (!(await recipientOfToken(config.dataDir, token))) return invalid(reply);
      return linkPage(
        reply,
        200,
        "Unsubscribe from this mailing list",
        "You will get no more newsletters from this site.",
        `<form method="post" action="${escapeHtml(`${UNSUBSCRIBE_PATH}${encodeURIComponent(token)}`)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
      );
    },
  );

  app.post(
    `${UNSUBSCRIBE_PATH}:token`,
    {
      config: linkLimit,
      schema: {
        tags: ["email"],
        summary:
          "One-click unsubscribe (RFC 8058): the body is List-Unsubscribe=One-Click; no cookie, no crumb",
        params: TokenParams,
        body: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 100 }))),
        response: { 200: Type.String(), 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const website = await siteAtHost(db, request.headers.host);
      const id = await recipientOfToken(config.dataDir, pathParam(request, "token"));
      if (!id || !(await unsubscribeRecipient(db, website.id, id, clock.now()))) return invalid(reply);
      return linkPage(
        reply,
        200,
        "You are unsubscribed",
        `You will get no more newsletters from ${website.title}.`,
      );
    },
  );

  app.get(
    `${OPEN_PATH}:token`,
    {
      schema: {
        tags: ["email"],
        summary: "The open pixel of a tracked campaign (a 1×1 GIF)",
        params: Type.Object({ token: Type.String({ maxLength: 100 }) }),
        response: { 200: Type.Unknown({ description: "image/gif" }), 400: ErrorSchema },
      },
    },
    async (request, reply) => {
      const token = pathParam(request, "token").replace(/\.gif$/, "");
      const id = await recipientOfToken(config.dataDir, token);
      if (id) {
        const website = await siteAtHost(db, request.headers.host);
        await recordOpen(db, website.id, id, clock.now());
      }
      return reply.header("content-type", "image/gif").header("cache-control", "no-store").send(PIXEL);
    },
  );

  app.get(
    `${CLICK_PATH}:token/:position`,
    {
      config: linkLimit,
      schema: {
        tags: ["email"],
        summary:
          "A tracked link: counts the click and redirects to the campaign's own link (never elsewhere)",
        params: Type.Object({
          token: Type.String({ maxLength: 100 }),
          position: Type.Integer({ minimum: 0, maximum: 10_000 }),
        }),
        response: { 302: Type.Null(), 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const website = await siteAtHost(db, request.headers.host);
      const id = await recipientOfToken(config.dataDir, pathParam(request, "token"));
      const position = (request.params as { position: number }).position;
      const url = id ? await recordClick(db, website.id, id, position, clock.now()) : undefined;
      if (!url) return invalid(reply);
      return reply.header("cache-control", "no-store").redirect(url, 302);
    },
  );
};
