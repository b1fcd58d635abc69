/** Site settings: title, tagline, time zone, language, domains; comments, liking, sharing, cookies, social links. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { type Site, del, get, patch, post, put } from "../api.js";
import { Card } from "../components/Card.js";
import { ErrorNotice, Loading, PageHead, useSite, useSiteId } from "../components/ui.js";
import {
  CheckboxField,
  DraftSaveBar,
  SelectField,
  TextField,
  binder,
  errorsUnder,
  fieldErrors,
  useDraft,
} from "../components/form/index.js";
import { useThemes } from "./Sites.js";

interface Settings {
  commentsEnabled: boolean;
  disqusShortName: string;
  simpleLikingEnabled: boolean;
  shareButtonOptions: Record<string, boolean>;
  cookieBannerEnabled: boolean;
  restrictiveCookiePolicy: boolean;
  restrictiveCookiePolicyAbsolute: boolean;
  socialLinks: { service: string; profileUrl: string; userName?: string }[];
  contactEmail: string;
  adPixelId: string;
  hideFromSearchEngines: boolean;
}

export function SiteSettings() {
  const site = useSite();
  const siteId = useSiteId();
  const settings = useQuery({
    queryKey: ["site-settings", siteId],
    queryFn: () =>
      get<{ settings: Settings; shareServices: string[]; socialServices: string[] }>(
        `/api/owner/sites/${siteId}/settings`,
      ),
  });
  if (site.isLoading || settings.isLoading) return <Loading />;
  if (!site.data || !settings.data) return <ErrorNotice error={site.error ?? settings.error} />;
  return (
    <>
      <PageHead title="Site settings" sub={site.data.title} />
      <GeneralForm site={site.data} />
      <Domains site={site.data} />
      <SettingsForm
        siteUrl={site.data.url}
        initial={settings.data.settings}
        shareServices={settings.data.shareServices}
        socialServices={settings.data.socialServices}
      />
    </>
  );
}

/** The site's general settings, as the form edits them. */
function generalOf({ title, tagline, timeZone, locale }: Site) {
  return { title, tagline, timeZone, locale };
}

function GeneralForm({ site }: { site: Site }) {
  const siteId = useSiteId();
  const themes = useThemes();
  const queryClient = useQueryClient();
  const form = useDraft(generalOf(site));
  const { timeZone, locale } = form.values;
  const save = useMutation({
    mutationFn: () => patch<{ site: Site }>(`/api/owner/sites/${siteId}`, form.values),
    onSuccess: (r) => {
      queryClient.setQueryData(["site", siteId], r.site);
      void queryClient.invalidateQueries({ queryKey: ["sites"] });
      form.reset(generalOf(r.site));
    },
  });
  const field = <K extends keyof typeof form.values & string>(key: K) => form.bind(key, save.error);
  const zones = themes.data?.timeZones ?? [timeZone];
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="card" onSubmit={onSubmit}>
      <h2>General</h2>
      <ErrorNotice error={save.error} />
      <div className="grid-2">
        <TextField label="Site title" {...field("title")} />
        <TextField label="Tagline" {...field("tagline")} />
        <SelectField
          label="Time zone"
          {...field("timeZone")}
          options={(zones.includes(timeZone) ? zones : [timeZone, ...zones]).map((z) => ({
            value: z,
            label: z,
          }))}
        />
        <SelectField
          label="Language"
          {...field("locale")}
          options={(themes.data?.locales ?? [locale]).map((l) => ({ value: l, label: l }))}
        />
      </div>
      <DraftSaveBar draft={form} save={save} saved="Saved." saveLabel="Save general settings" />
    </form>
  );
}

function Domains({ site }: { site: Site }) {
  const verified = site.domains.filter((d) => d.status === "verified").length;
  return (
    <Card title="Domains">
      <p className="muted">
        The site is at <a href={site.url}>{site.url}</a>.{" "}
        {site.domains.length
          ? `${site.domains.length} domain${site.domains.length === 1 ? "" : "s"} connected, ${verified} verified.`
          : "Connect a domain you own to give it its own address, with HTTPS."}
      </p>
      <Link className="btn" to="domains">
        Manage domains
      </Link>
    </Card>
  );
}

const SHARE_LABELS: Record<string, string> = {
  facebook: "Facebook",
  twitter: "X (Twitter)",
  pinterest: "Pinterest",
  linkedin: "LinkedIn",
  tumblr: "Tumblr",
  reddit: "Reddit",
  email: "Email",
};

function SettingsForm({
  siteUrl,
  initial,
  shareServices,
  socialServices,
}: {
  siteUrl: string;
  initial: Settings;
  shareServices: string[];
  socialServices: string[];
}) {
  const siteId = useSiteId();
  const siteOrigin = siteUrl.replace(/\/+$/, "");
  const queryClient = useQueryClient();
  const form = useDraft(initial);
  const { values: s, set } = form;
  const save = useMutation({
    mutationFn: () => patch<{ settings: Settings }>(`/api/owner/sites/${siteId}/settings`, s),
    onSuccess: (r) => {
      form.reset(r.settings);
      void queryClient.invalidateQueries({ queryKey: ["site-settings", siteId] });
    },
  });
  const errors = fieldErrors(save.error);
  const field = <K extends keyof Settings & string>(key: K) => form.bind(key, save.error);
  const setLink = (i: number, p: Partial<Settings["socialLinks"][number]>) =>
    set({ socialLinks: s.socialLinks.map((l, j) => (j === i ? { ...l, ...p } : l)) });
  /** `{value, onChange, error}` for a field of link `i`, its errors those under `socialLinks.${i}.`. */
  const linkField = (i: number) =>
    binder(s.socialLinks[i]!, (p) => setLink(i, p), errorsUnder(errors, `socialLinks.${i}.`));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <ErrorNotice error={save.error} />
      <Card title="Comments and likes">
        <CheckboxField label="Allow comments on blog posts" {...field("commentsEnabled")} />
        <TextField
          label="Disqus short name"
          {...field("disqusShortName")}
          help="Use Disqus for comments instead of the built-in comments. Leave empty for built-in."
        />
        <CheckboxField label="Simple liking (a heart on posts)" {...field("simpleLikingEnabled")} />
        <TextField label="Contact email" type="email" {...field("contactEmail")} />
      </Card>
      <Card title="Share buttons">
        <div className="grid-3">
          {shareServices.map((k) => (
            <CheckboxField
              key={k}
              label={SHARE_LABELS[k] ?? k}
              value={Boolean(s.shareButtonOptions[k])}
              onChange={(v) => set({ shareButtonOptions: { ...s.shareButtonOptions, [k]: v } })}
            />
          ))}
        </div>
      </Card>
      <Card title="Cookies">
        <CheckboxField
          label="Show the cookie banner"
          help="Visitors accept or decline cookies before any are set."
          {...field("cookieBannerEnabled")}
        />
        <CheckboxField
          label="Restrictive cookie policy"
          help="Visitor statistics cookies are cleared until a visitor accepts them."
          {...field("restrictiveCookiePolicy")}
        />
        <CheckboxField
          label="Always restrictive"
          help="Apply the restrictive policy even after a visitor accepts."
          {...field("restrictiveCookiePolicyAbsolute")}
          disabled={!s.restrictiveCookiePolicy}
        />
      </Card>
      <Card title="Search engines">
        <CheckboxField
          label="Hide this site from search engines"
          help="robots.txt asks every crawler to stay away and each page says noindex. Visitors with the address still see the site."
          {...field("hideFromSearchEngines")}
        />
        <p className="help">
          Search engines find your pages through <a href={`${siteOrigin}/sitemap.xml`}>sitemap.xml</a> and{" "}
          <a href={`${siteOrigin}/robots.txt`}>robots.txt</a>. Moved pages keep their visitors with{" "}
          <Link to={`/sites/${siteId}/settings/url-mappings`}>URL mappings</Link>.
        </p>
      </Card>
      <Card title="Ads">
        <TextField
          label="Meta pixel id"
          {...field("adPixelId")}
          inputMode="numeric"
          help="Counts visits for your Meta (Facebook and Instagram) ads. It loads only where visitors allow cookies."
        />
      </Card>
      <Card title="Social links">
        {s.socialLinks.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: links are edited in place
          <fieldset key={i}>
            <legend>Link {i + 1}</legend>
            <div className="grid-3">
              <SelectField
                label="Service"
                {...linkField(i)("service")}
                options={socialServices.map((x) => ({ value: x, label: x }))}
              />
              <TextField label="Profile address" {...linkField(i)("profileUrl")} />
              <TextField
                label="User name"
                value={l.userName ?? ""}
                onChange={(v) => setLink(i, { userName: v })}
              />
            </div>
            <button
              type="button"
              className="btn small"
              onClick={() => set({ socialLinks: s.socialLinks.filter((_, j) => j !== i) })}
            >
              Remove link {i + 1}
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className="btn small"
          onClick={() =>
            set({
              socialLinks: [
                ...s.socialLinks,
                { service: socialServices[0] ?? "instagram", profileUrl: "https://", userName: "" },
              ],
            })
          }
        >
          Add social link
        </button>
      </Card>
      <DraftSaveBar draft={form} save={save} saved="Site settings saved." saveLabel="Save site settings" />
    </form>
  );
}
