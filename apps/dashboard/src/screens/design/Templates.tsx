/**
 * Design → Templates (developer mode): the theme's JSON-T templates with the site's own versions
 * marked; a code editor that checks the template as you type (line and column of each error);
 * Preview shows a page of the site with the unsaved edit in the frame (only this owner sees it);
 * Save makes it live on the published site; Revert brings back the theme's version.
 */
import { Can } from "../../components/permissions.js";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { Template, TemplateSummary } from "@atelier/owner-api";
import { useSearchParams } from "react-router";
import { ApiError, del, get, put } from "../../api.js";
import { ErrorNotice, Loading, Notice, PageHead, useSiteId, ActionDialog } from "../../components/ui.js";
import { inOrder } from "../../editor/in-order.js";
import { CODE_KEYS_HINT } from "../../components/form/code-highlight.js";
import { editorExtensions, syntaxErrors } from "./jsont-editor.js";
import { HistoryButton } from "../../components/history/HistoryPanel.js";
import { TemplateVersionFrame } from "../../components/history/TemplateVersionFrame.js";
import "./templates.css";

const GROUPS: { title: string; test: (n: string) => boolean }[] = [
  { title: "Site and layout", test: (n) => ["site", "layout", "head", "header", "footer"].includes(n) },
  {
    title: "Page types",
    test: (n) =>
      /\.(list|item)$/.test(n) ||
      [
        "page",
        "folder",
        "gallery",
        "search",
        "cart",
        "checkout",
        "splash",
        "not-found",
        "error",
        "lock-screen",
        "access-denied",
        "protected-content",
        "system",
      ].includes(n),
  },
  { title: "Blocks", test: (n) => n === "block" || n.startsWith("block.") },
  { title: "Icons", test: (n) => n.startsWith("icon.") },
  { title: "Partials", test: () => true },
];

function grouped(list: TemplateSummary[]) {
  const seen = new Set<string>();
  return GROUPS.map((g) => {
    const items = list.filter((t) => !seen.has(t.name) && g.test(t.name));
    for (const t of items) seen.add(t.name);
    return { title: g.title, items };
  }).filter((g) => g.items.length);
}

/**
 * The editing cookies of this browser: drafts (the preview cookie) show in the frame. In the
 * order asked: moving to another template turns preview off and on again at once.
 */
const setPreviewMode = inOrder((siteId: string, preview: boolean) =>
  put(`/api/owner/sites/${siteId}/editing-mode`, { preview }),
);

export function Templates() {
  const siteId = useSiteId();
  const base = `/api/owner/sites/${siteId}/templates`;
  const [params, setParams] = useSearchParams();
  const selected = params.get("name") ?? "footer";
  const [filter, setFilter] = useState("");
  const list = useQuery({
    queryKey: ["templates", siteId],
    queryFn: () => get<{ templates: TemplateSummary[] }>(base).then((r) => r.templates),
  });
  const shown = (list.data ?? []).filter((t) => t.name.includes(filter.trim().toLowerCase()));

  return (
    <>
      <PageHead
        title="Templates"
        sub="Developer mode: edit the theme's JSON-T templates. A saved template is live on your site at once and stays when the theme is updated; Revert brings back the theme's version."
      />
      <div className="tpl-layout">
        <nav className="tpl-list card" aria-label="Templates">
          <label className="field">
            <span className="label">Filter templates</span>
            <input
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder="footer, block.…"
            />
          </label>
          {list.isLoading ? <Loading /> : null}
          <ErrorNotice error={list.error} />
          {grouped(shown).map((g) => (
            <div key={g.title} className="tpl-group">
              <h2>{g.title}</h2>
              <ul>
                {g.items.map((t) => (
                  <li key={t.name}>
                    <button
                      type="button"
                      className={`tpl-item${t.name === selected ? " active" : ""}`}
                      aria-current={t.name === selected ? "true" : undefined}
                      onClick={() => setParams({ name: t.name })}
                    >
                      <span className="tpl-name">{t.name}</span>
                      {t.overridden ? <span className="badge">Edited</span> : null}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <TemplateEditor key={selected} siteId={siteId} name={selected} base={base} />
      </div>
    </>
  );
}

function TemplateEditor({ siteId, name, base }: { siteId: string; name: string; base: string }) {
  const queryClient = useQueryClient();
  const url = `${base}/${name}`;
  const loaded = useQuery({
    queryKey: ["template", siteId, name],
    queryFn: () => get<Template>(url),
    staleTime: 0,
  });
  const [source, setSource] = useState<string | undefined>();
  const [previewPath, setPreviewPath] = useState("/");
  const [frameKey, setFrameKey] = useState(0);
  const [previewing, setPreviewing] = useState(false);
  const [confirmRevert, setConfirmRevert] = useState(false);
  const [savedNote, setSavedNote] = useState("");
  const host = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const view = useRef<EditorView | undefined>(undefined);
  const data = loaded.data;

  // The editor, made once the template is loaded (it keeps its own text and history after that).
  const initial = data?.source;
  const ready = initial !== undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: made once per template, from its first source
  useEffect(() => {
    if (initial === undefined || !host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial,
        extensions: editorExtensions(setSource, `Source of the ${name} template`, hintId),
      }),
    });
    view.current = v;
    setSource(initial);
    return () => {
      v.destroy();
      view.current = undefined;
    };
  }, [ready, name]);

  // The frame shows drafts while this screen is open; leaving drops the draft and the cookie.
  useEffect(() => {
    void setPreviewMode(siteId, true);
    return () => {
      void del(`${url}/draft`).catch(() => {});
      void setPreviewMode(siteId, false);
    };
  }, [siteId, url]);

  const errors = useMemo(() => (source === undefined ? [] : syntaxErrors(source)), [source]);
  const dirty = data !== undefined && source !== undefined && source !== data.source;

  const afterChange = (t: Template) => {
    queryClient.setQueryData(["template", siteId, name], t);
    const v = view.current;
    if (v && v.state.doc.toString() !== t.source)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t.source } });
    void queryClient.invalidateQueries({ queryKey: ["templates", siteId] });
    setFrameKey((k) => k + 1);
  };
  /** After a save or a revert: the draft goes, the screen changes, the note says what happened. */
  const changed = (note: string, then: () => void) => async (t: Template) => {
    await del(`${url}/draft`).catch(() => {});
    then();
    setSavedNote(note);
    afterChange(t);
  };
  const save = useMutation({
    mutationFn: () => put<Template>(url, { source }),
    onSuccess: changed("Saved. The template is live on your site.", () => setPreviewing(true)),
  });
  const revert = useMutation({
    mutationFn: () => del<Template>(url),
    onSuccess: changed("Reverted to the theme's version.", () => setConfirmRevert(false)),
  });
  const preview = useMutation({
    mutationFn: async () => {
      await setPreviewMode(siteId, true);
      await put(`${url}/draft`, { source });
    },
    onSuccess: () => {
      setPreviewing(true);
      setFrameKey((k) => k + 1);
    },
  });
  const serverError =
    save.error instanceof ApiError && save.error.code === "template_syntax" ? save.error : undefined;

  if (loaded.isError) return <ErrorNotice error={loaded.error} />;
  if (!data) return <Loading what="Opening the template" />;

  return (
    <section className="tpl-editor card" aria-label={`Template ${name}`}>
      <header className="tpl-head">
        <div>
          <h2>{name}</h2>
          <span className={`badge${data.overridden ? " ok" : ""}`}>
            {data.overridden ? "Your version" : "Theme's version"}
          </span>
          {dirty ? <span className="badge warn">Unsaved changes</span> : null}
        </div>
        <div className="btn-row">
          <button
            type="button"
            className="btn"
            disabled={preview.isPending || errors.length > 0}
            onClick={() => {
              setSavedNote("");
              preview.mutate();
            }}
          >
            Preview
          </button>
          <Can permission="design.write">
            <button
              type="button"
              className="btn primary"
              disabled={!dirty || errors.length > 0 || save.isPending}
              onClick={() => {
                setSavedNote("");
                save.mutate();
              }}
            >
              {save.isPending ? "Saving…" : "Save"}
            </button>
            <button
              type="button"
              className="btn danger"
              disabled={!data.overridden || revert.isPending}
              onClick={() => setConfirmRevert(true)}
            >
              Revert to theme
            </button>
          </Can>
          <HistoryButton
            entity={`template:${name}`}
            label={`the ${name} template`}
            buttonClass="btn"
            write="design.write"
            invalidate={[["templates", siteId]]}
            preview={(content) => (
              <TemplateVersionFrame
                siteId={siteId}
                name={name}
                source={typeof content.source === "string" ? content.source : undefined}
              />
            )}
            onRestored={() =>
              void get<Template>(url).then((t) => {
                setSavedNote("Restored. The template is live on your site.");
                setPreviewing(true);
                afterChange(t);
              })
            }
          />
        </div>
      </header>
      <div className="tpl-code" ref={host} />
      <p className="muted small" id={hintId}>
        {CODE_KEYS_HINT}
      </p>
      <div className="tpl-problems" role="status" aria-live="polite" aria-label="Template errors">
        {errors.length ? (
          <ul>
            {errors.map((e) => (
              <li key={`${e.line}:${e.column}:${e.message}`}>
                <button
                  type="button"
                  className="linkish"
                  onClick={() => {
                    const v = view.current;
                    if (!v) return;
                    const line = v.state.doc.line(Math.min(e.line, v.state.doc.lines));
                    v.dispatch({
                      selection: { anchor: Math.min(line.from + e.column - 1, line.to) },
                      scrollIntoView: true,
                    });
                    v.focus();
                  }}
                >
                  Line {e.line}, column {e.column}
                </button>
                : {e.message}
              </li>
            ))}
          </ul>
        ) : (
          <p className="tpl-ok">No errors</p>
        )}
      </div>
      {serverError ? <Notice kind="error">{serverError.fields?.source ?? serverError.message}</Notice> : null}
      {save.error && !serverError ? <ErrorNotice error={save.error} /> : null}
      <ErrorNotice error={revert.error ?? preview.error} />
      {savedNote ? <Notice kind="ok">{savedNote}</Notice> : null}
      <div className="tpl-preview">
        <div className="tpl-preview-bar">
          <label className="field inline">
            <span className="label">Preview page</span>
            <input
              value={previewPath}
              onChange={(e) => setPreviewPath(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") setFrameKey((k) => k + 1);
              }}
            />
          </label>
          <span className="muted small">
            {previewing
              ? "Shows your edit; only you see it until you save."
              : "Press Preview to see your edit."}
          </span>
        </div>
        {previewing ? (
          <iframe
            key={frameKey}
            title="Template preview"
            onLoad={(e) => {
              // The footer is at the end of every page: show it.
              if (name === "footer") {
                const w = e.currentTarget.contentWindow;
                w?.scrollTo(0, w.document.documentElement.scrollHeight);
              }
            }}
            src={`/config/frame/${siteId}${previewPath.startsWith("/") ? previewPath : `/${previewPath}`}`}
          />
        ) : null}
      </div>
      {confirmRevert ? (
        <ActionDialog
          title={`Revert ${name}?`}
          onClose={() => setConfirmRevert(false)}
          action="Revert"
          onAction={() => revert.mutate()}
          kind="danger"
          disabled={revert.isPending}
        >
          <p>
            Your version of this template will be deleted and the site will use the theme's version again.
          </p>
        </ActionDialog>
      ) : null}
    </section>
  );
}
