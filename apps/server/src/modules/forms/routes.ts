import { formTemplateSchema } from "@atelier/forms";
import { FORM_NAME_MAX_LENGTH } from "@atelier/owner-api";
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { ApiError, notFound } from "../../http/errors.js";
import { siteApiRoutes } from "../../http/site-routes.js";
import { MSG_STATUS_500 } from "@atelier/forms";
import { siteCaptcha } from "../captcha/service.js";
import { registerHousekeeping } from "../jobs/plugin.js";
import { websiteForHost } from "../sites/service.js";
import { SiteParams, siteOf } from "../owner-sites/access.js";
import { pruneCounters } from "./rate-limit.js";
import {
  KEY_LIMIT,
  SUBMIT_LIMIT,
  VALIDATE_LIMIT,
  deleteSubmission,
  formNotConfigured,
  issueSubmissionKey,
  limitByAddress,
  listSubmissions,
  mailingList,
  pruneSubmissionKeys,
  saveSubmission,
  submissionsCsv,
  validateSubmission,
} from "./service.js";
import {
  FORM_MAX_FIELDS,
  type FormInput,
  createForm,
  deleteForm,
  formsWithCounts,
  updateForm,
} from "./owner-forms.js";
import { OffsetPaging, StringParams, offsetPage } from "../../http/schemas.js";

registerHousekeeping("form-submission-keys", (deps) => pruneSubmissionKeys(deps.db, deps.clock.now()));
registerHousekeeping("rate-limit-counters", (deps) =>
  pruneCounters(deps.db, new Date(deps.clock.now().getTime() - 86400_000)),
);

const Field = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    title: Type.String(),
    description: Type.Optional(Type.String()),
    required: Type.Optional(Type.Boolean()),
    placeholder: Type.Optional(Type.String()),
    options: Type.Optional(Type.Array(Type.String())),
    questions: Type.Optional(Type.Array(Type.String())),
    maxLength: Type.Optional(Type.Integer()),
    value: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const FormJson = Type.Object({
  id: Type.String(),
  name: Type.String(),
  fields: Type.Array(Field),
  submissionMessage: Type.Optional(Type.String()),
  submissionHtml: Type.Optional(Type.String()),
  successRedirect: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  disclaimerMessage: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  captchaEnabled: Type.Optional(Type.Boolean()),
  captchaTheme: Type.Optional(Type.Integer()),
  captchaAlignment: Type.Optional(Type.Integer()),
});

const TemplateSchema = Type.Object({
  type: Type.String(),
  blockType: Type.Integer(),
  fieldTypes: Type.Array(
    Type.Object({
      type: Type.String(),
      title: Type.String(),
      parts: Type.Optional(
        Type.Array(
          Type.Object({ name: Type.String(), label: Type.String(), requiredWhenFieldIs: Type.Boolean() }),
        ),
      ),
      canBeRequired: Type.Boolean(),
      hasOptions: Type.Boolean(),
      hasQuestions: Type.Boolean(),
      hasMaxLength: Type.Boolean(),
    }),
  ),
  defaults: Type.Object({
    name: Type.String(),
    fields: Type.Array(Field),
    submissionMessage: Type.String(),
    captchaEnabled: Type.Boolean(),
  }),
});

const Summary = Type.Array(Type.Object({ title: Type.String(), value: Type.String() }));
const Submission = Type.Object({
  id: Type.String(),
  createdOn: Type.Number(),
  pagePath: Type.Union([Type.String(), Type.Null()]),
  summary: Summary,
  values: Type.Record(Type.String(), Type.Unknown()),
});

/** `:siteId` as every owner call takes it; form (and submission) ids as they come: unknown ones are 404. */
const OwnerFormParams = Type.Composite([SiteParams, StringParams("formId")]);

/** The published site a visitor's request is for (its host). */
async function siteOfHost(request: FastifyRequest) {
  const site = await websiteForHost(request.server.deps.db, request.headers.host);
  if (!site) throw formNotConfigured();
  return site;
}

/** Site forms: the calls of SPEC §7 and the owner's submissions and mailing list. */
export const formRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;

  // FormSubmissionKey takes an empty body (SPEC §7); clients that still label it JSON are fine.
  // Scoped to this plugin: everything else keeps Fastify's own JSON parser.
  const json = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    return json(request, text, done);
  });

  app.get(
    "/api/template/GetTemplateSchema",
    {
      schema: {
        tags: ["forms"],
        summary: "The form template of a form block type (form or 9, newsletter or 51)",
        querystring: Type.Object({ type: Type.String({ minLength: 1, maxLength: 40 }) }),
        response: { 200: TemplateSchema },
      },
    },
    async (request) => {
      const schema = formTemplateSchema((request.query as { type: string }).type);
      if (!schema) throw notFound("There is no form template for this block type.");
      return schema;
    },
  );

  app.get(
    "/api/form/CaptchaSettings",
    {
      schema: {
        tags: ["forms"],
        summary: "The site's captcha provider and site key (no secrets), or null when none is set up",
        response: {
          200: Type.Object({
            captcha: Type.Union([
              Type.Object({
                provider: Type.String(),
                siteKey: Type.String(),
                scriptUrl: Type.Union([Type.String(), Type.Null()]),
              }),
              Type.Null(),
            ]),
          }),
        },
      },
    },
    async (request) => ({ captcha: await siteCaptcha(db, (await siteOfHost(request)).id) }),
  );

  app.post(
    "/api/rest/forms/validate/:formId",
    {
      schema: {
        tags: ["forms"],
        summary: "Validates answers (field id to value); failure is 400 with errors keyed by field id",
        params: StringParams("formId"),
        body: Type.Object({}, { additionalProperties: true, maxProperties: 500 }),
        response: { 200: Type.Object({ valid: Type.Boolean() }) },
      },
    },
    async (request) => {
      const site = await siteOfHost(request);
      await limitByAddress(app.deps, "validate", site.id, request.ip, VALIDATE_LIMIT);
      const { formId } = request.params as { formId: string };
      return validateSubmission(db, site.id, formId, request.body as Record<string, unknown>);
    },
  );

  app.post(
    "/api/form/FormSubmissionKey",
    {
      preHandler: requireCrumb,
      schema: {
        tags: ["forms"],
        summary: "A single-use key for one form submission (expires after an hour)",
        response: { 200: Type.Object({ key: Type.String() }) },
      },
    },
    async (request) => {
      const site = await siteOfHost(request);
      await limitByAddress(app.deps, "key", site.id, request.ip, KEY_LIMIT);
      return { key: await issueSubmissionKey(app.deps, site.id) };
    },
  );

  app.post(
    "/api/form/SaveFormSubmission",
    {
      preHandler: requireCrumb,
      schema: {
        tags: ["forms"],
        summary: "Stores a form submission (key from FormSubmissionKey, form as a JSON string)",
        body: Type.Object(
          {
            key: Type.String({ maxLength: 200 }),
            formId: Type.String({ maxLength: 64 }),
            form: Type.String({ maxLength: 200_000 }),
            captchaKey: Type.Optional(Type.String({ maxLength: 4096 })),
            pagePath: Type.Optional(Type.String({ maxLength: 2000 })),
            pageId: Type.Optional(Type.String({ maxLength: 200 })),
            collectionId: Type.Optional(Type.String({ maxLength: 200 })),
            itemId: Type.Optional(Type.String({ maxLength: 200 })),
            pageTitle: Type.Optional(Type.String({ maxLength: 2000 })),
            contentSource: Type.Optional(Type.String({ maxLength: 10 })),
          },
          { additionalProperties: true, maxProperties: 60 },
        ),
        response: {
          200: Type.Object({
            ok: Type.Boolean(),
            submissionId: Type.String(),
            redirect: Type.Union([Type.String(), Type.Null()]),
            submissionMessage: Type.String(),
            submissionHtml: Type.String(),
          }),
        },
      },
    },
    async (request) => {
      const site = await siteOfHost(request);
      const body = request.body as {
        key: string;
        formId: string;
        form: string;
        captchaKey?: string;
        pagePath?: string;
      };
      await limitByAddress(app.deps, "submit", site.id, request.ip, SUBMIT_LIMIT);
      try {
        const saved = await saveSubmission(app.deps, {
          websiteId: site.id,
          siteTitle: site.title,
          formId: body.formId,
          key: body.key,
          form: body.form,
          captchaKey: body.captchaKey,
          pagePath: body.pagePath,
          ip: request.ip,
        });
        return { ok: true, ...saved };
      } catch (err) {
        if (err instanceof ApiError) throw err;
        request.log.error({ err }, "form submission failed");
        throw new ApiError(500, "form_send_failed", MSG_STATUS_500);
      }
    },
  );

  // ─── Owner API ─────────────────────────────────────────────────────────────────────────────
  const owner = siteApiRoutes(app, { tags: ["owner"], area: "forms" });

  owner.get(
    "/forms",
    {
      summary: "The site's forms with their submission counts",
      response: {
        200: Type.Object({
          forms: Type.Array(
            Type.Intersect([
              FormJson,
              Type.Object({
                notifyEmail: Type.Union([Type.String(), Type.Null()]),
                submissions: Type.Integer(),
              }),
            ]),
          ),
        }),
      },
    },
    async (request) => {
      const websiteId = siteOf(request).id;
      return { forms: await formsWithCounts(db, websiteId) };
    },
  );

  const FormBody = {
    name: Type.String({ maxLength: FORM_NAME_MAX_LENGTH }),
    fields: Type.Array(Type.Unknown(), { maxItems: FORM_MAX_FIELDS }),
    submissionMessage: Type.Optional(Type.String({ maxLength: 5000 })),
    submissionHtml: Type.Optional(Type.String({ maxLength: 50_000 })),
    successRedirect: Type.Optional(Type.Union([Type.String({ maxLength: 2100 }), Type.Null()])),
    disclaimerMessage: Type.Optional(Type.Union([Type.String({ maxLength: 5000 }), Type.Null()])),
    captchaEnabled: Type.Optional(Type.Boolean()),
    captchaTheme: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
    captchaAlignment: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
    notifyEmail: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
  };
  const OwnerForm = Type.Intersect([
    FormJson,
    Type.Object({ notifyEmail: Type.Union([Type.String(), Type.Null()]) }),
  ]);

  owner.post(
    "/forms",
    {
      summary: "Creates a form (fields of the SPEC's field types) for the site's form blocks",
      body: Type.Object(FormBody, { additionalProperties: false }),
      response: { 201: Type.Object({ form: OwnerForm }) },
    },
    async (request, reply) => {
      const websiteId = siteOf(request).id;
      const form = await createForm(db, websiteId, request.body as FormInput);
      return reply.status(201).send({ form });
    },
  );

  owner.patch(
    "/forms/:formId",
    {
      summary: "Changes a form; pages showing it show the change at once",
      params: OwnerFormParams,
      body: Type.Partial(Type.Object(FormBody, { additionalProperties: false })),
      response: { 200: Type.Object({ form: OwnerForm }) },
    },
    async (request) => {
      const p = request.params as { formId: string };
      const websiteId = siteOf(request).id;
      return { form: await updateForm(db, websiteId, p.formId, request.body as FormInput) };
    },
  );

  owner.delete(
    "/forms/:formId",
    {
      summary:
        "Deletes a form and its submissions; 409 while a page (live or draft) or a product still uses it",
      params: OwnerFormParams,
      response: { 200: Type.Object({ ok: Type.Boolean() }) },
    },
    async (request) => {
      const p = request.params as { formId: string };
      const websiteId = siteOf(request).id;
      await deleteForm(db, websiteId, p.formId);
      return { ok: true };
    },
  );

  owner.get(
    "/forms/:formId/submissions",
    {
      summary: "A form's submissions, newest first; q searches the answers",
      params: OwnerFormParams,
      querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 200 })), ...OffsetPaging }),
      response: { 200: Type.Object({ submissions: Type.Array(Submission), total: Type.Integer() }) },
    },
    async (request) => {
      const p = request.params as { formId: string };
      const q = request.query as { q?: string; limit?: number; offset?: number };
      const websiteId = siteOf(request).id;
      return listSubmissions(db, websiteId, p.formId, {
        q: q.q,
        ...offsetPage(q),
      });
    },
  );

  owner.get(
    "/forms/:formId/submissions.csv",
    {
      summary: "A form's submissions as CSV (one column per field); q filters as in the list",
      params: OwnerFormParams,
      querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 200 })) }),
    },
    async (request, reply) => {
      const p = request.params as { formId: string };
      const websiteId = siteOf(request).id;
      const { name, csv } = await submissionsCsv(
        db,
        websiteId,
        p.formId,
        (request.query as { q?: string }).q,
      );
      const file = `${name.replace(/[^\w -]+/g, "").trim() || "form"} submissions.csv`;
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${file}"`)
        .header("cache-control", "no-store")
        .send(`\ufeff${csv}`);
    },
  );

  owner.delete(
    "/forms/:formId/submissions/:submissionId",
    {
      summary: "Deletes a submission (spam, test entries)",
      params: Type.Composite([SiteParams, StringParams("formId", "submissionId")]),
      response: { 200: Type.Object({ ok: Type.Boolean() }) },
    },
    async (request) => {
      const p = request.params as { formId: string; submissionId: string };
      const websiteId = siteOf(request).id;
      if (!(await deleteSubmission(db, websiteId, p.formId, p.submissionId)))
        throw notFound("No such submission.");
      return { ok: true };
    },
  );

  owner.get(
    "/mailing-list",
    {
      summary: "The site's mailing list, newest first",
      querystring: Type.Object(OffsetPaging),
      response: {
        200: Type.Object({
          subscribers: Type.Array(
            Type.Object({
              id: Type.String(),
              email: Type.String(),
              source: Type.String(),
              pendingConfirmation: Type.Boolean({
                description: "double opt-in: the emailed link is not opened yet, so not consented",
              }),
              createdOn: Type.Number(),
            }),
          ),
          total: Type.Integer(),
        }),
      },
    },
    async (request) => {
      const websiteId = siteOf(request).id;
      const q = request.query as { limit?: number; offset?: number };
      return mailingList(db, websiteId, offsetPage(q));
    },
  );
};
