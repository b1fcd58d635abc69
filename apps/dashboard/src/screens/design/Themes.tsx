/** Design → Themes: the gallery of built-in themes; switching keeps content and the styles it supports. */
import { DesignHistory } from "./DesignHistory.js";
import { Can } from "../../components/permissions.js";
import { useState } from "react";
import { ErrorNotice, Loading, Notice, PageHead, useSite, ActionDialog } from "../../components/ui.js";
import { type DesignTheme, useDesign, useSaveDesign } from "./design-api.js";
import "./design.css";

export function Themes() {
  const design = useDesign();
  const site = useSite();
  const save = useSaveDesign();
  const [asking, setAsking] = useState<DesignTheme | undefined>();
  const [switched, setSwitched] = useState<string | undefined>();

  if (design.isLoading) return <Loading />;
  if (!design.data) return <ErrorNotice error={design.error} />;
  const current = design.data.theme;
  const siteType = site.data?.websiteType;

  return (
    <div className="design-screen">
      <PageHead
        title="Themes"
        sub="A theme sets your site's layout and look. Switching keeps every page, product and post, and the styles the new theme supports."
        actions={<DesignHistory />}
      />
      {switched ? (
        <Notice kind="ok">
          Your site now uses {switched}.{" "}
          {site.data ? (
            <a href={site.data.url} target="_blank" rel="noreferrer">
              View the site
            </a>
          ) : null}
        </Notice>
      ) : null}
      <ErrorNotice error={save.error} />
      <ul className="theme-gallery">
        {design.data.themes.map((t) => {
          const isCurrent = t.id === current;
          const suited =
            siteType === undefined || !t.websiteTypes.length || t.websiteTypes.includes(siteType);
          return (
            <li key={t.id} className={`theme-card${isCurrent ? " current" : ""}`} aria-label={t.name}>
              <div className="shot">
                {t.screenshotUrl ? (
                  <img src={t.screenshotUrl} alt={`${t.name} theme`} loading="lazy" />
                ) : null}
              </div>
              <div className="meta">
                <h2>
                  {t.name} {isCurrent ? <span className="badge ok">Current</span> : null}
                  {!isCurrent && suited && siteType !== undefined ? (
                    <span className="badge">Suits your site</span>
                  ) : null}
                </h2>
                <p className="muted">{t.description}</p>
                {isCurrent ? null : (
                  <Can permission="design.write">
                    <button
                      type="button"
                      className="btn primary"
                      onClick={() => setAsking(t)}
                      disabled={save.isPending}
                    >
                      Use this theme
                    </button>
                  </Can>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {asking ? (
        <ActionDialog
          title={`Use ${asking.name}?`}
          onClose={() => setAsking(undefined)}
          action={save.isPending ? "Switching…" : `Switch to ${asking.name}`}
          disabled={save.isPending}
          onAction={() =>
            save.mutate(
              { theme: asking.id },
              {
                onSuccess: () => {
                  setSwitched(asking.name);
                  setAsking(undefined);
                },
              },
            )
          }
        >
          <p>
            Your site will be shown with the {asking.name} theme straight away. Pages, products, posts and
            media stay as they are; your colours, fonts and sizes carry over where {asking.name} supports
            them.
          </p>
          <ErrorNotice error={save.error} />
        </ActionDialog>
      ) : null}
    </div>
  );
}
