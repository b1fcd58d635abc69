/**
 * Marketing › Announcement bar and pop-up: the bar at the top of every page (text, an optional
 * link, an optional start and end in the site's time zone, dismissible or not) and the newsletter
 * pop-up that grows the mailing list (its words, when it opens, how often, double opt-in).
 */
import type { AnnouncementBar, NewsletterPopup } from "@atelier/owner-api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { get, put } from "../../api.js";
import { Card } from "../../components/Card.js";
import {
  CheckboxField,
  DraftSaveBar,
  NumberField,
  SelectField,
  TextField,
  TextareaField,
  fieldErrors,
  useDraft,
} from "../../components/form/index.js";
import { ErrorNotice, Loading, PageHead, useSiteId } from "../../components/ui.js";

const barUrl = (siteId: string) => `/api/owner/sites/${siteId}/announcement-bar`;
const popupUrl = (siteId: string) => `/api/owner/sites/${siteId}/newsletter-popup`;

export function SitePopups() {
  const siteId = useSiteId();
  const bar = useQuery({
    queryKey: ["announcement-bar", siteId],
    queryFn: () => get<AnnouncementBar>(barUrl(siteId)),
  });
  const popup = useQuery({
    queryKey: ["newsletter-popup", siteId],
    queryFn: () => get<NewsletterPopup>(popupUrl(siteId)),
  });
  return (
    <>
      <PageHead
        title="Announcement bar and pop-up"
        sub="A line of news at the top of every page, and a pop-up that invites visitors to join your mailing list."
      />
      {bar.isLoading || popup.isLoading ? <Loading what="Loading the announcement bar and pop-up" /> : null}
      <ErrorNotice error={bar.error ?? popup.error} />
      {bar.data ? <BarForm initial={bar.data} /> : null}
      {popup.data ? <PopupForm initial={popup.data} /> : null}
    </>
  );
}

function BarForm({ initial }: { initial: AnnouncementBar }) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const form = useDraft(initial);
  const save = useMutation({
    mutationFn: () => put<AnnouncementBar>(barUrl(siteId), form.values),
    onSuccess: (saved) => {
      queryClient.setQueryData(["announcement-bar", siteId], saved);
      form.reset(saved);
    },
  });
  const errors = fieldErrors(save.error);
  const v = form.values;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={onSubmit} className="site-popups-form">
      <ErrorNotice error={save.error} />
      <Card title="Announcement bar" as="section">
        <CheckboxField
          label="Show the announcement bar"
          help="At the top of every page except checkout, in your site's accent colour."
          {...form.bind("enabled", save.error)}
        />
        <TextField label="Text" maxLength={200} {...form.bind("text", save.error)} />
        <div className="field-row">
          <TextField
            label="Link (optional)"
            help="A page of your site (/shop) or a web address."
            value={v.linkUrl ?? ""}
            onChange={(linkUrl) => form.set({ linkUrl: linkUrl || null })}
            error={errors.linkUrl}
          />
          <TextField
            label="Link text (optional)"
            help="Without it, the whole text is the link."
            maxLength={60}
            value={v.linkText ?? ""}
            onChange={(linkText) => form.set({ linkText: linkText || null })}
            error={errors.linkText}
          />
        </div>
        <div className="field-row">
          <TextField
            type="datetime-local"
            label="Starts (optional)"
            help="In your site's time zone."
            value={v.startsAt ?? ""}
            onChange={(startsAt) => form.set({ startsAt: startsAt || null })}
            error={errors.startsAt}
          />
          <TextField
            type="datetime-local"
            label="Ends (optional)"
            help="In your site's time zone."
            value={v.endsAt ?? ""}
            onChange={(endsAt) => form.set({ endsAt: endsAt || null })}
            error={errors.endsAt}
          />
        </div>
        <CheckboxField
          label="Visitors can dismiss it"
          help="A dismissed bar stays hidden for that visitor until you change its text."
          {...form.bind("dismissible", save.error)}
        />
        {v.text.trim() ? (
          <div className="announcement-preview">
            <span className="muted">Preview</span>
            <p className="announcement-preview-bar">
              {v.linkUrl && !v.linkText ? <u>{v.text}</u> : v.text}
              {v.linkUrl && v.linkText ? (
                <>
                  {" "}
                  <u>
                    <strong>{v.linkText}</strong>
                  </u>
                </>
              ) : null}
            </p>
          </div>
        ) : null}
      </Card>
      <DraftSaveBar
        draft={form}
        save={save}
        saved="Announcement bar saved."
        saveLabel="Save announcement bar"
      />
    </form>
  );
}

function PopupForm({ initial }: { initial: NewsletterPopup }) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const form = useDraft(initial);
  const save = useMutation({
    mutationFn: () => put<NewsletterPopup>(popupUrl(siteId), form.values),
    onSuccess: (saved) => {
      queryClient.setQueryData(["newsletter-popup", siteId], saved);
      form.reset(saved);
    },
  });
  const errors = fieldErrors(save.error);
  const v = form.values;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={onSubmit} className="site-popups-form">
      <ErrorNotice error={save.error} />
      <Card title="Newsletter pop-up" as="section">
        <CheckboxField
          label="Show the newsletter pop-up"
          help="Never on the cart or checkout, and never while the cookie banner waits for an answer."
          {...form.bind("enabled", save.error)}
        />
        <TextField label="Title" maxLength={100} {...form.bind("title", save.error)} />
        <TextareaField label="Text" rows={3} maxLength={500} {...form.bind("text", save.error)} />
        <TextField label="Button text" maxLength={40} {...form.bind("buttonText", save.error)} />
        <div className="field-row">
          <SelectField
            label="Opens"
            value={v.trigger.kind}
            onChange={(kind) =>
              form.set({ trigger: kind === "scroll" ? { kind: "scroll" } : { kind: "delay", seconds: 10 } })
            }
            options={[
              { value: "delay", label: "After some seconds on a page" },
              { value: "scroll", label: "When the visitor scrolls past half of a page" },
            ]}
          />
          {v.trigger.kind === "delay" ? (
            <NumberField
              label="Seconds"
              min={0}
              max={600}
              step={1}
              value={v.trigger.seconds}
              onChange={(seconds) => form.set({ trigger: { kind: "delay", seconds: seconds ?? 0 } })}
              error={errors["trigger.seconds"]}
            />
          ) : null}
        </div>
        <NumberField
          label="Show it to a visitor at most once every (days)"
          min={1}
          max={365}
          step={1}
          value={v.frequencyDays}
          onChange={(frequencyDays) => form.set({ frequencyDays: frequencyDays ?? 0 })}
          error={errors.frequencyDays}
        />
        <CheckboxField
          label="Ask subscribers to confirm by email (double opt-in)"
          help="They join the list only once they open the link we email them."
          {...form.bind("doubleOptIn", save.error)}
        />
      </Card>
      <DraftSaveBar draft={form} save={save} saved="Newsletter pop-up saved." saveLabel="Save pop-up" />
    </form>
  );
}
