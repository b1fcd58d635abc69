/** Design → Custom CSS: the owner's own CSS, served after the theme's, in a code editor. */
import { useEffect, useId, useMemo, useState } from "react";
import { ApiError } from "../../api.js";
import { ErrorNotice, Loading, PageHead, useSiteId } from "../../components/ui.js";
import { CodeEditor } from "./CodeEditor.js";
import { useDesign, useSaveDesign } from "./design-api.js";
import { errorsByPath } from "./field-errors.js";
import { PreviewFrame } from "./PreviewFrame.js";
import { useDesignKeys } from "./use-style-history.js";
import "./design.css";

export const CUSTOM_CSS_LIMIT = 100 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function CustomCss() {
  const siteId = useSiteId();
  const design = useDesign();
  const save = useSaveDesign();
  const labelId = useId();
  const [text, setText] = useState<string | undefined>();
  const saved = design.data?.customCss;
  useEffect(() => {
    if (saved !== undefined && text === undefined) setText(saved);
  }, [saved, text]);
  const size = useMemo(() => new TextEncoder().encode(text ?? "").length, [text]);
  const css = useMemo(() => ({ custom: text ?? "" }), [text]);
  const dirty = text !== undefined && text !== saved;
  const tooBig = size > CUSTOM_CSS_LIMIT;
  const serverError = errorsByPath(save.error instanceof ApiError ? save.error.fields : undefined).customCss;
  const fieldError = tooBig ? `Custom CSS can be at most 100 KB; this is ${kb(size)}.` : serverError;
  const doSave = () => {
    if (text === undefined || !dirty || tooBig || save.isPending) return;
    save.mutate({ customCss: text });
  };
  useDesignKeys({ undo: () => {}, redo: () => {}, save: doSave });

  if (design.isLoading || text === undefined)
    return design.error ? <ErrorNotice error={design.error} /> : <Loading />;

  return (
    <div className="design-screen">
      <PageHead title="Custom CSS" sub="Your own CSS, loaded after the theme's styles on every page." />
      <div className="design-split">
        <form
          className="design-controls"
          aria-label="Custom CSS"
          onSubmit={(e) => {
            e.preventDefault();
            doSave();
          }}
        >
          <div className="design-savebar">
            <span className={`save-state${dirty ? " dirty" : ""}`} role="status">
              {save.isPending ? "Saving…" : dirty ? "Unsaved changes" : "All changes saved"}
            </span>
            <span style={{ flex: 1 }} />
            <button type="submit" className="btn primary small" disabled={!dirty || tooBig || save.isPending}>
              Save
            </button>
          </div>
          {save.error && !serverError ? <ErrorNotice error={save.error} /> : null}
          <div className={`field${fieldError ? " invalid" : ""}`}>
            <span className="label" id={labelId}>
              CSS
            </span>
            <CodeEditor
              value={text}
              onChange={setText}
              labelledBy={labelId}
              describedBy={`${labelId}-d`}
              invalid={Boolean(fieldError)}
            />
            <span id={`${labelId}-d`} className={fieldError ? "error" : "help"}>
              {fieldError ?? "Selectors such as .site-header or .button style every page."}
            </span>
            <span className={`css-size${tooBig ? " over" : ""}`} aria-live="polite">
              {kb(size)} of 100 KB
            </span>
          </div>
        </form>
        <PreviewFrame siteId={siteId} css={css} />
      </div>
    </div>
  );
}
