/**
 * Marketing › Email campaigns › a campaign: subject, preview text, sender and reply-to, who it goes
 * to (with how many that is), its blocks beside a live preview at desktop or phone width. A draft
 * saves itself a moment after each change (the first change creates it). Send a test to yourself,
 * send now or schedule (after a confirmation with the recipient count), cancel while it waits.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { get, patch, post } from "../../../api.js";
import { Card } from "../../../components/Card.js";
import { useAccount } from "../../../components/Shell.js";
import { CheckboxField, TextField, errorText, fieldErrors } from "../../../components/form/index.js";
import { Can, useCan, useMayWrite } from "../../../components/permissions.js";
import { ActionDialog, ErrorNotice, Loaded, Notice, PageHead, useSiteId } from "../../../components/ui.js";
import { AudiencePicker } from "./AudiencePicker.js";
import { BlockList } from "./BlockList.js";
import { EmailPreview } from "./EmailPreview.js";
import {
  BLANK_CAMPAIGN,
  type Campaign,
  type CampaignFields,
  STATUS_LABEL,
  campaignUrl,
  campaignsPath,
  campaignsUrl,
  fieldsOf,
  people,
  useAudienceCount,
} from "./model.js";
import { type AutosaveState, useAutosave } from "./useAutosave.js";

export function CampaignEdit() {
  const siteId = useSiteId();
  const { campaignId = "new" } = useParams();
  // A campaign begun here stays on this screen when its first save gives it an address.
  const [begunHere] = useState(campaignId === "new");
  const query = useQuery({
    queryKey: ["campaign", siteId, campaignId],
    queryFn: () => get<{ campaign: Campaign }>(campaignUrl(siteId, campaignId)).then((r) => r.campaign),
    enabled: !begunHere,
    staleTime: 0,
  });
  if (begunHere) return <Compose initial={null} />;
  return <Loaded query={query}>{(c) => <Compose initial={c} />}</Loaded>;
}

/** A time as the site's clock reads it, e.g. "Dec 1, 2026, 9:00 AM". */
function inZone(ms: number, timeZone: string | undefined): string {
  return new Date(ms).toLocaleString("en-US", {
    timeZone,
    dateStyle: "medium",
    timeStyle: "short",
  });
}

/** Tomorrow at 9:00 on the site's clock, as a datetime-local value. */
function tomorrowMorning(timeZone: string | undefined): string {
  const day = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(Date.now() + 86_400_000));
  return `${day}T09:00`;
}

function savedText(state: AutosaveState, created: boolean): string {
  switch (state.kind) {
    case "waiting":
      return "Unsaved changes";
    case "saving":
      return "Saving…";
    case "saved":
      return "Saved";
    case "failed":
      return Object.keys(fieldErrors(state.error)).length
        ? "Not saved: see the fields marked below"
        : `Not saved: ${errorText(state.error)}`;
    default:
      return created ? "Saved" : "Not saved yet";
  }
}

function Compose({ initial }: { initial: Campaign | null }) {
  const siteId = useSiteId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { site } = useCan();
  const timeZone = site?.timeZone;
  const account = useAccount();
  const mayWrite = useMayWrite("marketing.write");
  const [campaign, setCampaign] = useState<Campaign | null>(initial);
  const [fields, setFields] = useState<CampaignFields>(initial ? fieldsOf(initial) : BLANK_CAMPAIGN);
  const id = useRef(initial?.id);
  const editable = mayWrite && (!campaign || campaign.status === "draft" || campaign.status === "scheduled");
  const set = (patchOf: Partial<CampaignFields>) => setFields((f) => ({ ...f, ...patchOf }));

  const took = (c: Campaign) => {
    setCampaign(c);
    queryClient.setQueryData(["campaign", siteId, c.id], c);
    void queryClient.invalidateQueries({ queryKey: ["campaigns", siteId] });
  };
  const autosave = useAutosave(fields, async (values) => {
    if (!editable) return;
    if (!id.current) {
      const { campaign: made } = await post<{ campaign: Campaign }>(campaignsUrl(siteId), values);
      id.current = made.id;
      took(made);
      void navigate(campaignsPath(siteId, made.id), { replace: true });
    } else {
      took((await patch<{ campaign: Campaign }>(campaignUrl(siteId, id.current), values)).campaign);
    }
  });

  const test = useMutation({
    mutationFn: async () => {
      await autosave.flush();
      const email = account.data?.account.email ?? "";
      await post(`${campaignUrl(siteId, id.current!)}/test`, { email });
      return email;
    },
  });
  const [sending, setSending] = useState<"now" | "later" | null>(null);
  const [at, setAt] = useState(() => tomorrowMorning(timeZone));
  const send = useMutation({
    mutationFn: async (when: "now" | "later") => {
      await autosave.flush();
      return post<{ campaign: Campaign }>(
        `${campaignUrl(siteId, id.current!)}/send`,
        when === "later" ? { at } : {},
      ).then((r) => r.campaign);
    },
    onSuccess: (c) => {
      took(c);
      setSending(null);
      if (c.status === "sending") void navigate(campaignsPath(siteId, `${c.id}/report`));
    },
  });
  const cancel = useMutation({
    mutationFn: () =>
      post<{ campaign: Campaign }>(`${campaignUrl(siteId, id.current!)}/cancel`).then((r) => r.campaign),
    onSuccess: took,
  });
  const count = useAudienceCount(fields.audience);
  const errors = { ...fieldErrors(autosave.error), ...fieldErrors(send.error) };
  const status = campaign ? STATUS_LABEL[campaign.status] : STATUS_LABEL.draft;
  const created = Boolean(id.current);
  const waiting = campaign?.status === "scheduled" || campaign?.status === "sending";

  return (
    <>
      <PageHead
        title={fields.subject.trim() || "New campaign"}
        sub={
          <>
            <span className={`badge ${status.badge}`}>{status.label}</span>{" "}
            {campaign?.status === "scheduled" && campaign.scheduledOn ? (
              <span>
                Goes out {inZone(campaign.scheduledOn, timeZone)} ({timeZone}).{" "}
              </span>
            ) : null}
            {editable ? (
              <span className="campaign-saved" role="status">
                {savedText(autosave.state, created)}
              </span>
            ) : null}
          </>
        }
        back={{ to: campaignsPath(siteId), label: "All campaigns" }}
        actions={
          <Can permission="marketing.write">
            {campaign && campaign.status !== "draft" && campaign.status !== "scheduled" ? (
              <Link className="btn" to={campaignsPath(siteId, `${campaign.id}/report`)}>
                Report
              </Link>
            ) : null}
            {waiting ? (
              <button
                type="button"
                className="btn danger"
                onClick={() => cancel.mutate()}
                disabled={cancel.isPending}
              >
                {cancel.isPending
                  ? "Cancelling…"
                  : campaign?.status === "scheduled"
                    ? "Cancel schedule"
                    : "Cancel sending"}
              </button>
            ) : null}
          </Can>
        }
      />
      <ErrorNotice error={cancel.error} />
      {editable && autosave.state.kind === "failed" && !Object.keys(fieldErrors(autosave.error)).length ? (
        <ErrorNotice error={autosave.error} />
      ) : null}
      <div className="campaign-compose">
        <div className="campaign-form">
          <Card title="Email" as="section">
            <TextField
              label="Subject"
              value={fields.subject}
              maxLength={200}
              disabled={!editable}
              onChange={(subject) => set({ subject })}
              error={errors.subject}
            />
            <TextField
              label="Preview text"
              help="The line inboxes show after the subject."
              value={fields.previewText}
              maxLength={200}
              disabled={!editable}
              onChange={(previewText) => set({ previewText })}
              error={errors.previewText}
            />
            <div className="field-row">
              <TextField
                label="Sender name"
                help={`Without it, ${site?.title ?? "your site's title"}.`}
                value={fields.fromName}
                maxLength={100}
                disabled={!editable}
                onChange={(fromName) => set({ fromName })}
                error={errors.fromName}
              />
              <TextField
                label="Reply-to (optional)"
                type="email"
                value={fields.replyTo ?? ""}
                maxLength={256}
                disabled={!editable}
                onChange={(replyTo) => set({ replyTo: replyTo || null })}
                error={errors.replyTo}
              />
            </div>
            <CheckboxField
              label="Count opens and clicks"
              help="Adds an invisible image and sends links through your site, for the report."
              value={fields.tracking}
              disabled={!editable}
              onChange={(tracking) => set({ tracking })}
            />
          </Card>
          <Card title="Audience" as="section">
            <AudiencePicker
              value={fields.audience}
              onChange={(audience) => set({ audience })}
              errors={errors}
              disabled={!editable}
            />
          </Card>
          <Card title="Content" as="section">
            <BlockList
              blocks={fields.blocks}
              onChange={(blocks) => set({ blocks })}
              errors={errors}
              disabled={!editable}
            />
          </Card>
          {editable ? (
            <div className="campaign-send-bar">
              <button
                type="button"
                className="btn"
                disabled={!created || test.isPending}
                onClick={() => test.mutate()}
              >
                {test.isPending ? "Sending a test…" : "Send a test"}
              </button>
              <button
                type="button"
                className="btn campaign-send-later"
                disabled={!created}
                onClick={() => setSending("later")}
              >
                Schedule…
              </button>
              <button
                type="button"
                className="btn primary"
                disabled={!created}
                onClick={() => setSending("now")}
              >
                Send now…
              </button>
            </div>
          ) : null}
          {test.isSuccess ? <Notice kind="ok">A test was sent to {test.data}.</Notice> : null}
          <ErrorNotice error={test.error} />
          {editable && !created ? (
            <p className="muted small">
              Give the campaign a subject: it saves as a draft, then you can send it.
            </p>
          ) : null}
        </div>
        <EmailPreview fields={fields} />
      </div>
      {sending ? (
        <ActionDialog
          title={sending === "now" ? "Send this campaign now?" : "Schedule this campaign"}
          onClose={() => {
            setSending(null);
            send.reset();
          }}
          action={
            send.isPending
              ? "Sending…"
              : sending === "now"
                ? `Send to ${count.data === undefined ? "…" : people(count.data)}`
                : "Schedule"
          }
          disabled={send.isPending || count.data === 0}
          onAction={() => send.mutate(sending)}
        >
          {send.error && !fieldErrors(send.error).at ? <ErrorNotice error={send.error} /> : null}
          <p>
            “{fields.subject || "(no subject)"}” goes to{" "}
            <strong>{count.data === undefined ? "…" : people(count.data)}</strong>
            {sending === "now" ? " right away." : " at the time you choose."} Once it is sent, it cannot be
            changed.
          </p>
          {sending === "later" ? (
            <TextField
              type="datetime-local"
              label="Send at"
              help={`On your site's clock (${timeZone ?? "its time zone"}).`}
              value={at}
              onChange={setAt}
              error={fieldErrors(send.error).at}
            />
          ) : null}
        </ActionDialog>
      ) : null}
    </>
  );
}
