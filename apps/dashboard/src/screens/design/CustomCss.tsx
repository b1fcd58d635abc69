/** Design → Custom CSS: the owner's own CSS, served after the theme's, in a code editor. */
import { CUSTOM_CSS_MAX_BYTES } from "@atelier/owner-api";
import { css as cssLanguage } from "@codemirror/lang-css";
import { useEffect, useMemo, useState } from "react";
import { ApiError } from "../../api.js";
import { CodeField, SaveBar } from "../../components/form/index.js";
import { ErrorNotice, Loading, useSiteId } from "../../components/ui.js";
import { useDesign, useSaveDesign } from "./design-api.js";
import { errorsByPath } from "./field-errors.js";
import { PreviewFrame } from "./PreviewFrame.js";
import { PreviewSplit } from "./PreviewSplit.js";
import { useLeaveGuard } from "./use-style-history.js";
import "./design.css";

const CSS_LANGUAGE = cssLanguage();

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function CustomCss() {
  const siteId = useSiteId();
  const design = useDesign();
  const save = useSaveDesign();
  const [text, setText] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const stored = design.data?.customCss;
  useEffect(() => {
    if (stored !== undefined && text === undefined) setText(stored);
  }, [stored, text]);
  const size = useMemo(() => new TextEncoder().encode(text ?? "").length, [text]);
  const preview = useMemo(() => ({ custom: text ?? "" }), [text]);
  useLeaveGuard(text !== undefined && text !== stored);

  if (text === undefined) return design.error ? <ErrorNotice error={design.error} /> : <Loading />;
  const dirty = text !== stored;
  const tooBig = size > CUSTOM_CSS_MAX_BYTES;
  const serverError = errorsByPath(save.error instanceof ApiError ? save.error.fields : undefined).customCss;
  const fieldError = tooBig
    ? `Custom CSS can be at most ${CUSTOM_CSS_MAX_BYTES / 1024} KB; this is ${kb(size)}.`
    : serverError;

  return (
    <PreviewSplit
      title="Custom CSS"
      sub="Your own CSS, loaded after the theme's styles on every page."
      label="Custom CSS"
      wide
      onSubmit={() => {
        if (!dirty || tooBig || save.isPending) return;
        setSaved(false);
        save.mutate({ customCss: text }, { onSuccess: () => setSaved(true) });
      }}
      preview={<PreviewFrame siteId={siteId} css={preview} replaces={["link#custom-css"]} />}
    >
      {save.error && !serverError ? <ErrorNotice error={save.error} /> : null}
      <CodeField
        label="CSS"
        value={text}
        onChange={(v) => {
          setSaved(false);
          if (save.error) save.reset();
          setText(v);
        }}
        language={CSS_LANGUAGE}
        error={fieldError}
        help="Selectors such as .site-header or .button reach every page. The preview shows your changes before you save."
      />
      <span className={`css-size${tooBig ? " over" : ""}`} aria-live="polite">
        {kb(size)} of 100 KB
      </span>
      <SaveBar
        dirty={dirty}
        pending={save.isPending}
        saved={saved && "Custom CSS saved."}
        onDiscard={() => setText(stored)}
        saveLabel="Save CSS"
      />
    </PreviewSplit>
  );
}
