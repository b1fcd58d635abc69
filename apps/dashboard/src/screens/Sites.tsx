import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { type Site, get, post } from "../api.js";
import { useSites } from "../components/Shell.js";
import { ErrorNotice, FormDialog, Loading, PageHead } from "../components/ui.js";
import { SelectField, TextField, fieldErrors } from "../components/form/index.js";
import { ImportSite } from "./ImportSite.js";

interface Theme {
  id: string;
  name: string;
  websiteType: number;
  description: string;
}

export function useThemes() {
  return useQuery({
    queryKey: ["themes"],
    queryFn: () => get<{ themes: Theme[]; locales: string[]; timeZones: string[] }>("/api/owner/themes"),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Every site of the owner, and creating a new one from a built-in theme. */
export function Sites() {
  const sites = useSites();
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  return (
    <>
      <PageHead
        title="Your sites"
        sub="Open a site to edit its pages, products and settings."
        actions={
          <>
            <button type="button" className="btn" onClick={() => setImporting(true)}>
              Import a site
            </button>
            <button type="button" className="btn primary" onClick={() => setCreating(true)}>
              Create a site
            </button>
          </>
        }
      />
      {sites.isLoading ? <Loading /> : null}
      <ErrorNotice error={sites.error} />
      <div className="card-grid">
        {sites.data?.map((s) => (
          <Link key={s.id} to={`/sites/${s.id}`} className="site-card">
            <div className="cover">{s.title}</div>
            <div className="meta">
              <strong>{s.title}</strong>
              <div className="muted small">{s.url.replace(/^https?:\/\//, "")}</div>
              <div style={{ marginTop: "0.4rem" }}>
                <span className="badge">{s.websiteTypeName}</span>{" "}
                {s.siteStatus === 3 ? (
                  <span className="badge warn">Trial</span>
                ) : (
                  <span className="badge ok">Live</span>
                )}
              </div>
            </div>
          </Link>
        ))}
      </div>
      {sites.data && !sites.data.length ? (
        <div className="card empty">
          <p>You have no sites yet.</p>
          <button type="button" className="btn primary" onClick={() => setCreating(true)}>
            Create your first site
          </button>
        </div>
      ) : null}
      {creating ? <CreateSite onClose={() => setCreating(false)} /> : null}
      {importing ? <ImportSite onClose={() => setImporting(false)} /> : null}
    </>
  );
}

interface Starter {
  id: string;
  name: string;
  description: string;
  websiteType: number;
  theme: string;
  screenshotUrl: string;
}

function useStarters() {
  return useQuery({
    queryKey: ["starters"],
    queryFn: () => get<{ starters: Starter[] }>("/api/owner/starters"),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** A new site: its title, a starter (or a blank site), any theme, its time zone. */
function CreateSite({ onClose }: { onClose: () => void }) {
  const themes = useThemes();
  const starters = useStarters();
  const [title, setTitle] = useState("");
  const [starter, setStarter] = useState("online-store");
  /** "" keeps the starter's own theme (classic for a blank site). */
  const [theme, setTheme] = useState("");
  const [timeZone, setTimeZone] = useState(
    Intl.DateTimeFormat().resolvedOptions().timeZone || "America/New_York",
  );
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () =>
      post<{ site: Site }>("/api/owner/sites", {
        title,
        timeZone,
        ...(starter ? { starter } : {}),
        ...(theme ? { theme } : {}),
      }),
    onSuccess: ({ site }) => {
      void queryClient.invalidateQueries({ queryKey: ["sites"] });
      navigate(`/sites/${site.id}`);
    },
  });
  const errors = fieldErrors(create.error);
  const zones = themes.data?.timeZones ?? [timeZone];
  const themeList = themes.data?.themes ?? [];
  const chosen = starters.data?.starters.find((s) => s.id === starter);
  const ownTheme = themeList.find((t) => t.id === (chosen?.theme ?? "classic"));
  return (
    <FormDialog
      id="create-site"
      title="Create a site"
      onClose={onClose}
      submit={create}
      action="Create site"
      pendingAction="Creating…"
      wide
    >
      <TextField
        label="Site title"
        value={title}
        onChange={(v) => setTitle(v)}
        error={errors.title}
        required
      />
      <fieldset>
        <legend>Start from</legend>
        <div className="starter-choice">
          {(starters.data?.starters ?? []).map((s) => (
            <label key={s.id}>
              <input
                type="radio"
                name="starter"
                value={s.id}
                checked={starter === s.id}
                onChange={() => setStarter(s.id)}
              />
              <img src={s.screenshotUrl} alt="" width={1280} height={800} loading="lazy" />
              <strong>{s.name}</strong>
              <span className="muted small">{s.description}</span>
            </label>
          ))}
          <label>
            <input
              type="radio"
              name="starter"
              value=""
              checked={starter === ""}
              onChange={() => setStarter("")}
            />
            <span className="blank-start" aria-hidden="true" />
            <strong>Blank site</strong>
            <span className="muted small">A home page and an about page, nothing else.</span>
          </label>
        </div>
      </fieldset>
      <SelectField
        label="Theme"
        value={theme}
        onChange={(v) => setTheme(v)}
        options={[
          { value: "", label: `The starter's own${ownTheme ? ` (${ownTheme.name})` : ""}` },
          ...themeList.map((t) => ({ value: t.id, label: `${t.name}: ${t.description}` })),
        ]}
        error={errors.theme}
      />
      <SelectField
        label="Time zone"
        value={timeZone}
        onChange={(v) => setTimeZone(v)}
        options={(zones.includes(timeZone) ? zones : [timeZone, ...zones]).map((z) => ({
          value: z,
          label: z,
        }))}
        error={errors.timeZone}
      />
    </FormDialog>
  );
}
