/**
 * The CSS of unsaved styles, from the server's preview call (the same rules as saving: font faces
 * of the chosen fonts and the :root block), asked for a moment after the owner stops changing things.
 * A value the server refuses (a colour still being typed) keeps the last good preview.
 */
import { useEffect, useMemo, useState } from "react";
import { api } from "../../api.js";
import type { Styles } from "./design-api.js";

export function usePreviewCss(siteId: string, styles: Styles | undefined): string | undefined {
  const [css, setCss] = useState<string | undefined>();
  const key = useMemo(() => (styles ? JSON.stringify(styles) : ""), [styles]);
  useEffect(() => {
    if (!key) return;
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      api<{ css: string }>(`/api/owner/sites/${siteId}/design/preview`, {
        method: "POST",
        body: { styles: JSON.parse(key) },
        signal: ctrl.signal,
      }).then(
        (r) => setCss(r.css),
        () => {},
      );
    }, 120);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [siteId, key]);
  return css;
}
